/**
 * `tma reload` (C72): SIGHUP to this server's daemon, found through the pid
 * in its lock once its socket answers. With no daemon, a harmless note.
 * @module
 */
import { liveDaemon } from "../../runtime/daemon_link.ts";
import { daemonOf } from "../../runtime/daemon_start.ts";
import type { ParsedArgs } from "../args.ts";
import type { CommandContext } from "../context.ts";

/** Runs `tma reload`. */
export async function run(ctx: CommandContext, _args: ParsedArgs): Promise<number> {
  const found = await daemonOf(await ctx.server(), (name) => ctx.env(name));
  const live = found === null ? null : await liveDaemon(found.paths);
  if (live === null) {
    ctx.out("tma reload: no daemon runs for this server: nothing to reload\n");
    return 0;
  }
  Deno.kill(live.pid, "SIGHUP");
  ctx.out(`tma reload: the daemon (pid ${live.pid}) is reloading its config and manifests\n`);
  return 0;
}

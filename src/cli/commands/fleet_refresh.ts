/**
 * `tma fleet-refresh` (internal, X9): the background refresher a
 * `status --all-hosts` poll starts when none runs. It reads every `[[host]]`
 * each `[fleet] refresh_secs` into the local server's options until no poll
 * renewed its lease or the server is gone, and exits at once when another
 * refresher holds the lock.
 * @module
 */
import { hostSpecs } from "../../core/fleet/hosts.ts";
import { refresherLockPath, runRefresher } from "../../runtime/fleet/refresher.ts";
import type { ParsedArgs } from "../args.ts";
import type { CommandContext } from "../context.ts";

/** Runs the refresher to its end. */
export async function run(ctx: CommandContext, _args: ParsedArgs): Promise<number> {
  const [config, server] = await Promise.all([ctx.config(), ctx.server()]);
  const specs = hostSpecs(config);
  if (specs.length === 0) return 0;
  // A signal ends it through Deno.exit, whose unload kills the ssh under way (no orphan).
  for (const signal of ["SIGTERM", "SIGINT", "SIGHUP"] as const) {
    Deno.addSignalListener(signal, () => Deno.exit(0));
  }
  await runRefresher({
    server,
    specs,
    lockPath: refresherLockPath(ctx.env, server, specs),
    refreshMs: config.fleet.refresh_secs * 1000,
    now: ctx.now,
  });
  return 0;
}

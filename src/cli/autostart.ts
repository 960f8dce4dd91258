/**
 * `[daemon] autostart` (G27): the first use of a listing or waiting surface
 * starts a daemon for its server when none answers. Off by default, and then
 * it costs a config read the command makes anyway.
 * @module
 */
import type { CommandContext } from "./context.ts";

/** The commands whose use starts a daemon under `autostart = true` (G27). */
export const AUTOSTART_COMMANDS: ReadonlySet<string> = new Set([
  "ls",
  "status",
  "jump",
  "watch",
  "wait",
  "subscribe",
  "picker",
]);

/**
 * Starts `tma daemon --ensure` detached, with this command's server and
 * config flags (C9), unless autostart is off or a daemon answers. Never
 * fails the command.
 */
export async function autostartDaemon(ctx: CommandContext): Promise<void> {
  try {
    const config = await ctx.config();
    if (!config.daemon.autostart) return;
    const [{ liveDaemon }, { childFlags, daemonOf }, { selfArgv }] = await Promise.all([
      import("../runtime/daemon_link.ts"),
      import("../runtime/daemon_start.ts"),
      import("../actions/self.ts"),
    ]);
    const found = await daemonOf(await ctx.server(), (name) => ctx.env(name));
    if (found === null || await liveDaemon(found.paths) !== null) return;
    const [program, ...base] = selfArgv();
    const child = new Deno.Command(program, {
      args: [
        ...base,
        ...childFlags({
          socketPath: found.socketPath,
          config: ctx.globals.config,
          noConfig: ctx.globals.noConfig,
          manifestDir: ctx.globals.manifestDir,
        }),
        "daemon",
        "--ensure",
      ],
      stdin: "null",
      stdout: "null",
      stderr: "null",
    }).spawn();
    child.unref();
  } catch {
    // A daemon only adds: the command works without one (R13).
  }
}

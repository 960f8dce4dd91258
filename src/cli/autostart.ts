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
    const { liveDaemon } = await import("../runtime/daemon_link.ts");
    const ensure = await ensureCommand(ctx);
    if (ensure === null || await liveDaemon(ensure.paths) !== null) return;
    const child = new Deno.Command(ensure.program, {
      args: ensure.args,
      stdin: "null",
      stdout: "null",
      stderr: "null",
    }).spawn();
    child.unref();
  } catch {
    // A daemon only adds: the command works without one (R13).
  }
}

/**
 * Runs `tma daemon --ensure` for this command's server and waits for it
 * (`tma init --daemon`): done when a daemon answers, else why not in one line.
 */
export async function ensureDaemon(ctx: CommandContext): Promise<string | null> {
  const ensure = await ensureCommand(ctx);
  if (ensure === null) return "no tmux server to run a daemon for";
  const ran = await new Deno.Command(ensure.program, {
    args: ensure.args,
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).output();
  if (ran.code === 0) return null;
  const why = new TextDecoder().decode(ran.stderr).trim().split("\n").at(-1);
  return why || `tma daemon --ensure exited ${ran.code}`;
}

/** The argv of `tma daemon --ensure` with this command's server and config flags (C9). */
async function ensureCommand(ctx: CommandContext) {
  const [{ childFlags, daemonOf }, { selfArgv }] = await Promise.all([
    import("../runtime/daemon_start.ts"),
    import("../actions/self.ts"),
  ]);
  const found = await daemonOf(await ctx.server(), (name) => ctx.env(name));
  if (found === null) return null;
  const [program, ...base] = selfArgv();
  const args = [
    ...base,
    ...childFlags({
      socketPath: found.socketPath,
      config: ctx.globals.config,
      noConfig: ctx.globals.noConfig,
      manifestDir: ctx.globals.manifestDir,
    }),
    "daemon",
    "--ensure",
  ];
  return { program, args, paths: found.paths };
}

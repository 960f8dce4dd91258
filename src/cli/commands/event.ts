/**
 * `tma event`: the hook bridge agents reach through `tma-hook` (C101). Every
 * path exits 0 and prints nothing, except the Claude `PermissionRequest` hold
 * answering with Claude's decision object (A25) and the statusline shim's
 * `--kind context --print-status`, whose line the agent renders (I7);
 * failures go to `TMA_DEBUG_LOG` (R10).
 * @module
 */
import { boolFlag, type ParsedArgs, stringFlag } from "../args.ts";
import type { CommandContext } from "../context.ts";
import { runHookEvent } from "../../runtime/hook/run.ts";

/**
 * The event's evidence time: when the wrapper was fired (`TMA_HOOK_FIRED_AT`,
 * epoch ms), else this process's start; never the moment this code runs. Two
 * racing hooks are so ordered by when their events happened rather than by
 * how long each took to load (D47): Claude's PostToolUse and Stop fire tens
 * of milliseconds apart, less than Deno's start-up jitter.
 */
export function evidenceTimeMs(ctx: Pick<CommandContext, "now" | "env">): number {
  const now = ctx.now();
  const fired = Number(ctx.env("TMA_HOOK_FIRED_AT") ?? "");
  // A value from a skewed or stale environment is ignored: it must fall in
  // the last minute.
  if (Number.isSafeInteger(fired) && fired <= now && fired > now - 60_000) return fired;
  const origin = Math.floor(performance.timeOrigin);
  return Number.isFinite(origin) && origin > 0 && origin <= now ? origin : now;
}

/**
 * The process that fired the hook, when `TMA_HOOK_PID` names one: a daemon
 * stamping an event it refused runs `tma event` itself, and the hook's own
 * ancestry is what the hand-over check walks (D46).
 */
function hookPidOf(ctx: Pick<CommandContext, "env">): number | undefined {
  const pid = Number(ctx.env("TMA_HOOK_PID") ?? "");
  return Number.isSafeInteger(pid) && pid > 1 ? pid : undefined;
}

/** Runs `tma event`. */
export async function run(ctx: CommandContext, args: ParsedArgs): Promise<number> {
  if (boolFlag(args.flags, "drain")) return await drain(ctx);
  const evidenceAtMs = evidenceTimeMs(ctx);
  const stdout = await runHookEvent({
    agent: stringFlag(args.flags, "agent"),
    kind: stringFlag(args.flags, "kind"),
    pane: stringFlag(args.flags, "pane") || ctx.env("TMUX_PANE"),
    payload: stringFlag(args.flags, "payload"),
    printStatus: boolFlag(args.flags, "print-status"),
    globals: ctx.globals,
    env: (name) => ctx.env(name),
    evidenceAtMs,
    hookPid: hookPidOf(ctx),
    now: () => ctx.now(),
  });
  if (stdout !== null) ctx.out(`${stdout}\n`);
  return 0;
}

/**
 * `tma event --drain`: the server's drainer, which the wrapper starts
 * detached (X10). It needs the server's socket path (`--socket-path`, or
 * `$TMUX` inside tmux), which keys the spool; without one there is nothing
 * to drain. Exits 0 on every path, as every hook path does (R10).
 */
async function drain(ctx: CommandContext): Promise<number> {
  const [{ runDrainer }, { socketPathOf }] = await Promise.all([
    import("../../runtime/hook/drain.ts"),
    import("../../runtime/daemon_link.ts"),
  ]);
  const server = await ctx.server();
  const socketPath = ctx.globals.socketPath ?? socketPathOf(server, (name) => ctx.env(name), null);
  if (!socketPath) return 0;
  await runDrainer({
    server,
    socketPath,
    env: (name) => ctx.env(name),
    globals: ctx.globals,
    now: () => ctx.now(),
  });
  return 0;
}

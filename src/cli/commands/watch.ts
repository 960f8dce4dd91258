/**
 * `tma watch` (C66-C68, U33-U36): the live dashboard for a normal pane.
 * It advertises its pid on its own pane as `@tma_watch_pid` for the
 * attention-clear hook's SIGUSR1 nudges (U17, P36) and withdraws it on every
 * way out (q, esc, ctrl-c, SIGTERM, SIGINT, SIGHUP); a killed pane takes the
 * option with it. Enter jumps the acting client and the watch stays open.
 * @module
 */
import { runSurface, type SurfaceHost } from "../../ui/run.ts";
import { advertiseWatch } from "../../runtime/surface.ts";
import { boolFlag, fleetAsked, type ParsedArgs } from "../args.ts";
import type { CommandContext } from "../context.ts";
import { selectorFrom } from "../selector_flags.ts";
import { surfaceHost } from "../surface_host.ts";
import { joinDaemonHints } from "../daemon_hints.ts";

/** Runs the watch. */
export async function run(ctx: CommandContext, args: ParsedArgs): Promise<number> {
  const [server, config] = await Promise.all([ctx.server(), ctx.config()]);
  const pane = ctx.env("TMUX_PANE") || undefined;
  const reports: string[] = [];
  const selector = selectorFrom(args.flags);
  const refreshMs = Number(ctx.env("TMA_TEST_REFRESH_MS")) || undefined;
  const local = await surfaceHost(ctx, { selector, report: (line) => reports.push(line) });
  // X9: other hosts' rows beside (or instead of) this machine's; the fleet code loads only then.
  const host = fleetAsked(args.flags) ? await fleetHost(ctx, args, local, refreshMs) : local;
  const stopNudges = host.waker.onSignal("SIGUSR1");
  // U11: a running daemon's pushes wake the watch as soon as a state moves.
  const stopHints = await joinDaemonHints(ctx, host.waker);
  host.started = async () => {
    if (pane) await advertiseWatch(server, pane, Deno.pid);
  };
  try {
    return await runSurface(host, {
      kind: "watch",
      styles: config.picker,
      table: boolFlag(args.flags, "table"),
      // Tests stretch the tick to prove that a nudge alone refreshes (U17).
      refreshMs,
    });
  } finally {
    stopNudges();
    stopHints();
    if (pane) await advertiseWatch(server, pane, null);
    for (const line of reports) ctx.err(`${line}\n`);
  }
}

/** The watch's host over the fleet (X9). */
async function fleetHost(
  ctx: CommandContext,
  args: ParsedArgs,
  local: SurfaceHost,
  refreshMs: number | undefined,
): Promise<SurfaceHost> {
  const [{ fleetSurfaceHost }, { chosenHosts }] = await Promise.all([
    import("../fleet/surface.ts"),
    import("../fleet/common.ts"),
  ]);
  return await fleetSurfaceHost(ctx, local, {
    specs: await chosenHosts(ctx, args),
    withLocal: boolFlag(args.flags, "all-hosts"),
    selector: selectorFrom(args.flags),
    refreshMs: refreshMs ?? 1000,
  });
}

/**
 * `--debug-timing`: one stderr line of cycle counts (C7).
 * @module
 */
import type { CycleStats } from "../runtime/cycle/run.ts";
import type { CommandContext } from "./context.ts";

/** Prints the cycle's timing and counts when `--debug-timing` is on. */
export function reportTiming(ctx: CommandContext, stats: CycleStats): void {
  if (!ctx.globals.debugTiming) return;
  if (stats.skipped) {
    ctx.err(`tma: cycle skipped: another cycle ran this second (D53); ${stats.ms} ms\n`);
    return;
  }
  ctx.err(
    `tma: cycle ${stats.ms} ms; panes ${stats.panes}, agents ${stats.agents}, capture ${stats.captures}, ` +
      `capture-skipped ${stats.captureSkipped}, tmux calls ${stats.tmuxCalls}, writes ${stats.writes}\n`,
  );
}

/**
 * Picks the account quota window to publish: the one closest to exhaustion
 * among those a payload reports and that are still current (I9).
 * @module
 */
import type { QuotaReading } from "./reading.ts";
import { toPercent } from "./fields.ts";

/** One rate-limit window as a payload states it, before selection. */
export interface QuotaCandidate {
  /** The channel's own name for the window (`five_hour`, `primary`, ...). */
  window: string;
  /** The stated use, unrounded (Claude `used_percentage`, Codex `used_percent`). */
  usedPct: number;
  /** Epoch ms of the stated reset, or null where the channel states none. */
  resetsAtMs: number | null;
}

/**
 * The window closest to exhaustion, or `undefined` when no window qualifies.
 *
 * Windows must be given in the channel's listing order (I9): the highest
 * stated percentage wins and a tie goes to the window listed first. A window
 * whose reset time has passed (at or before `nowMs`) is ignored, as the
 * channel itself drops it; so is one whose percentage is not in 0-100 (the
 * context lane's rule, reused).
 *
 * ```ts
 * pickQuota([
 *   { window: "five_hour", usedPct: 40, resetsAtMs: null },
 *   { window: "seven_day", usedPct: 72.4, resetsAtMs: 1784600000000 },
 * ], 1784000000000); // { pct: 72, window: "seven_day", resetsAtMs: 1784600000000 }
 * ```
 */
export function pickQuota(
  windows: readonly QuotaCandidate[],
  nowMs: number,
): QuotaReading | undefined {
  let best: QuotaCandidate | undefined;
  for (const candidate of windows) {
    if (toPercent(candidate.usedPct) === undefined) continue;
    if (candidate.resetsAtMs !== null && candidate.resetsAtMs <= nowMs) continue;
    // Strictly greater: on a tie the window listed first stays.
    if (best === undefined || candidate.usedPct > best.usedPct) best = candidate;
  }
  if (best === undefined) return undefined;
  return {
    pct: toPercent(best.usedPct) as number,
    window: best.window,
    resetsAtMs: best.resetsAtMs,
  };
}

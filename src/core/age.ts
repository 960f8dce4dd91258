/**
 * Relative ages for people: `45s`, `3m`, `2h`, `4d`, the largest unit that
 * fits, rounded down, so an age never reads older than it is.
 *
 * ```ts
 * import { formatAge } from "./age.ts";
 * formatAge(200_000); // "3m"
 * ```
 * @module
 */

/**
 * The age of a span of `ms` milliseconds in its largest whole unit; a
 * negative span (a clock step) reads `0s`.
 *
 * ```ts
 * formatAge(59_999); // "59s"
 * formatAge(7_200_000); // "2h"
 * ```
 */
export function formatAge(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m`;
  if (s < 86_400) return `${Math.floor(s / 3600)}h`;
  return `${Math.floor(s / 86_400)}d`;
}

/**
 * How long until `atMs`, for a reset time (`in 2h`), or `now` once passed.
 *
 * ```ts
 * formatUntil(1_000, 7_201_000); // "in 2h"
 * ```
 */
export function formatUntil(nowMs: number, atMs: number): string {
  return atMs <= nowMs ? "now" : `in ${formatAge(atMs - nowMs)}`;
}

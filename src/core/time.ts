/**
 * Time-base helpers: every `*_at` is epoch milliseconds; legacy 10-digit seconds
 * values are scaled on read (D50). Pure: the current time is always passed in.
 * @module
 */

/** Milliseconds below which a stored number is read as legacy epoch seconds. */
const SECONDS_CEILING = 100_000_000_000;

/**
 * Parses a stored `*_at` option value into epoch ms, or null when absent or
 * malformed.
 *
 * ```ts
 * parseEpochMs("1784594569"); // 1784594569000 (legacy seconds)
 * ```
 */
export function parseEpochMs(value: string | undefined | null): number | null {
  if (value === undefined || value === null) return null;
  const trimmed = value.trim();
  if (!/^\d{1,16}$/.test(trimmed)) return null;
  const n = Number(trimmed);
  if (!Number.isSafeInteger(n) || n <= 0) return null;
  return n < SECONDS_CEILING ? n * 1000 : n;
}

/**
 * Durations and second counts typed on the command line: `mute --for 90s`
 * (C57), `wait --timeout 30` (C37), `subscribe --interval 2` (C61). Every
 * refusal is a usage error that names the flag and the value (exit 2).
 * @module
 */
import { UsageError } from "./errors.ts";

const UNIT_MS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/**
 * Parses `mute --for`: a positive integer with an optional `s`, `m`, `h` or
 * `d` unit; a bare number is seconds (C57). `0` and anything else is a
 * usage error naming `flag`.
 *
 * ```ts
 * parseDuration("15m", "--for"); // 900000
 * parseDuration("90", "--for"); // 90000
 * ```
 */
export function parseDuration(text: string, flag: string): number {
  const match = /^(\d+)([smhd]?)$/.exec(text.trim());
  if (!match) {
    throw new UsageError(
      `${flag}: "${text}" is not a duration (an integer with an optional s, m, h or d unit: 90s, 15m, 2h, 1d)`,
    );
  }
  const count = Number(match[1]);
  if (count === 0) {
    throw new UsageError(`${flag}: the duration must be more than 0 (got "${text}")`);
  }
  const ms = count * UNIT_MS[match[2] || "s"];
  if (!Number.isSafeInteger(ms)) throw new UsageError(`${flag}: "${text}" is too long`);
  return ms;
}

/**
 * Parses a count of seconds (`--timeout`, `--interval`): a decimal number
 * at least `min`, returned in milliseconds.
 *
 * ```ts
 * parseSeconds("2.5", { flag: "--timeout", min: 0 }); // 2500
 * ```
 */
export function parseSeconds(text: string, options: { flag: string; min: number }): number {
  const trimmed = text.trim();
  const value = /^\d+(\.\d+)?$/.test(trimmed) ? Number(trimmed) : NaN;
  if (!Number.isFinite(value)) {
    throw new UsageError(`${options.flag}: "${text}" is not a number of seconds`);
  }
  if (value < options.min) {
    throw new UsageError(`${options.flag}: must be at least ${options.min} (got "${text}")`);
  }
  return Math.round(value * 1000);
}

/**
 * Parses a positive integer flag value (`wait --count N`).
 *
 * ```ts
 * parseCount("3", "--count"); // 3
 * ```
 */
export function parseCount(text: string, flag: string): number {
  const trimmed = text.trim();
  const value = /^\d+$/.test(trimmed) ? Number(trimmed) : NaN;
  if (!Number.isSafeInteger(value) || value < 1) {
    throw new UsageError(`${flag}: "${text}" is not a positive whole number`);
  }
  return value;
}

/**
 * Small, shared rules for reading payload fields: a tolerant schema wrapper,
 * the percent and count guards, and epoch conversion. Every parser uses these
 * so that "ignored" means the same thing on every channel.
 * @module
 */
import { z } from "../../deps/zod.ts";
import { isObject } from "../object.ts";
import { MalformedPayloadError } from "./errors.ts";

/**
 * Wraps a field schema so a missing or malformed value reads as `undefined`
 * instead of failing the whole payload: one odd field must not cost the
 * fields beside it (I8, I56).
 *
 * ```ts
 * import { z } from "../../deps/zod.ts";
 * tolerant(z.number()).parse("12"); // undefined
 * ```
 */
export function tolerant<T extends z.ZodType>(schema: T): z.ZodCatch<z.ZodOptional<T>> {
  return schema.optional().catch(undefined);
}

/** A non-empty string, read tolerantly. */
export const looseString: z.ZodCatch<z.ZodOptional<z.ZodString>> = tolerant(z.string().min(1));

/** A finite number, read tolerantly. */
export const looseNumber: z.ZodCatch<z.ZodOptional<z.ZodNumber>> = tolerant(z.number());

/**
 * Parses a JSON document that must be an object, or throws
 * `MalformedPayloadError` naming the format.
 *
 * ```ts
 * parseJsonObject("pi-context-json", '{"context_usage":null}');
 * ```
 */
export function parseJsonObject(format: string, text: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    throw new MalformedPayloadError(format, `not JSON (${reason})`);
  }
  if (!isObject(value)) {
    const kind = value === null ? "null" : Array.isArray(value) ? "an array" : typeof value;
    throw new MalformedPayloadError(format, `expected a JSON object, got ${kind}`);
  }
  return value;
}

/**
 * Parses a JSON object payload of `format` through its schema, or throws
 * `MalformedPayloadError` naming the format and what the schema refused.
 *
 * ```ts
 * import { z } from "../../deps/zod.ts";
 * const schema = z.object({ session_id: z.string().optional() });
 * parsePayloadObject("pi-context-json", schema, '{"session_id":"s1"}'); // { session_id: "s1" }
 * ```
 */
export function parsePayloadObject<T>(format: string, schema: z.ZodType<T>, text: string): T {
  const parsed = schema.safeParse(parseJsonObject(format, text));
  if (!parsed.success) throw new MalformedPayloadError(format, parsed.error.message);
  return parsed.data;
}

/**
 * A percentage as the gauges store it: rounded to an integer, or `undefined`
 * when it is not a number in 0-100. A reading above 100 is ignored, never
 * clamped (I8, I18): it is a broken reading, not a full window.
 *
 * ```ts
 * toPercent(77.6); // 78
 * toPercent(247); // undefined
 * ```
 */
export function toPercent(value: number | undefined): number | undefined {
  if (value === undefined || !Number.isFinite(value) || value < 0 || value > 100) {
    return undefined;
  }
  return Math.round(value);
}

/**
 * A token count: a non-negative integer, or `undefined` when the value is not
 * one (a fractional count is rounded).
 *
 * ```ts
 * toCount(156000); // 156000
 * toCount(-1); // undefined
 * ```
 */
export function toCount(value: number | undefined): number | undefined {
  if (value === undefined || !Number.isFinite(value) || value < 0) return undefined;
  return Math.round(value);
}

/** Below this an epoch number is read as seconds, the unit both channels state (I9). */
const SECONDS_CEILING = 100_000_000_000;

/**
 * Converts an epoch stated in seconds (Claude's and Codex's `resets_at`) to
 * ms. A value already in ms (13 digits) is kept, so a unit change upstream
 * cannot put a reset in 1970 or the year 50000. Anything else is null.
 *
 * ```ts
 * epochToMs(1784600000); // 1784600000000
 * ```
 */
export function epochToMs(value: number | undefined | null): number | null {
  if (value === undefined || value === null || !Number.isFinite(value) || value <= 0) {
    return null;
  }
  return value < SECONDS_CEILING ? Math.round(value * 1000) : Math.round(value);
}

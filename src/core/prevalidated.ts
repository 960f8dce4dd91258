/**
 * A JSON encoding for data that was validated at build time, so the status
 * path loads the bundled manifests and the default config with one
 * `JSON.parse` instead of importing smol-toml and zod and running their
 * parses on every status-line poll (D64).
 *
 * Schema output is plain data except for compiled regexes, which travel as
 * `{"$regex": [source, flags]}` and are compiled again on decode. Anything
 * else JSON cannot carry faithfully (a Map, a Date, a function, a
 * non-finite number) is refused at encode time, so the build fails instead
 * of shipping a value that decodes differently.
 *
 * ```ts
 * import { decodeValidated, encodeValidated } from "./prevalidated.ts";
 * const text = encodeValidated({ rule: { source: "^a", re: /^a/u } });
 * decodeValidated<{ rule: { re: RegExp } }>(text).rule.re.test("abc"); // true
 * ```
 * @module
 */

const REGEX_KEY = "$regex";

/** Encodes schema output; throws on a value JSON would not round-trip. */
export function encodeValidated(value: unknown): string {
  return JSON.stringify(value, function (key, item: unknown) {
    // `this[key]` is the raw value: JSON.stringify has already called toJSON
    // on `item` (a Date would arrive as a string).
    const raw = (this as Record<string, unknown>)[key];
    if (raw instanceof RegExp) return { [REGEX_KEY]: [raw.source, raw.flags] };
    if (raw instanceof Date || raw instanceof Map || raw instanceof Set) {
      throw new TypeError(`cannot encode ${raw.constructor.name} at key "${key}"`);
    }
    if (typeof raw === "function" || typeof raw === "bigint" || typeof raw === "symbol") {
      throw new TypeError(`cannot encode a ${typeof raw} at key "${key}"`);
    }
    if (typeof raw === "number" && !Number.isFinite(raw)) {
      throw new TypeError(`cannot encode the number ${raw} at key "${key}"`);
    }
    if (raw !== null && typeof raw === "object" && Object.hasOwn(raw, REGEX_KEY)) {
      throw new TypeError(`cannot encode an object with a "${REGEX_KEY}" key at key "${key}"`);
    }
    return item;
  });
}

/** Decodes what {@linkcode encodeValidated} wrote, compiling its regexes. */
export function decodeValidated<T>(text: string): T {
  return JSON.parse(text, (_key, value: unknown) => {
    if (value === null || typeof value !== "object" || Array.isArray(value)) return value;
    const marker = (value as Record<string, unknown>)[REGEX_KEY];
    if (!Array.isArray(marker)) return value;
    const [source, flags] = marker as [string, string];
    return new RegExp(source, flags);
  }) as T;
}

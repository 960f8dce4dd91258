/**
 * An encoding for data that was validated at build time, so the status path
 * loads the bundled manifests and the default config with one native
 * `JSON.parse` instead of importing smol-toml and zod and running their
 * parses on every status-line poll (D64).
 *
 * Schema output is plain data except for compiled regexes. The encoding is
 * `{"data": <the value, each regex replaced by null>, "regexes": [[path,
 * source, flags], ...]}`: decoding parses the JSON natively (no reviver,
 * which would call back into JavaScript for every value) and compiles the
 * few regexes in place. Anything else JSON cannot carry faithfully (a Map, a
 * Date, a function, a non-finite number) is refused at encode time, so the
 * build fails instead of shipping a value that decodes differently.
 *
 * ```ts
 * import { decodeValidated, encodeValidated } from "./prevalidated.ts";
 * const text = encodeValidated({ rule: { source: "^a", re: /^a/u } });
 * decodeValidated<{ rule: { re: RegExp } }>(text).rule.re.test("abc"); // true
 * ```
 * @module
 */

/** Where a regex sits: the keys and indexes from the root. */
type Path = (string | number)[];

interface Encoded {
  data: unknown;
  regexes: [Path, string, string][];
}

/** Encodes schema output; throws on a value JSON would not round-trip. */
export function encodeValidated(value: unknown): string {
  const regexes: [Path, string, string][] = [];
  const data = strip(value, [], regexes);
  const encoded: Encoded = { data, regexes };
  return JSON.stringify(encoded);
}

/** A copy of `value` with its regexes replaced by null and recorded by path. */
function strip(value: unknown, path: Path, regexes: [Path, string, string][]): unknown {
  const where = path.length === 0 ? "the root" : `key "${path.join(".")}"`;
  if (isPattern(value)) {
    regexes.push([path, value.source, value.flags]);
    return null;
  }
  if (value instanceof Date || value instanceof Map || value instanceof Set) {
    throw new TypeError(`cannot encode ${value.constructor.name} at ${where}`);
  }
  if (typeof value === "function" || typeof value === "bigint" || typeof value === "symbol") {
    throw new TypeError(`cannot encode a ${typeof value} at ${where}`);
  }
  if (typeof value === "number" && !Number.isFinite(value)) {
    throw new TypeError(`cannot encode the number ${value} at ${where}`);
  }
  if (Array.isArray(value)) return value.map((item, i) => strip(item, [...path, i], regexes));
  if (value !== null && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      // An absent optional key stays absent, as JSON.stringify would leave it.
      if (item !== undefined) out[key] = strip(item, [...path, key], regexes);
    }
    return out;
  }
  return value;
}

/**
 * A compiled regex: a native `RegExp`, or a pattern of the linear-time engine
 * (the schema's output at build time). Both decode as a native `RegExp`: the
 * bundled patterns are vetted for backtracking when they are embedded.
 */
function isPattern(value: unknown): value is { source: string; flags: string } {
  if (value instanceof RegExp) return true;
  if (value === null || typeof value !== "object") return false;
  const p = value as Record<string, unknown>;
  return typeof p.test === "function" && typeof p.source === "string" &&
    typeof p.flags === "string";
}

/** Decodes what {@linkcode encodeValidated} wrote, compiling its regexes. */
export function decodeValidated<T>(text: string): T {
  const { data, regexes } = JSON.parse(text) as Encoded;
  for (const [path, source, flags] of regexes) {
    const re = new RegExp(source, flags);
    if (path.length === 0) return re as T;
    let holder = data as Record<string | number, unknown>;
    for (const key of path.slice(0, -1)) holder = holder[key] as Record<string | number, unknown>;
    holder[path[path.length - 1]] = re;
  }
  return data as T;
}

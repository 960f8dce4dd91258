/**
 * The one test for an object among parsed JSON and TOML values: a table with
 * string keys, never null and never an array.
 * @module
 */

/**
 * Whether `value` is an object with string keys, as a JSON object or a TOML
 * table is (not null, not an array).
 *
 * ```ts
 * isObject({ hooks: {} }); // true
 * isObject([1, 2]); // false
 * isObject(null); // false
 * ```
 */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * The few assertions the suite needs, kept local: JSR (and so `@std/assert`) is unreachable.
 *
 * ```ts
 * import { assertEquals } from "./assert.ts";
 * assertEquals([1, 2], [1, 2]);
 * ```
 * @module
 */

/** An assertion that did not hold. */
export class AssertionError extends Error {
  override name = "AssertionError";
}

/** Throws unless `condition` is truthy. */
export function assert(condition: unknown, message = "assertion failed"): asserts condition {
  if (!condition) throw new AssertionError(message);
}

function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v) => {
    if (v && typeof v === "object" && !Array.isArray(v)) {
      return Object.fromEntries(Object.entries(v).sort(([a], [b]) => a.localeCompare(b)));
    }
    return v === undefined ? "<undefined>" : v;
  }) ?? "<undefined>";
}

/** Throws unless `actual` and `expected` are deeply equal (JSON-comparable values). */
export function assertEquals(actual: unknown, expected: unknown, message?: string): void {
  const a = canonical(actual);
  const e = canonical(expected);
  if (a !== e) {
    throw new AssertionError(`${message ? message + ": " : ""}expected ${e}\n  actual ${a}`);
  }
}

/** Throws unless `actual` matches `pattern`. */
export function assertMatch(actual: string, pattern: RegExp, message?: string): void {
  if (!pattern.test(actual)) {
    throw new AssertionError(
      `${message ? message + ": " : ""}${JSON.stringify(actual)} !~ ${pattern}`,
    );
  }
}

/**
 * Assertions for our tests, in the spelling of Deno's standard library (which
 * JSR would give us, but JSR is unreachable), built on `node:assert/strict`.
 * @module
 */
import nodeAssert from "node:assert/strict";

/** Fails unless `value` is truthy. */
export function assert(value: unknown, message?: string): asserts value {
  nodeAssert.ok(value, message);
}

/** Fails unless `actual` deep-equals `expected`. */
export function assertEquals<T>(actual: T, expected: T, message?: string): void {
  nodeAssert.deepStrictEqual(actual, expected, message);
}

/** Fails unless `actual` does not deep-equal `expected`. */
export function assertNotEquals<T>(actual: T, expected: T, message?: string): void {
  nodeAssert.notDeepStrictEqual(actual, expected, message);
}

/** Fails unless `text` matches `pattern`. */
export function assertMatch(text: string, pattern: RegExp, message?: string): void {
  nodeAssert.match(text, pattern, message);
}

/** Fails unless `text` includes `part`. */
export function assertStringIncludes(text: string, part: string, message?: string): void {
  nodeAssert.ok(
    text.includes(part),
    message ?? `expected ${JSON.stringify(text)} to include ${JSON.stringify(part)}`,
  );
}

/** Fails unless `fn` throws an instance of `type`; returns the error. */
export function assertThrows<E extends Error>(
  fn: () => unknown,
  // deno-lint-ignore no-explicit-any
  type: new (...args: any[]) => E,
): E {
  try {
    fn();
  } catch (error) {
    nodeAssert.ok(error instanceof type, `expected ${type.name}, got ${error}`);
    return error as E;
  }
  throw new nodeAssert.AssertionError({ message: `expected ${type.name} to be thrown` });
}

/** Fails unless `fn` rejects with an instance of `type`; returns the error. */
export async function assertRejects<E extends Error>(
  fn: () => Promise<unknown>,
  // deno-lint-ignore no-explicit-any
  type: new (...args: any[]) => E,
): Promise<E> {
  try {
    await fn();
  } catch (error) {
    nodeAssert.ok(error instanceof type, `expected ${type.name}, got ${error}`);
    return error as E;
  }
  throw new nodeAssert.AssertionError({ message: `expected ${type.name} to be rejected` });
}

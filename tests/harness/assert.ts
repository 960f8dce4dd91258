/**
 * The one assertion module of the suite, unit, integration and end-to-end
 * tests alike: the names and argument order of Deno's standard library
 * (`@std/assert`, which JSR would give us, but JSR is unreachable), built on
 * `node:assert/strict`.
 *
 * ```ts
 * import { assertEquals, assertThrows } from "./assert.ts";
 * assertEquals({ a: [1, 2] }, { a: [1, 2] });
 * assertThrows(() => JSON.parse("{"), SyntaxError, "JSON");
 * ```
 * @module
 */
import nodeAssert from "node:assert/strict";

/** Fails unless `value` is truthy. */
export function assert(value: unknown, message?: string): asserts value {
  nodeAssert.ok(value, message);
}

/** Fails unless `actual` deep-equals `expected` (same keys and values, same prototypes). */
export function assertEquals<T>(actual: T, expected: T, message?: string): void {
  nodeAssert.deepStrictEqual(actual, expected, message);
}

/** Fails unless `actual` does not deep-equal `expected`. */
export function assertNotEquals<T>(actual: T, expected: T, message?: string): void {
  nodeAssert.notDeepStrictEqual(actual, expected, message);
}

/** Fails unless `actual` is `expected` itself (`Object.is`): the same object, or the same primitive. */
export function assertStrictEquals<T>(actual: T, expected: T, message?: string): void {
  nodeAssert.strictEqual(actual, expected, message);
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

// deno-lint-ignore no-explicit-any
type ErrorClass<E extends Error> = new (...args: any[]) => E;

function checkError<E extends Error>(
  error: unknown,
  type: ErrorClass<E>,
  msgIncludes: string | undefined,
): E {
  nodeAssert.ok(error instanceof type, `expected ${type.name}, got ${error}`);
  if (msgIncludes !== undefined) {
    nodeAssert.ok(
      error.message.includes(msgIncludes),
      `expected the ${type.name} message ${JSON.stringify(error.message)} to include ` +
        JSON.stringify(msgIncludes),
    );
  }
  return error;
}

/**
 * Fails unless `fn` throws an instance of `type` (any `Error` by default)
 * whose message includes `msgIncludes`, when given; returns the error.
 */
export function assertThrows<E extends Error = Error>(
  fn: () => unknown,
  type?: ErrorClass<E>,
  msgIncludes?: string,
): E {
  const expected = type ?? (Error as unknown as ErrorClass<E>);
  try {
    fn();
  } catch (error) {
    return checkError(error, expected, msgIncludes);
  }
  throw new nodeAssert.AssertionError({ message: `expected ${expected.name} to be thrown` });
}

/**
 * Fails unless `fn` rejects with an instance of `type` (any `Error` by
 * default) whose message includes `msgIncludes`, when given; returns the error.
 */
export async function assertRejects<E extends Error = Error>(
  fn: () => Promise<unknown>,
  type?: ErrorClass<E>,
  msgIncludes?: string,
): Promise<E> {
  const expected = type ?? (Error as unknown as ErrorClass<E>);
  try {
    await fn();
  } catch (error) {
    return checkError(error, expected, msgIncludes);
  }
  throw new nodeAssert.AssertionError({ message: `expected ${expected.name} to be rejected` });
}

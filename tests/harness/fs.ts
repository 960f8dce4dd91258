/**
 * File checks for the tests.
 *
 * ```ts
 * await exists("/tmp"); // true
 * ```
 * @module
 */

/** Whether anything exists at `path`. */
export async function exists(path: string): Promise<boolean> {
  try {
    await Deno.stat(path);
    return true;
  } catch {
    return false;
  }
}

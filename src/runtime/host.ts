/**
 * The observing machine's name (P57), read once per call site.
 * @module
 */

/** The observing machine's hostname (P57), or "" where it cannot be read. */
export function hostName(): string {
  try {
    return Deno.hostname();
  } catch {
    return "";
  }
}

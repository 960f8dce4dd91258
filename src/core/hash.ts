/**
 * A short, fast, non-cryptographic hash of a captured viewport (P11). Only
 * its presence matters to readers; it is never compared for state.
 * @module
 */

/**
 * 32-bit FNV-1a over the UTF-16 code units, as 8 hex digits.
 *
 * ```ts
 * viewportHash("hello"); // "4f9f2cab"
 * ```
 */
export function viewportHash(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0).toString(16).padStart(8, "0");
}

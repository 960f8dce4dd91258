/**
 * A seeded random generator for the fuzz and differential tests
 * (mulberry32): small, fast, and the same sequence everywhere, so a failure
 * that prints its seed replays.
 *
 * ```ts
 * const next = seededRandom(13);
 * next(); // a number in [0, 1), the same on every run
 * ```
 * @module
 */

/** A generator of numbers in [0, 1) from `seed`. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Sets of code points as sorted, disjoint, inclusive ranges: what one regex
 * atom (a literal, a class, an escape, `.`) can match. The RE2 printer writes
 * them out range by range, so a translated pattern matches exactly the code
 * points the JavaScript one does, and the backtracking vet intersects them.
 *
 * ```ts
 * import { charSet, intersects, WHITESPACE } from "./charset.ts";
 * intersects(charSet([[0x20, 0x20]]), WHITESPACE); // true
 * ```
 * @module
 */

/** An inclusive code point range. */
export type Range = readonly [number, number];

/** A normalised set: ranges sorted by start, disjoint and not adjacent. */
export type CharSet = readonly Range[];

/** The last Unicode code point. */
export const MAX_CODE_POINT = 0x10ffff;

/** Every code point. */
export const ANY: CharSet = [[0, MAX_CODE_POINT]];

/** Normalises any list of ranges: sorted, merged where they overlap or touch. */
export function charSet(ranges: readonly Range[]): CharSet {
  const sorted = [...ranges].filter(([lo, hi]) => lo <= hi).sort((a, b) => a[0] - b[0]);
  const out: [number, number][] = [];
  for (const [lo, hi] of sorted) {
    const last = out[out.length - 1];
    if (last && lo <= last[1] + 1) last[1] = Math.max(last[1], hi);
    else out.push([lo, hi]);
  }
  return out;
}

/** The union of sets. */
export function union(...sets: CharSet[]): CharSet {
  return charSet(sets.flat());
}

/** Every code point not in `set`. */
export function complement(set: CharSet): CharSet {
  const out: [number, number][] = [];
  let next = 0;
  for (const [lo, hi] of set) {
    if (lo > next) out.push([next, lo - 1]);
    next = hi + 1;
  }
  if (next <= MAX_CODE_POINT) out.push([next, MAX_CODE_POINT]);
  return out;
}

/** The code points in both sets. */
export function intersect(a: CharSet, b: CharSet): CharSet {
  const out: [number, number][] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const lo = Math.max(a[i][0], b[j][0]);
    const hi = Math.min(a[i][1], b[j][1]);
    if (lo <= hi) out.push([lo, hi]);
    if (a[i][1] < b[j][1]) i++;
    else j++;
  }
  return out;
}

/** Whether two sets share a code point. */
export function intersects(a: CharSet, b: CharSet): boolean {
  return intersect(a, b).length > 0;
}

/** One code point. */
export function single(codePoint: number): CharSet {
  return [[codePoint, codePoint]];
}

/** `\d`: ASCII digits (the same in JavaScript's u mode and RE2). */
export const DIGITS: CharSet = [[0x30, 0x39]];

/** `\w`: ASCII word characters (u mode without the i flag, and RE2). */
export const WORD: CharSet = charSet([[0x30, 0x39], [0x41, 0x5a], [0x5f, 0x5f], [0x61, 0x7a]]);

/**
 * `\s` as JavaScript defines it: WhiteSpace and LineTerminator, which is
 * wider than RE2's `\s` (`[\t\n\f\r ]`), so the printer spells it out.
 */
export const WHITESPACE: CharSet = charSet([
  [0x09, 0x0d],
  [0x20, 0x20],
  [0xa0, 0xa0],
  [0x1680, 0x1680],
  [0x2000, 0x200a],
  [0x2028, 0x2029],
  [0x202f, 0x202f],
  [0x205f, 0x205f],
  [0x3000, 0x3000],
  [0xfeff, 0xfeff],
]);

/** What `.` does not match without the s flag: the line terminators. */
export const LINE_TERMINATORS: CharSet = charSet([[0x0a, 0x0a], [0x0d, 0x0d], [0x2028, 0x2029]]);

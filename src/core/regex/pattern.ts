/**
 * The one thing tma asks of a compiled manifest pattern: does it match this
 * text. A bundled pattern is a native `RegExp` (vetted when `deno task
 * embed` runs, see `backtracking.ts`); a user's is compiled for the
 * linear-time engine (`linear.ts`). Both have this shape.
 * @module
 */

/** A compiled manifest pattern: its verbatim source, its flags and a match test. */
export interface TextPattern {
  readonly source: string;
  readonly flags: string;
  test(text: string): boolean;
}

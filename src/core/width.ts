/**
 * Terminal column widths of text, for tables whose titles hold `✳`, CJK or
 * emoji: East Asian Wide and Fullwidth characters take two columns,
 * combining marks, zero-width joiners and variation selectors none, and an
 * emoji shown as a picture (emoji presentation, or a pictograph followed by
 * U+FE0F) two.
 *
 * ```ts
 * import { displayWidth } from "./width.ts";
 * displayWidth("✳ 日本"); // 6
 * ```
 * @module
 */
import { eastAsianWidth } from "../deps/east_asian_width.ts";

const ZERO_WIDTH = /^[\p{Mn}\p{Me}\p{Cf}\u200b-\u200f\ufe00-\ufe0f\u{e0100}-\u{e01ef}]$/u;
const PICTURE = /^\p{Emoji_Presentation}$/u;
const PICTOGRAPH = /^\p{Extended_Pictographic}$/u;
const VS16 = 0xfe0f;
const ZWJ = 0x200d;

/** One code point's width, given the code point after it (for U+FE0F). */
function codePointWidth(cp: number, next: number | undefined): number {
  if (cp < 0x20 || (cp >= 0x7f && cp < 0xa0)) return 0;
  if (cp < 0x7f) return 1;
  const ch = String.fromCodePoint(cp);
  if (ZERO_WIDTH.test(ch)) return 0;
  if (PICTURE.test(ch)) return 2;
  if (next === VS16 && PICTOGRAPH.test(ch)) return 2;
  return eastAsianWidth(cp);
}

/** The code points of `text`, as numbers. */
function codePoints(text: string): number[] {
  const out: number[] = [];
  for (const ch of text) out.push(ch.codePointAt(0)!);
  return out;
}

/**
 * The columns `text` takes on a terminal (no escape sequences in it). A
 * ZWJ sequence (`👩‍💻`) counts as its first picture.
 *
 * ```ts
 * displayWidth("abc"); // 3
 * displayWidth("🤖"); // 2
 * ```
 */
export function displayWidth(text: string): number {
  if (/^[\x20-\x7e]*$/.test(text)) return text.length;
  const cps = codePoints(text);
  let width = 0;
  for (let i = 0; i < cps.length; i++) {
    if (cps[i] === ZWJ) {
      i++; // the joined code point draws inside the previous picture
      continue;
    }
    width += codePointWidth(cps[i], cps[i + 1]);
  }
  return width;
}

/**
 * Cuts `text` to at most `columns` columns, ending with `…` when it was cut.
 *
 * ```ts
 * truncate("日本語のタイトル", 7); // "日本語…"
 * ```
 */
export function truncate(text: string, columns: number): string {
  if (columns <= 0) return "";
  if (displayWidth(text) <= columns) return text;
  const cps = codePoints(text);
  let out = "";
  let width = 0;
  for (let i = 0; i < cps.length; i++) {
    const w = cps[i] === ZWJ ? 0 : codePointWidth(cps[i], cps[i + 1]);
    if (width + w > columns - 1) break;
    out += String.fromCodePoint(cps[i]);
    if (cps[i] === ZWJ && i + 1 < cps.length) out += String.fromCodePoint(cps[++i]);
    width += w;
  }
  return `${out}…`;
}

/**
 * `text` cut or padded with spaces to exactly `columns` columns.
 *
 * ```ts
 * fit("ab", 4); // "ab  "
 * ```
 */
export function fit(text: string, columns: number): string {
  const cut = truncate(text, columns);
  return cut + " ".repeat(Math.max(0, columns - displayWidth(cut)));
}

/**
 * `text` padded on the left to `columns` columns (numbers in a table).
 *
 * ```ts
 * fitRight("3m", 4); // "  3m"
 * ```
 */
export function fitRight(text: string, columns: number): string {
  const cut = truncate(text, columns);
  return " ".repeat(Math.max(0, columns - displayWidth(cut))) + cut;
}

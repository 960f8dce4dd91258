/**
 * The prompt fingerprint: a hash of the blocking dialog a keys action
 * answers, taken when the gate passes and compared with a fresh capture just
 * before the keys go out (X. Beyond). A different dialog (the agent moved on
 * to the next request) refuses `prompt-changed` instead of answering a prompt
 * nobody looked at. Only the hash is kept, never the screen text.
 *
 * ```ts
 * const capture = "Do you want to proceed?\n ❯ 1. Yes\n   2. No\n";
 * const rows = promptRows(capture, 40);
 * const print = await fingerprint(rows); // "3fa1…" (16 hex digits)
 * ```
 * @module
 */
import { stripAnsi } from "../ansi.ts";

/** How many rows, counted up from the last non-blank one, make up the dialog. */
export const PROMPT_ROWS = 16;

/**
 * The rows the fingerprint covers: the viewport (the last `height` lines of
 * a capture that includes scrollback), escapes stripped, trailing blanks
 * trimmed, then the last {@linkcode PROMPT_ROWS} rows above the last
 * non-blank one. Colours and the cursor's blink never change it.
 */
export function promptRows(capture: string, height: number): string[] {
  const lines = capture.split("\n");
  const viewport = height > 0 ? lines.slice(-height) : lines;
  const rows = viewport.map((line) => stripAnsi(line).trimEnd());
  while (rows.length > 0 && rows[rows.length - 1] === "") rows.pop();
  return rows.slice(-PROMPT_ROWS);
}

/** A SHA-256 of the rows, as 16 hex digits. */
export async function fingerprint(rows: readonly string[]): Promise<string> {
  const data = new TextEncoder().encode(rows.join("\n"));
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", data));
  return Array.from(digest.slice(0, 8), (b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * One row of the dialog the send guard checks on the server: its text as
 * tmux reads the row (escapes stripped, trailing ASCII white space trimmed)
 * and the 1-based viewport line where that text first appears, which is what
 * tmux's `#{C/r:…}` search answers.
 */
export interface ScreenRow {
  text: string;
  line: number;
}

/** The white space tmux trims from the end of a row when it searches one (ASCII only). */
const TMUX_SPACE = new Set([" ", "\t", "\n", "\v", "\f", "\r"]);

/**
 * A row without its trailing white space, by a scan from the end: the
 * regex `/[ \t\n\v\f\r]+$/` retries at every offset of a blank run, so a
 * hostile row of blanks ending in a glyph costs it quadratic time.
 */
function trimTmuxSpace(row: string): string {
  let end = row.length;
  while (end > 0 && TMUX_SPACE.has(row[end - 1])) end--;
  return row.slice(0, end);
}

/**
 * The rows of the fingerprinted dialog (the same rows as
 * {@linkcode promptRows}) with where each first appears in the viewport, so
 * the server can check, in the same command list as the keystrokes, that
 * the dialog is still the one the gate passed on (X1, A18).
 *
 * ```ts
 * guardRows("Proceed?\n ❯ 1. Yes\n   2. No", 3);
 * // [{ text: "Proceed?", line: 1 }, { text: " ❯ 1. Yes", line: 2 }, { text: "   2. No", line: 3 }]
 * ```
 */
export function guardRows(capture: string, height: number): ScreenRow[] {
  const lines = capture.split("\n");
  const viewport = (height > 0 ? lines.slice(-height) : lines).map((line) =>
    trimTmuxSpace(stripAnsi(line))
  );
  let last = viewport.length - 1;
  while (last >= 0 && viewport[last] === "") last--;
  const rows: ScreenRow[] = [];
  for (let i = Math.max(0, last - PROMPT_ROWS + 1); i <= last; i++) {
    const text = viewport[i];
    if (rows.some((row) => row.text === text)) continue;
    rows.push({ text, line: viewport.indexOf(text) + 1 });
  }
  return rows;
}

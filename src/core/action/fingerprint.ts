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

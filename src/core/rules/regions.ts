/**
 * Cuts a rule's region out of a captured screen: `tail_lines(N)`, the
 * `visible` viewport, or the pane `title` (D27).
 *
 * Trailing blank rows are dropped before a region is cut, and this is a
 * deliberate choice. Agents that stay on tmux's main screen (Claude, Gemini,
 * pi) draw from the top of the viewport down, so a fresh session leaves a
 * column of empty rows under the composer, often more than the few lines an
 * idle rule looks at. Counting `tail_lines(N)` from the bottommost row with
 * text keeps such a rule anchored on the chrome it was written for at any
 * pane height. Dropping blanks only moves the window down to content; it can
 * never pull scrollback into `visible`, which is cut from the viewport first.
 *
 * ```ts
 * import { prepareScreen, regionLines } from "./regions.ts";
 * const screen = prepareScreen({ capture: "a\nb\n\n\n", title: "t", height: 4 });
 * regionLines(screen, { kind: "tail_lines", lines: 1, spec: "tail_lines(1)" }); // ["b"]
 * ```
 * @module
 */

import { stripAnsi } from "../ansi.ts";
import type { Region } from "../manifest/agent_schema.ts";

/** A raw capture as the classifier receives it. */
export interface ScreenInput {
  /** `capture-pane -p -e -S -50` output, escapes included (they are stripped here). */
  capture: string;
  /** The pane title (`#{pane_title}`). */
  title: string;
  /** `#{pane_height}`; null or absent when unknown, which makes `visible` the whole capture. */
  height?: number | null;
}

/** A capture made ready for matching: escapes stripped, split into rows. */
export interface PreparedScreen {
  /** Every captured row, top to bottom, without escapes; trailing blank rows kept. */
  rows: readonly string[];
  /** The pane title, without escapes. */
  title: string;
  /** The viewport height, or null when unknown. */
  height: number | null;
}

/**
 * Strips escapes and splits the capture into rows. The newline that ends the
 * last row is not a row of its own.
 */
export function prepareScreen(input: ScreenInput): PreparedScreen {
  const text = stripAnsi(input.capture);
  const rows = text === "" ? [] : text.split("\n");
  if (rows.length > 0 && rows[rows.length - 1] === "") rows.pop();
  const height = input.height != null && input.height > 0 ? Math.floor(input.height) : null;
  return { rows, title: stripAnsi(input.title), height };
}

/**
 * The rows a region covers, top to bottom:
 * - `tail_lines(N)`: the last N rows of the capture once trailing blank rows
 *   are dropped;
 * - `visible`: the last `height` rows (the viewport; the whole capture when
 *   the height is unknown), trailing blank rows dropped;
 * - `title`: the pane title as a single row.
 */
export function regionLines(screen: PreparedScreen, region: Region): readonly string[] {
  switch (region.kind) {
    case "title":
      return [screen.title];
    case "visible": {
      const viewport = screen.height === null ? screen.rows : screen.rows.slice(-screen.height);
      return dropTrailingBlank(viewport);
    }
    case "tail_lines":
      return dropTrailingBlank(screen.rows).slice(-region.lines);
  }
}

/**
 * `rows` without the blank (empty or whitespace-only) rows at its end.
 *
 * ```ts
 * dropTrailingBlank(["a", "", " "]); // ["a"]
 * ```
 */
export function dropTrailingBlank(rows: readonly string[]): readonly string[] {
  let end = rows.length;
  while (end > 0 && isBlank(rows[end - 1])) end--;
  return end === rows.length ? rows : rows.slice(0, end);
}

function isBlank(row: string): boolean {
  return /^\s*$/.test(row);
}

/**
 * `tma ls` for people (item 8): a header, the state glyph in its colour
 * (none under `NO_COLOR`), relative ages, and titles trimmed of their
 * padding; a line saying so when there are no agent panes. Scripts that
 * pipe `ls` get the C17 lines instead.
 *
 * ```ts
 * import { renderLsTable } from "./ls_table.ts";
 * import { defaultConfig } from "../core/config/schema.ts";
 * renderLsTable([], { nowMs: 0, styles: defaultConfig().picker, color: false, width: 80 });
 * // "no agent panes on this tmux server\n"
 * ```
 * @module
 */
import { formatAge } from "../core/age.ts";
import type { AgentRow } from "../core/rows.ts";
import { classOf } from "../core/state.ts";
import { displayWidth, fit, fitRight, truncate } from "../core/width.ts";
import { fg, RESET } from "./style.ts";
import type { ClassStyles } from "./surface.ts";

/** How the table is drawn. */
export interface LsTableOptions {
  nowMs: number;
  styles: ClassStyles;
  /** Colours on (a terminal without `NO_COLOR`). */
  color: boolean;
  /** The terminal's width; the title is cut to fit. */
  width: number;
  /** A selector narrowed the rows (changes the empty line). */
  filtered?: boolean;
}

/** The table, one line per row, with a header. */
export function renderLsTable(rows: readonly AgentRow[], options: LsTableOptions): string {
  if (rows.length === 0) {
    return options.filtered ? "no agent panes match\n" : "no agent panes on this tmux server\n";
  }
  const cells = rows.map((row) => ({
    row,
    state: row.detail ? `${row.state}/${row.detail}` : row.state,
    age: row.since_ms === null ? "" : formatAge(options.nowMs - row.since_ms),
    where: row.repo ? `${row.repo}${row.branch ? `@${row.branch}` : ""}` : row.branch ?? "",
  }));
  const width = (values: string[], min: number) =>
    Math.max(min, ...values.map((v) => displayWidth(v)));
  const w = {
    pane: width(rows.map((r) => r.pane), 4),
    agent: width(rows.map((r) => r.agent), 5),
    state: width(cells.map((c) => c.state), 5),
    age: width(cells.map((c) => c.age), 3),
    locator: width(rows.map((r) => r.locator), 7),
    where: Math.min(30, width(cells.map((c) => c.where), 4)),
  };
  const fixed = 2 + w.pane + w.agent + w.state + w.age + w.locator + w.where + 6;
  const titleWidth = Math.max(10, options.width - fixed - 1);
  const line = (glyph: string, c: string[]) =>
    `${glyph} ${fit(c[0], w.pane)} ${fit(c[1], w.agent)} ${fit(c[2], w.state)} ${
      fitRight(c[3], w.age)
    } ${fit(c[4], w.locator)} ${fit(c[5], w.where)} ${truncate(c[6], titleWidth)}`.trimEnd();
  const out = [line(" ", ["PANE", "AGENT", "STATE", "AGE", "LOCATOR", "REPO", "TITLE"])];
  for (const c of cells) {
    const style = options.styles[classOf(c.row.state, c.row.attention)];
    const glyph = options.color ? `${fg(style.color)}${style.glyph}${RESET}` : style.glyph;
    out.push(
      line(glyph, [
        c.row.pane,
        c.row.agent,
        c.state,
        c.age,
        c.row.locator,
        c.where,
        c.row.title.trim(),
      ]),
    );
  }
  return `${out.join("\n")}\n`;
}

/**
 * What the picker and watch draw: one string per screen line, with SGR
 * colours, from the model alone. The preview column starts with an
 * absolute column move, so a title whose width the terminal counts
 * differently can never push it sideways.
 *
 * ```ts
 * import { view } from "./view.ts";
 * declare const model: import("./surface.ts").SurfaceModel;
 * const lines = view(model); // model.height lines
 * ```
 * @module
 */
import { formatAge } from "../core/age.ts";
import type { AgentRow } from "../core/rows.ts";
import { CLASSES, classOf } from "../core/state.ts";
import { displayWidth, fit, fitRight, truncate } from "../core/width.ts";
import { cutAnsi } from "./ansi_cut.ts";
import type { Entry } from "./list.ts";
import {
  bodyHeight,
  chromeLines,
  entriesOf,
  listColumns,
  noteLines,
  showsPreview,
  type SurfaceModel,
} from "./surface.ts";
import { DIM, fg, RESET, REVERSE, UNDERLINE } from "./style.ts";
import { tableHeader, tableLine } from "./table.ts";

/** The coloured glyph of a row's class. */
export function glyphOf(model: SurfaceModel, row: AgentRow): string {
  const style = model.styles[classOf(row.state, row.attention)];
  return `${fg(style.color)}${style.glyph}${RESET}`;
}

/** Time in state, `3m`; empty with no `since`. */
export function ageOf(model: SurfaceModel, row: AgentRow): string {
  return row.since_ms === null ? "" : formatAge(model.nowMs - row.since_ms);
}

/** One list row (U29): glyph, agent, locator, time in state, dimmed branch, title. */
function listLine(model: SurfaceModel, row: AgentRow, width: number, rows: AgentRow[]): string {
  const glyph = glyphOf(model, row);
  const title = row.title.trim();
  if (width < 30) return `${glyph} ${truncate(`${row.agent} ${title}`, Math.max(0, width - 2))}`;
  const locatorWidth = Math.min(18, Math.max(8, ...rows.map((r) => displayWidth(r.locator))));
  const branchWidth = width >= 70 && rows.some((r) => r.branch) ? 14 : 0;
  const fixed = 2 + 9 + locatorWidth + 1 + 4 + 1 + (branchWidth ? branchWidth + 1 : 0);
  const rest = Math.max(0, width - fixed);
  const branch = branchWidth ? `${DIM}${fit(row.branch ?? "", branchWidth)}${RESET} ` : "";
  return `${glyph} ${fit(row.agent, 8)} ${fit(row.locator, locatorWidth)} ${
    fitRight(ageOf(model, row), 4)
  } ${branch}${fit(title, rest)}`;
}

/** One entry of the body, highlighted or underlined as the list state says. */
function entryLine(
  model: SurfaceModel,
  entry: Entry | undefined,
  index: number,
  width: number,
  rows: AgentRow[],
): string {
  if (!entry) return " ".repeat(width);
  if (entry.kind === "header") return `${DIM}${fit(`▸ ${entry.label}`, width)}${RESET}`;
  const text = model.kind === "watch" && model.table
    ? tableLine(model, entry.row, width, rows)
    : listLine(model, entry.row, width, rows);
  const selected = entry.row.pane === model.list.selected;
  const hovered = index === model.list.hover;
  if (!selected && !hovered) return text;
  // Re-apply the highlight after every reset inside the row.
  const on = `${selected ? REVERSE : ""}${hovered ? UNDERLINE : ""}`;
  return `${on}${text.replaceAll(RESET, RESET + on)}${RESET}`;
}

/** The preview's lines: the bottom of the capture, where an agent's prompt is. */
function previewLines(model: SurfaceModel, height: number, width: number): string[] {
  const text = model.preview?.pane === model.list.selected ? model.preview?.text ?? "" : "";
  const lines = text.replace(/\n+$/, "").split("\n");
  const shown = lines.slice(Math.max(0, lines.length - height));
  return Array.from({ length: height }, (_, i) => cutAnsi(shown[i] ?? "", width));
}

/** Counts per class, as glyphs (the watch header). */
function countsLine(model: SurfaceModel, rows: readonly AgentRow[]): string {
  return CLASSES.map((c) => {
    const n = rows.filter((r) => classOf(r.state, r.attention) === c).length;
    return n === 0 ? "" : `${fg(model.styles[c].color)}${model.styles[c].glyph}${n}${RESET}`;
  }).filter((s) => s !== "").join(" ");
}

function header(model: SurfaceModel, rows: readonly AgentRow[]): string {
  const scope = model.kind === "picker"
    ? model.allSessions || model.invokingSession === null
      ? "all sessions"
      : `session ${model.invokingSession}`
    : "";
  const title = model.kind === "picker" ? "tma" : "tma watch";
  const count = `${rows.length} agent${rows.length === 1 ? "" : "s"}`;
  const parts = [`\x1b[1m${title}${RESET}`, count, scope, countsLine(model, rows)].filter((p) =>
    p !== ""
  );
  return ` ${parts.join("  ")}`;
}

function footer(model: SurfaceModel): string {
  const keys = model.kind === "picker"
    ? "enter jump · tab actions · ctrl-s session · esc close"
    : `enter jump · a actions${model.width >= 76 ? " · p table" : ""} · g group · q quit`;
  return `${DIM}${truncate(` ${keys}`, model.width)}${RESET}`;
}

/**
 * The screen: `model.height` lines of at most `model.width` columns.
 * Below the size a layout needs it degrades to the bare list, and it never
 * throws on a tiny terminal.
 */
export function view(model: SurfaceModel): string[] {
  const width = Math.max(0, model.width);
  const height = Math.max(0, model.height);
  const entries = entriesOf(model);
  const rows = entries.flatMap((e) => e.kind === "row" ? [e.row] : []);
  const preview = showsPreview(model);
  const listWidth = preview ? listColumns(width) : width;
  const { top, bottom } = chromeLines(model);
  const lines: string[] = [];
  if (top > 0) lines.push(header(model, model.rows));
  if (model.kind === "picker" && top > 1) {
    lines.push(` ${fg("cyan")}>${RESET} ${truncate(model.query, width - 4)}▏`);
  }
  for (const note of model.notes.slice(0, noteLines(model))) {
    lines.push(`${fg("red")}✗${RESET} ${DIM}${truncate(note, Math.max(0, width - 2))}${RESET}`);
  }
  if (model.kind === "watch" && model.table && height >= 6) {
    lines.push(`${DIM}${tableHeader(model, width, rows)}${RESET}`);
  }
  const body = bodyHeight(model);
  const previewText = preview ? previewLines(model, body, width - listWidth - 1) : [];
  for (let i = 0; i < body; i++) {
    const index = model.list.scroll + i;
    let line = entryLine(model, entries[index], index, listWidth, rows);
    if (entries.length === 0 && i === 0) {
      line = fit(
        model.fresh || model.rows.length > 0 ? " no agent panes" : " reading agent panes…",
        listWidth,
      );
    }
    if (preview) line += `\x1b[${listWidth + 1}G${DIM}│${RESET}${previewText[i]}`;
    lines.push(line);
  }
  if (bottom > 0) lines.push(footer(model));
  return lines.slice(0, height);
}

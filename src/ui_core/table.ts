/**
 * The watch's full-width table (U33): glyph, agent, state and detail, a
 * context gauge drawn as a bar with its percent (dimmed when the reading is
 * stale), tokens, model, quota (the window closest to exhaustion with its
 * reset time), Claude's session cost, time in state, locator and title.
 * Columns with nothing to show are left out, and the optional ones give way
 * to the title when the pane is narrow.
 * @module
 */
import { formatAge, formatUntil } from "../core/age.ts";
import type { AgentRow } from "../core/rows.ts";
import { fit, fitRight } from "../core/width.ts";
import { DIM, fg, RESET } from "./style.ts";
import type { SurfaceModel } from "./surface.ts";

/** A context reading older than this is drawn dimmed: the agent may have moved on. */
export const STALE_CONTEXT_MS = 5 * 60_000;

/** The bar's cells. */
const GAUGE_CELLS = 8;

/** One column: its header, width, and the cell of a row. */
interface Column {
  name: string;
  width: number;
  align: "left" | "right";
  cell(model: SurfaceModel, row: AgentRow): string;
}

/**
 * A context gauge: a bar of 8 cells and the percent, green, yellow from
 * 60 %, red from 85 %, dimmed when stale; blank when there is no reading
 * (null is absence, never 0, P50).
 *
 * ```ts
 * gauge(50, { stale: false }); // "████░░░░  50%" in green
 * ```
 */
export function gauge(pct: number | null, options: { stale: boolean }): string {
  if (pct === null) return " ".repeat(GAUGE_CELLS + 5);
  const clamped = Math.max(0, Math.min(100, pct));
  const filled = Math.round((clamped / 100) * GAUGE_CELLS);
  const bar = "█".repeat(filled) + "░".repeat(GAUGE_CELLS - filled);
  const colour = options.stale
    ? DIM
    : fg(clamped >= 85 ? "red" : clamped >= 60 ? "yellow" : "green");
  return `${colour}${bar}${RESET} ${String(Math.round(clamped)).padStart(3)}%`;
}

/** `45k`, `1.2M`, `812`. */
export function shortCount(n: number): string {
  if (n >= 1_000_000) return `${(n / 1_000_000).toFixed(1).replace(/\.0$/, "")}M`;
  if (n >= 10_000) return `${Math.round(n / 1000)}k`;
  if (n >= 1000) return `${(n / 1000).toFixed(1).replace(/\.0$/, "")}k`;
  return String(n);
}

const WINDOW_NAMES: Record<string, string> = {
  five_hour: "5h",
  seven_day: "7d",
  spend_limit: "spend",
};

/** `72% 5h in 2h`: the quota reading with its window and reset time. */
export function quotaCell(row: AgentRow, nowMs: number): string {
  if (row.quota === null) return "";
  const window = row.quota_window ? ` ${WINDOW_NAMES[row.quota_window] ?? row.quota_window}` : "";
  const reset = row.quota_resets_at_ms === null
    ? ""
    : ` ${formatUntil(nowMs, row.quota_resets_at_ms)}`;
  return `${Math.round(row.quota)}%${window}${reset}`;
}

const COLUMNS: Record<string, Column> = {
  glyph: {
    name: "",
    width: 1,
    align: "left",
    cell: (m, r) => {
      const s = m.styles[r.state === "idle" && r.attention ? "done" : r.state];
      return `${fg(s.color)}${s.glyph}${RESET}`;
    },
  },
  agent: { name: "AGENT", width: 8, align: "left", cell: (_, r) => r.agent },
  state: {
    name: "STATE",
    width: 18,
    align: "left",
    cell: (_, r) => r.detail ? `${r.state}/${r.detail}` : r.state,
  },
  context: {
    name: "CONTEXT",
    width: GAUGE_CELLS + 5,
    align: "left",
    cell: (m, r) =>
      gauge(r.context, {
        stale: r.context_at_ms !== null && m.nowMs - r.context_at_ms > STALE_CONTEXT_MS,
      }),
  },
  tokens: {
    name: "TOKENS",
    width: 6,
    align: "right",
    cell: (_, r) => r.tokens === null ? "" : shortCount(r.tokens),
  },
  model: { name: "MODEL", width: 17, align: "left", cell: (_, r) => r.model ?? "" },
  quota: { name: "QUOTA", width: 14, align: "left", cell: (m, r) => quotaCell(r, m.nowMs) },
  cost: {
    name: "COST",
    width: 7,
    align: "right",
    cell: (_, r) => r.cost_usd === null ? "" : `$${r.cost_usd.toFixed(2)}`,
  },
  age: {
    name: "AGE",
    width: 4,
    align: "right",
    cell: (m, r) => r.since_ms === null ? "" : formatAge(m.nowMs - r.since_ms),
  },
  locator: { name: "PANE", width: 12, align: "left", cell: (_, r) => r.locator },
};

/** Optional columns, shown when some row has a value, dropped first to last as width runs out. */
const OPTIONAL: [string, (row: AgentRow) => boolean][] = [
  ["tokens", (r) => r.tokens !== null],
  ["cost", (r) => r.cost_usd !== null],
  ["model", (r) => r.model !== null],
  ["quota", (r) => r.quota !== null],
  ["context", (r) => r.context !== null],
];

/** The narrowest the title may get before optional columns give way. */
const MIN_TITLE = 12;

/** The columns of a table `width` wide over `rows`. */
function columnsFor(width: number, rows: readonly AgentRow[]): Column[] {
  const order = [
    "glyph",
    "agent",
    "state",
    "context",
    "tokens",
    "model",
    "quota",
    "cost",
    "age",
    "locator",
  ];
  const wanted = new Set(order.filter((name) => {
    const optional = OPTIONAL.find(([n]) => n === name);
    return !optional || rows.some(optional[1]);
  }));
  const total = () =>
    [...wanted].reduce((sum, name) => sum + COLUMNS[name].width + 1, 0) + MIN_TITLE;
  for (const [name] of OPTIONAL) {
    if (total() <= width) break;
    wanted.delete(name);
  }
  return order.filter((name) => wanted.has(name)).map((name) => COLUMNS[name]);
}

/** Text padded or cut to a column. */
function pad(column: Column, text: string): string {
  return column.align === "right" ? fitRight(text, column.width) : fit(text, column.width);
}

function cellText(column: Column, text: string): string {
  // A gauge and a glyph carry their own colours and exact width.
  if (column === COLUMNS.context || column === COLUMNS.glyph) return text;
  return pad(column, text);
}

/** The columns of a table and the width the title keeps. */
function layout(width: number, rows: readonly AgentRow[]): { columns: Column[]; title: number } {
  const columns = columnsFor(width, rows);
  const used = columns.reduce((sum, c) => sum + c.width + 1, 0);
  return { columns, title: Math.max(0, width - used) };
}

/** The table's header line. */
export function tableHeader(
  _model: SurfaceModel,
  width: number,
  rows: readonly AgentRow[],
): string {
  const { columns, title } = layout(width, rows);
  const head = columns.map((c) => pad(c, c.name)).join(" ");
  return `${head} ${fit("TITLE", title)}`;
}

/** One table row: the cells, then the dimmed branch and the title. */
export function tableLine(
  model: SurfaceModel,
  row: AgentRow,
  width: number,
  rows: readonly AgentRow[],
): string {
  const { columns, title } = layout(width, rows);
  const cells = columns.map((c) => cellText(c, c.cell(model, row)));
  const text = fit(`${row.branch ? `${row.branch} ` : ""}${row.title.trim()}`, title);
  const dimmed = row.branch && text.startsWith(row.branch)
    ? `${DIM}${row.branch}${RESET}${text.slice(row.branch.length)}`
    : text;
  return `${cells.join(" ")} ${dimmed}`;
}

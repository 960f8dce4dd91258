/**
 * `subscribe --events` records (C63, P61): from the rows of the last cycle
 * and this one, one record per state transition, in the disjoint reading
 * where `done` (idle with attention) and `idle` are different classes. A
 * pane that appears reads `""` → class, one that vanishes (or leaves the
 * selection) class → `""` with its last row's fields. Detail, title and
 * telemetry changes without a class change emit nothing.
 *
 * ```ts
 * import { diffEdges } from "./edges.ts";
 * diffEdges(null, [], 1785100000000); // [] (the first cycle is the baseline)
 * ```
 * @module
 */
import type { AgentRow } from "./rows.ts";
import { classOf, type StateClass } from "./state.ts";

/** One edge record (P61). */
export interface EdgeRecord {
  schema: 1;
  /** When the stream observed the transition. */
  at_ms: number;
  pane: string;
  agent: string;
  /** The class before, or `""` for a pane that appeared. */
  from: StateClass | "";
  /** The class after, or `""` for a pane that vanished. */
  to: StateClass | "";
  detail: string | null;
  locator: string;
  repo: string | null;
  branch: string | null;
}

/** The exact key set of an edge record, in order (P75 drift test). */
export const EDGE_KEYS: readonly (keyof EdgeRecord)[] = [
  "schema",
  "at_ms",
  "pane",
  "agent",
  "from",
  "to",
  "detail",
  "locator",
  "repo",
  "branch",
];

function classOfRow(row: AgentRow): StateClass {
  return classOf(row.state, row.attention);
}

function record(
  row: AgentRow,
  edge: { atMs: number; from: StateClass | ""; to: StateClass | "" },
): EdgeRecord {
  return {
    schema: 1,
    at_ms: edge.atMs,
    pane: row.pane,
    agent: row.agent,
    from: edge.from,
    to: edge.to,
    detail: row.detail,
    locator: row.locator,
    repo: row.repo,
    branch: row.branch,
  };
}

/**
 * The edges between two cycles' selected rows. `previous` null means this
 * is the first cycle: it only sets the baseline (C63). Records come in the
 * new rows' surface order, then the departures in the old order.
 */
export function diffEdges(
  previous: readonly AgentRow[] | null,
  next: readonly AgentRow[],
  atMs: number,
): EdgeRecord[] {
  if (previous === null) return [];
  const before = new Map(previous.map((row) => [row.pane, row]));
  const after = new Set(next.map((row) => row.pane));
  const edges: EdgeRecord[] = [];
  for (const row of next) {
    const old = before.get(row.pane);
    const to = classOfRow(row);
    // A pane that now runs another agent left and came back as a new one.
    if (old && old.agent !== row.agent) {
      edges.push(record(old, { atMs, from: classOfRow(old), to: "" }));
      edges.push(record(row, { atMs, from: "", to }));
      continue;
    }
    const from = old ? classOfRow(old) : "";
    if (from !== to) edges.push(record(row, { atMs, from, to }));
  }
  for (const old of previous) {
    if (!after.has(old.pane)) edges.push(record(old, { atMs, from: classOfRow(old), to: "" }));
  }
  return edges;
}

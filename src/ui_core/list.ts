/**
 * The list both surfaces share: entries (agent rows and, in the watch,
 * group headers that cannot be selected), a selection that follows the
 * pane across refreshes, scrolling, wrapping moves, the wheel and hover.
 *
 * ```ts
 * import { moveSelection } from "./list.ts";
 * declare const entries: import("./list.ts").Entry[];
 * moveSelection(entries, "%3", 1, { wrap: true }); // the pane after %3
 * ```
 * @module
 */
import type { AgentRow } from "../core/rows.ts";

/** One line of the list body. */
export type Entry =
  | { kind: "row"; row: AgentRow }
  | { kind: "header"; label: string };

/** Where the list is: the selected pane, the first visible entry, the hovered entry. */
export interface ListState {
  selected: string | null;
  scroll: number;
  hover: number | null;
}

/** A fresh list state. */
export function emptyList(): ListState {
  return { selected: null, scroll: 0, hover: null };
}

/** The index of the selected pane among the entries, or -1. */
export function selectedIndex(entries: readonly Entry[], selected: string | null): number {
  return entries.findIndex((e) => e.kind === "row" && e.row.pane === selected);
}

/** The indexes of the selectable entries. */
function rowIndexes(entries: readonly Entry[]): number[] {
  return entries.flatMap((e, i) => e.kind === "row" ? [i] : []);
}

/**
 * The pane `delta` rows away from `selected`: wrapping (keys) or stopping
 * at the ends (the wheel, U31).
 */
export function moveSelection(
  entries: readonly Entry[],
  selected: string | null,
  delta: number,
  options: { wrap: boolean },
): string | null {
  const rows = rowIndexes(entries);
  if (rows.length === 0) return null;
  const at = rows.indexOf(selectedIndex(entries, selected));
  let next = at < 0 ? (delta > 0 ? 0 : rows.length - 1) : at + delta;
  if (at >= 0) {
    next = options.wrap
      ? ((next % rows.length) + rows.length) % rows.length
      : Math.max(0, Math.min(rows.length - 1, next));
  }
  const entry = entries[rows[next]];
  return entry.kind === "row" ? entry.row.pane : null;
}

/**
 * The selection after the entries changed (a refresh, a new query): the
 * same pane if it is still listed, else the row now at its old place (a
 * vanished pane is dropped, U29), else the first row.
 */
export function keepSelection(
  entries: readonly Entry[],
  selected: string | null,
  previousIndex: number,
): string | null {
  if (selectedIndex(entries, selected) >= 0) return selected;
  const rows = rowIndexes(entries);
  if (rows.length === 0) return null;
  const at = rows.find((i) => i >= previousIndex) ?? rows[rows.length - 1];
  const entry = entries[at];
  return entry.kind === "row" ? entry.row.pane : null;
}

/** The scroll offset that keeps entry `index` inside a body of `height` lines. */
export function scrollTo(scroll: number, index: number, height: number, total: number): number {
  if (height <= 0) return 0;
  let next = scroll;
  if (index >= 0 && index < next) next = index;
  if (index >= 0 && index >= next + height) next = index - height + 1;
  return Math.max(0, Math.min(next, Math.max(0, total - height)));
}

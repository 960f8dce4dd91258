/**
 * The interaction core of the picker (U29-U32) and the watch (U33-U35): a
 * pure, message-driven update function. The terminal layer feeds it keys,
 * mouse events, sizes, rows and captures, and carries out the effects it
 * returns (jump, menu, capture, refresh, quit); it never decides anything
 * itself (R14).
 *
 * ```ts
 * import { initSurface, update } from "./surface.ts";
 * declare const styles: import("./surface.ts").ClassStyles;
 * let model = initSurface({ kind: "picker", width: 100, height: 30, nowMs: 0, styles });
 * let effects;
 * [model, effects] = update(model, { type: "key", key: { name: "enter" } });
 * ```
 * @module
 */
import type { Ranker } from "../core/fuzzy.ts";
import { pickerOrder, sessionOfLocator } from "../core/jump.ts";
import type { AgentRow } from "../core/rows.ts";
import { classOf, type StateClass } from "../core/state.ts";
import { type Gate, gateRequest, gateSettled, openGate } from "./gate.ts";
import type { Key, MouseEvent } from "./input.ts";
import {
  emptyList,
  type Entry,
  keepSelection,
  type ListState,
  moveSelection,
  scrollTo,
  selectedIndex,
} from "./list.ts";

/** The glyph and colour of each class (G9, G10). */
export type ClassStyles = Record<StateClass, { glyph: string; color: string }>;

/** Which surface. */
export type SurfaceKind = "picker" | "watch";

/** The columns from which a live preview sits beside the list (U32, U33). */
export const PREVIEW_MIN_WIDTH = 76;

/** The whole state of a surface. */
export interface SurfaceModel {
  kind: SurfaceKind;
  /** Every row in reach, as last read (the invoking pane already left out). */
  rows: AgentRow[];
  /** The invoking pane's session, for `ctrl-s` (U30). */
  invokingSession: string | null;
  /** Picker: every session, or only the invoking one. */
  allSessions: boolean;
  query: string;
  list: ListState;
  width: number;
  height: number;
  nowMs: number;
  styles: ClassStyles;
  rank: Ranker | null;
  /** The latest capture of the selected pane, for the preview. */
  preview: { pane: string; text: string } | null;
  /** Watch: the full-width table instead of list plus preview (`p`). */
  table: boolean;
  /** Watch: grouped by repo (`g`). */
  grouped: boolean;
  gate: Gate;
  /** Whether the rows came from a detection cycle yet (the first frame reads stamps). */
  fresh: boolean;
  /** One line per host of a fleet view that is not answering (X9), shown under the header. */
  notes: string[];
}

/** What the terminal layer tells the core. */
export type SurfaceMsg =
  | { type: "key"; key: Key }
  | { type: "mouse"; event: MouseEvent }
  | { type: "resize"; width: number; height: number }
  | {
    type: "rows";
    rows: AgentRow[];
    nowMs: number;
    fresh: boolean;
    /** The invoking pane's session, once the first read knows it. */
    invokingSession?: string | null;
    /** The fleet's unreachable hosts, one line each (X9); absent keeps the last. */
    notes?: string[];
  }
  | { type: "tick"; nowMs: number }
  | { type: "nudge"; nowMs: number }
  | { type: "preview"; pane: string; text: string }
  | { type: "ranker"; rank: Ranker };

/** What the core asks the terminal layer to do. */
export type Effect =
  | { type: "jump"; pane: string }
  | { type: "menu"; pane: string }
  | { type: "capture"; pane: string }
  | { type: "refresh" }
  | { type: "quit" };

/** How a surface starts. */
export interface SurfaceInit {
  kind: SurfaceKind;
  width: number;
  height: number;
  nowMs: number;
  styles: ClassStyles;
  invokingSession?: string | null;
  /** Watch: open on the table (`watch --table`, C67). */
  table?: boolean;
}

/** A surface with no rows yet. */
export function initSurface(init: SurfaceInit): SurfaceModel {
  return {
    kind: init.kind,
    rows: [],
    invokingSession: init.invokingSession ?? null,
    allSessions: true,
    query: "",
    list: emptyList(),
    width: init.width,
    height: init.height,
    nowMs: init.nowMs,
    styles: init.styles,
    rank: null,
    preview: null,
    table: init.table ?? false,
    grouped: true,
    gate: openGate(),
    fresh: false,
    notes: [],
  };
}

/** Whether the preview column is shown (U32, U33). */
export function showsPreview(model: SurfaceModel): boolean {
  return model.width >= PREVIEW_MIN_WIDTH && !(model.kind === "watch" && model.table);
}

/** Whether the watch groups its body by repo now (U34: wide bodies only). */
export function groupsByRepo(model: SurfaceModel): boolean {
  return model.kind === "watch" && model.grouped && model.width >= PREVIEW_MIN_WIDTH;
}

/** The text the fuzzy query matches a row against. */
export function searchText(row: AgentRow): string {
  return [row.agent, row.locator, row.state, row.detail ?? "", row.branch ?? "", row.title].join(
    " ",
  );
}

/** Urgency of a class for group order (U34): blocked, done, working, idle, unknown. */
const URGENCY: Record<StateClass, number> = {
  blocked: 0,
  done: 1,
  working: 2,
  idle: 3,
  unknown: 4,
};

/** The watch's repo groups (U34): most urgent member first, then oldest. */
function groupEntries(rows: readonly AgentRow[]): Entry[] {
  const groups = new Map<string, AgentRow[]>();
  for (const row of rows) {
    const key = row.repo ?? "";
    groups.set(key, [...(groups.get(key) ?? []), row]);
  }
  const rank = (members: AgentRow[]) =>
    Math.min(...members.map((r) => URGENCY[classOf(r.state, r.attention)]));
  const oldest = (members: AgentRow[]) =>
    Math.min(...members.map((r) => r.since_ms ?? Number.MAX_SAFE_INTEGER));
  const ordered = [...groups.entries()].sort(([ka, a], [kb, b]) =>
    rank(a) - rank(b) || oldest(a) - oldest(b) || ka.localeCompare(kb)
  );
  return ordered.flatMap(([repo, members]) => [
    { kind: "header" as const, label: repo === "" ? "(no repo)" : repo },
    ...members.map((row) => ({ kind: "row" as const, row })),
  ]);
}

/** The rows in scope: the picker's `ctrl-s` narrows to the invoking session. */
function scopedRows(model: SurfaceModel): AgentRow[] {
  if (model.allSessions || model.invokingSession === null) return model.rows;
  return model.rows.filter((r) => sessionOfLocator(r.locator) === model.invokingSession);
}

/**
 * The entries of the list body, in order: the fuzzy ranking while a query
 * is typed, else picker order (U29), grouped by repo in a wide watch (U34).
 */
export function entriesOf(model: SurfaceModel): Entry[] {
  const rows = pickerOrder(scopedRows(model));
  if (model.query !== "" && model.rank) {
    return model.rank(rows, model.query, searchText).map((row) => ({ kind: "row", row }));
  }
  if (groupsByRepo(model)) return groupEntries(rows);
  return rows.map((row) => ({ kind: "row", row }));
}

/** At most this many host notes are shown (X9). */
export const MAX_NOTES = 3;

/** How many host notes fit: none on a short screen. */
export function noteLines(model: SurfaceModel): number {
  return model.height >= 10 ? Math.min(model.notes.length, MAX_NOTES) : 0;
}

/** Lines above and below the list body. */
export function chromeLines(model: SurfaceModel): { top: number; bottom: number } {
  if (model.height < 6) return { top: 0, bottom: 0 };
  const notes = noteLines(model);
  return model.kind === "picker" ? { top: 2 + notes, bottom: 1 } : { top: 1 + notes, bottom: 1 };
}

/** The number of list lines on screen. */
export function bodyHeight(model: SurfaceModel): number {
  const { top, bottom } = chromeLines(model);
  return Math.max(0, model.height - top - bottom - (model.kind === "watch" && model.table ? 1 : 0));
}

/** The model with its selection kept valid and visible after a change. */
function settle(model: SurfaceModel, previousIndex: number): [SurfaceModel, Effect[]] {
  const entries = entriesOf(model);
  const selected = keepSelection(entries, model.list.selected, previousIndex);
  const index = selectedIndex(entries, selected);
  const scroll = scrollTo(model.list.scroll, index, bodyHeight(model), entries.length);
  const next = { ...model, list: { ...model.list, selected, scroll } };
  const effects: Effect[] = [];
  const wantsCapture = showsPreview(next) && selected !== null &&
    (next.preview?.pane !== selected || selected !== model.list.selected);
  if (wantsCapture && selected !== null) effects.push({ type: "capture", pane: selected });
  return [next, effects];
}

/** Asks for a refresh through the gate. */
function requestRefresh(model: SurfaceModel, nowMs: number): [SurfaceModel, Effect[]] {
  const [gate, go] = gateRequest(model.gate);
  return [{ ...model, gate, nowMs }, go ? [{ type: "refresh" }] : []];
}

/**
 * One step of the surface: the next model and the effects to carry out.
 *
 * ```ts
 * declare const model: SurfaceModel;
 * const [next, effects] = update(model, { type: "key", key: { name: "down" } });
 * ```
 */
export function update(model: SurfaceModel, msg: SurfaceMsg): [SurfaceModel, Effect[]] {
  const previous = selectedIndex(entriesOf(model), model.list.selected);
  switch (msg.type) {
    case "rows": {
      const [gate, again] = msg.fresh ? gateSettled(model.gate) : [model.gate, false];
      const [next, effects] = settle(
        {
          ...model,
          rows: msg.rows,
          nowMs: msg.nowMs,
          gate,
          fresh: model.fresh || msg.fresh,
          invokingSession: msg.invokingSession === undefined
            ? model.invokingSession
            : msg.invokingSession,
          notes: msg.notes ?? model.notes,
        },
        Math.max(0, previous),
      );
      // A refreshed screen of the selected pane, too.
      const capture = msg.fresh && showsPreview(next) && next.list.selected !== null &&
          !effects.some((e) => e.type === "capture")
        ? [{ type: "capture" as const, pane: next.list.selected }]
        : [];
      return [next, [...effects, ...capture, ...(again ? [{ type: "refresh" as const }] : [])]];
    }
    case "tick":
    case "nudge":
      return requestRefresh(model, msg.nowMs);
    case "resize":
      return settle({ ...model, width: msg.width, height: msg.height }, Math.max(0, previous));
    case "preview":
      if (msg.pane !== model.list.selected) return [model, []];
      return [{ ...model, preview: { pane: msg.pane, text: msg.text } }, []];
    case "ranker":
      return settle({ ...model, rank: msg.rank }, 0);
    case "key":
      return model.kind === "picker" ? pickerKey(model, msg.key) : watchKey(model, msg.key);
    case "mouse":
      return mouse(model, msg.event);
  }
}

function move(model: SurfaceModel, delta: number, wrap: boolean): [SurfaceModel, Effect[]] {
  const entries = entriesOf(model);
  const selected = moveSelection(entries, model.list.selected, delta, { wrap });
  return settle({ ...model, list: { ...model.list, selected } }, 0);
}

/** The picker's keys (U30): every printable key is query text. */
function pickerKey(model: SurfaceModel, key: Key): [SurfaceModel, Effect[]] {
  const selected = model.list.selected;
  switch (key.name) {
    case "esc":
    case "ctrl-c":
      return [model, [{ type: "quit" }]];
    case "enter":
      return [model, selected ? [{ type: "jump", pane: selected }, { type: "quit" }] : []];
    case "tab":
      // The menu belongs to tmux, so it outlives the popup closing (A38).
      return [model, selected ? [{ type: "menu", pane: selected }, { type: "quit" }] : []];
    case "up":
    case "ctrl-p":
      return move(model, -1, true);
    case "down":
    case "ctrl-n":
      return move(model, 1, true);
    case "pageup":
      return move(model, -Math.max(1, bodyHeight(model) - 1), false);
    case "pagedown":
      return move(model, Math.max(1, bodyHeight(model) - 1), false);
    case "ctrl-s":
      return settle({ ...model, allSessions: !model.allSessions }, 0);
    case "backspace":
      return query(model, [...model.query].slice(0, -1).join(""));
    case "ctrl-u":
      return query(model, "");
    case "char":
      return query(model, model.query + (key.char ?? ""));
    default:
      return [model, []];
  }
}

/** A new query: the cursor goes to the best match, as in fzf. */
function query(model: SurfaceModel, text: string): [SurfaceModel, Effect[]] {
  return settle({ ...model, query: text, list: { ...model.list, selected: null, scroll: 0 } }, 0);
}

/** The watch's keys (U35). */
function watchKey(model: SurfaceModel, key: Key): [SurfaceModel, Effect[]] {
  const selected = model.list.selected;
  const char = key.name === "char" ? key.char : undefined;
  if (key.name === "esc" || key.name === "ctrl-c" || char === "q") {
    return [model, [{ type: "quit" }]];
  }
  if (key.name === "enter") return [model, selected ? [{ type: "jump", pane: selected }] : []];
  if (key.name === "tab" || char === "a") {
    return [model, selected ? [{ type: "menu", pane: selected }] : []];
  }
  if (key.name === "up" || char === "k") return move(model, -1, true);
  if (key.name === "down" || char === "j") return move(model, 1, true);
  if (key.name === "pageup") return move(model, -Math.max(1, bodyHeight(model) - 1), false);
  if (key.name === "pagedown") return move(model, Math.max(1, bodyHeight(model) - 1), false);
  if (char === "p" && model.width >= PREVIEW_MIN_WIDTH) {
    return settle({ ...model, table: !model.table }, 0);
  }
  if (char === "g") return settle({ ...model, grouped: !model.grouped }, 0);
  return [model, []];
}

/** Mouse (U31): hover underlines, click selects, a click on the selection jumps, wheel 3 rows. */
function mouse(model: SurfaceModel, event: MouseEvent): [SurfaceModel, Effect[]] {
  const entries = entriesOf(model);
  const { top } = chromeLines(model);
  const header = model.kind === "watch" && model.table ? 1 : 0;
  const listWidth = showsPreview(model) ? listColumns(model.width) : model.width;
  const line = event.y - top - header;
  const inList = line >= 0 && line < bodyHeight(model) && event.x < listWidth;
  const index = inList ? model.list.scroll + line : -1;
  const entry = index >= 0 && index < entries.length ? entries[index] : undefined;
  switch (event.kind) {
    case "wheel-up":
      return move(model, -3, false);
    case "wheel-down":
      return move(model, 3, false);
    case "move": {
      const hover = entry?.kind === "row" ? index : null;
      return hover === model.list.hover ? [model, []] : [
        { ...model, list: { ...model.list, hover } },
        [],
      ];
    }
    case "press": {
      if (event.button !== 0 || entry?.kind !== "row") return [model, []];
      if (entry.row.pane === model.list.selected) {
        const jump: Effect = { type: "jump", pane: entry.row.pane };
        return [model, model.kind === "picker" ? [jump, { type: "quit" }] : [jump]];
      }
      return settle({ ...model, list: { ...model.list, selected: entry.row.pane } }, index);
    }
    default:
      return [model, []];
  }
}

/** The list's width when a preview sits beside it. */
export function listColumns(width: number): number {
  return Math.max(40, Math.min(width - 30, Math.floor(width * 0.5)));
}

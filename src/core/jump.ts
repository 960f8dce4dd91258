/**
 * Where `tma jump` goes (C24-C33), as pure functions of the rows and the
 * acting client's current pane: the candidate orders of each mode, the
 * per-client return trail, and which of `switch-client`, `select-window`
 * and `select-pane` a move needs.
 *
 * ```ts
 * import { attentionOrder, nextAfter } from "./jump.ts";
 * declare const rows: import("./rows.ts").AgentRow[];
 * const target = nextAfter(attentionOrder(rows), "%3"); // the next agent that wants you
 * ```
 * @module
 */
import { compareLocators } from "./rows.ts";
import type { State } from "./state.ts";

/** What the jump orders read of a row. */
export interface JumpRow {
  pane: string;
  state: State;
  attention: boolean;
  since_ms: number | null;
  episode_ms: number | null;
  locator: string;
}

/** Oldest first; a row with no time sorts last. */
function byAge<T extends JumpRow>(time: (row: T) => number | null): (a: T, b: T) => number {
  return (a, b) => {
    const ta = time(a) ?? Number.MAX_SAFE_INTEGER;
    const tb = time(b) ?? Number.MAX_SAFE_INTEGER;
    return ta - tb || compareLocators(a.locator, b.locator);
  };
}

/**
 * The blocked rows, longest-blocked first (C25).
 *
 * ```ts
 * blockedOrder([]); // []
 * ```
 */
export function blockedOrder<T extends JumpRow>(rows: readonly T[]): T[] {
  return rows.filter((r) => r.state === "blocked").sort(byAge((r) => r.since_ms));
}

/**
 * The rows that want the human (C24): blocked first, longest-blocked first,
 * then done (idle with attention), longest-done first.
 */
export function attentionOrder<T extends JumpRow>(rows: readonly T[]): T[] {
  const done = rows.filter((r) => r.state === "idle" && r.attention).sort(
    byAge((r) => r.episode_ms),
  );
  return [...blockedOrder(rows), ...done];
}

/**
 * The candidate after `current` in `order`, wrapping; the first one when
 * `current` is not among them; null for an empty order.
 *
 * ```ts
 * const a = { pane: "%1", state: "blocked", attention: true, since_ms: 1, episode_ms: 1, locator: "s:1.0" } as const;
 * const b = { ...a, pane: "%2", locator: "s:2.0" };
 * nextAfter([a, b], "%2")?.pane; // "%1"
 * ```
 */
export function nextAfter<T extends JumpRow>(
  order: readonly T[],
  current: string | null,
): T | null {
  if (order.length === 0) return null;
  const at = order.findIndex((r) => r.pane === current);
  return order[(at + 1) % order.length];
}

/**
 * `--next` (C26): the agent after the current pane in session, window, pane
 * order, wrapping. `current` is the current pane's locator, which need not
 * be an agent's.
 */
export function nextInSurfaceOrder<T extends JumpRow>(
  rows: readonly T[],
  current: { pane: string; locator: string } | null,
): T | null {
  const order = [...rows].sort((a, b) => compareLocators(a.locator, b.locator));
  if (order.length === 0) return null;
  if (!current) return order[0];
  const at = order.findIndex((r) => r.pane === current.pane);
  if (at >= 0) return order[(at + 1) % order.length];
  return order.find((r) => compareLocators(r.locator, current.locator) > 0) ?? order[0];
}

/** How many origins a client's trail keeps (C31). */
export const TRAIL_CAP = 8;

/** The 32-bit FNV-1a of a string, as 6 hex digits (a short, stable key suffix). */
function shortHash(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0).toString(16).padStart(8, "0").slice(0, 6);
}

/**
 * The server option holding a client's trail (P37): the sanitized client
 * name plus a short hash of the raw name, so two names that sanitize alike
 * (`/dev/pts/1` and `_dev_pts_1`) keep separate trails.
 *
 * ```ts
 * trailOption("/dev/pts/3"); // "@tma_origin_dev_pts_3_" + 6 hex digits
 * ```
 */
export function trailOption(client: string): string {
  const clean = client.replace(/[^A-Za-z0-9]+/g, "_").replace(/^_+|_+$/g, "");
  return `@tma_origin_${clean}_${shortHash(client)}`;
}

/**
 * The trail as stored: newline-joined entries, oldest first. Entries are
 * pane ids, because a locator moves when windows are renumbered and a pane
 * id never does.
 */
export function parseTrail(value: string | null | undefined): string[] {
  return (value ?? "").split("\n").map((l) => l.trim()).filter((l) => l !== "");
}

/** The stored form of a trail. */
export function renderTrail(trail: readonly string[]): string {
  return trail.join("\n");
}

/**
 * The trail after a forward jump from `origin`: pushed on top (a repeat of
 * the top is not pushed twice), capped at 8 with the oldest dropped (C31).
 *
 * ```ts
 * pushTrail(["%1"], "%2"); // ["%1", "%2"]
 * ```
 */
export function pushTrail(trail: readonly string[], origin: string): string[] {
  const next = trail[trail.length - 1] === origin ? [...trail] : [...trail, origin];
  return next.slice(-TRAIL_CAP);
}

/** Where `--back` or `--home` goes and the trail it leaves. */
export interface TrailStep {
  /** The pane to return to, or null when no live entry is left. */
  target: string | null;
  trail: string[];
}

/**
 * `--back` (C27): the newest entry that still exists and is not where the
 * client already is; the entries above it (and it) leave the trail.
 */
export function trailBack(
  trail: readonly string[],
  live: (pane: string) => boolean,
  current: string | null,
): TrailStep {
  const rest = [...trail];
  while (rest.length > 0) {
    const top = rest.pop()!;
    if (top !== current && live(top)) return { target: top, trail: rest };
  }
  return { target: null, trail: [] };
}

/** `--home` (C28): the oldest entry that still exists; the trail empties. */
export function trailHome(trail: readonly string[], live: (pane: string) => boolean): TrailStep {
  return { target: trail.find(live) ?? null, trail: [] };
}

/** The target pane's place, as the listing reports it. */
export interface FocusTarget {
  pane: string;
  sessionName: string;
  windowId: string;
  /** The window is its session's current window. */
  windowActive: boolean;
  /** The pane is its window's active pane. */
  active: boolean;
}

/** Which tmux commands a move needs (C33). */
export interface FocusPlan {
  client: string;
  target: FocusTarget;
  switchClient: boolean;
  selectWindow: boolean;
  selectPane: boolean;
}

/**
 * The commands a move of `client` (now in `clientSession`) to `target`
 * needs: `select-window` only when the window is not already current, so no
 * spurious window hooks fire; nothing at all when the client is there.
 *
 * ```ts
 * const target = { pane: "%4", sessionName: "b", windowId: "@2", windowActive: true, active: false };
 * focusPlan("/dev/pts/1", "a", target).selectWindow; // false
 * ```
 */
export function focusPlan(client: string, clientSession: string, target: FocusTarget): FocusPlan {
  return {
    client,
    target,
    switchClient: clientSession !== target.sessionName,
    selectWindow: !target.windowActive,
    selectPane: !target.active,
  };
}

/** The picker's class rank (U29): blocked, working, idle (done included), unknown. */
const PICKER_RANK: Record<State, number> = { blocked: 0, working: 1, idle: 2, unknown: 3 };

/**
 * Picker order (U29, C30): blocked, working, idle, unknown, then longest in
 * state first, then surface order.
 *
 * ```ts
 * pickerOrder([]); // []
 * ```
 */
export function pickerOrder<T extends JumpRow>(rows: readonly T[]): T[] {
  const age = byAge<T>((r) => r.since_ms);
  return [...rows].sort((a, b) => PICKER_RANK[a.state] - PICKER_RANK[b.state] || age(a, b));
}

/** The session part of a locator (`main` of `main:1.0`). */
export function sessionOfLocator(locator: string): string {
  const colon = locator.lastIndexOf(":");
  return colon < 0 ? locator : locator.slice(0, colon);
}

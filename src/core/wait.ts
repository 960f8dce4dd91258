/**
 * `tma wait` as a pure step function (C34-C42): each cycle's observation in,
 * "keep waiting", "satisfied" (with the rows to print) or "exit with this
 * code" out. The command runs the cycles; this module decides.
 *
 * - `--pane` pins one pane; a vanish is exit 3, losing its agent row once it
 *   had one is exit 4, and a pane never seen with an agent waits forever
 *   with a one-time hint.
 * - `--agent` pins the first in-scope pane of that agent (several at that
 *   moment is exit 1), then behaves as `--pane`.
 * - `--any` never pins: the first satisfied in-scope row wins, in surface
 *   order; vanishes keep it waiting.
 * - `--all` fixes its members at the first observation (none is exit 2)
 *   and is satisfied when every member is at once; a member's vanish is
 *   exit 3, its agent's death exit 4.
 * - `--count N` re-reads scope each cycle and is satisfied when N in-scope
 *   rows are at once.
 *
 * Scope: the selector is applied to a pane at its first observation as an
 * agent row (C39), so `--state working --until idle` waits for the panes
 * that were working and lets them leave `working`. `--until` is
 * level-triggered: a pane already there satisfies at once, and `done` stops
 * satisfying once the user types at the pane (attention cleared).
 *
 * ```ts
 * import { initialWaitState, stepWait } from "./wait.ts";
 * const spec = { target: { kind: "any" as const }, until: new Set(["idle" as const]), sinceMs: null, selector: {} };
 * const step = stepWait(spec, initialWaitState(), { panes: [], rows: [] });
 * step.verdict.kind; // "waiting"
 * ```
 * @module
 */
import { EXIT } from "./errors.ts";
import type { AgentRow } from "./rows.ts";
import { inStates, matches, type Selector } from "./selector.ts";
import type { StateClass } from "./state.ts";

/** What a wait waits on (C34). */
export type WaitTarget =
  | { kind: "pane"; pane: string }
  | { kind: "agent"; agent: string }
  | { kind: "any" }
  | { kind: "all" }
  | { kind: "count"; count: number };

/** A whole wait, as the flags gave it. */
export interface WaitSpec {
  target: WaitTarget;
  /** `--until`: the target classes (C35). */
  until: ReadonlySet<StateClass>;
  /** `--since`: only an episode strictly newer counts (C36). */
  sinceMs: number | null;
  /** The selector flags, which scope every target but `--pane` (C39). */
  selector: Selector;
}

/** One cycle as a wait sees it. */
export interface WaitObservation {
  /** Every live pane of the server. */
  panes: readonly { paneId: string; locator: string }[];
  /** Every agent row of the cycle, unfiltered, in surface order, with its tmux session. */
  rows: readonly { row: AgentRow; sessionName: string }[];
}

/** What a wait remembers between cycles. */
export interface WaitState {
  /** The pane pinned by `--pane` (its id, once seen) or `--agent`. */
  pinned: string | null;
  /** Panes observed as agent rows, and whether each was in scope then. */
  scope: ReadonlyMap<string, boolean>;
  /** `--all` members, fixed at the first observation. */
  members: readonly string[] | null;
  /** Pinned panes and members seen carrying an agent. */
  hadAgent: ReadonlySet<string>;
  /** The one-time hint has been given. */
  hinted: boolean;
}

/** A wait's verdict on one cycle. */
export type WaitVerdict =
  | { kind: "waiting"; hint: string | null }
  | { kind: "satisfied"; rows: AgentRow[]; document: boolean }
  | { kind: "exit"; code: number; message: string };

/** The state before the first cycle. */
export function initialWaitState(): WaitState {
  return { pinned: null, scope: new Map(), members: null, hadAgent: new Set(), hinted: false };
}

/** Whether one row satisfies `--until` and `--since`. */
export function satisfies(row: AgentRow, spec: Pick<WaitSpec, "until" | "sinceMs">): boolean {
  if (!inStates(row, spec.until)) return false;
  if (spec.sinceMs === null) return true;
  return row.episode_ms !== null && row.episode_ms > spec.sinceMs;
}

/** Decides one cycle: the next state and the verdict. */
export function stepWait(
  spec: WaitSpec,
  state: WaitState,
  observation: WaitObservation,
): { state: WaitState; verdict: WaitVerdict } {
  const scope = new Map(state.scope);
  for (const { row, sessionName } of observation.rows) {
    if (!scope.has(row.pane)) scope.set(row.pane, matches(row, spec.selector, sessionName));
  }
  const next: WaitState = { ...state, scope };
  const inScope = observation.rows.map((r) => r.row).filter((row) => scope.get(row.pane));
  switch (spec.target.kind) {
    case "pane":
      return stepPinned(spec, pinPane(next, spec.target.pane, observation), observation);
    case "agent": {
      if (next.pinned !== null) return stepPinned(spec, next, observation);
      const name = spec.target.agent;
      const found = inScope.filter((row) => row.agent === name);
      if (found.length > 1) {
        return exit(
          next,
          EXIT.runtime,
          `wait --agent ${name} matches ${found.length} panes (${
            found.map((r) => r.pane).join(", ")
          }): name one with --pane, or narrow it with --session, --repo or --branch`,
        );
      }
      if (found.length === 0) return { state: next, verdict: { kind: "waiting", hint: null } };
      return stepPinned(spec, { ...next, pinned: found[0].pane }, observation);
    }
    case "any": {
      const row = inScope.find((r) => satisfies(r, spec));
      return row
        ? { state: next, verdict: { kind: "satisfied", rows: [row], document: false } }
        : { state: next, verdict: { kind: "waiting", hint: null } };
    }
    case "all":
      return stepAll(spec, next, observation, inScope);
    case "count": {
      const done = inScope.filter((r) => satisfies(r, spec));
      return done.length >= spec.target.count
        ? { state: next, verdict: { kind: "satisfied", rows: done, document: true } }
        : { state: next, verdict: { kind: "waiting", hint: null } };
    }
  }
}

function exit(
  state: WaitState,
  code: number,
  message: string,
): { state: WaitState; verdict: WaitVerdict } {
  return { state, verdict: { kind: "exit", code, message } };
}

/** `--pane` names an id or a locator: pin its id at first sight. */
function pinPane(state: WaitState, name: string, observation: WaitObservation): WaitState {
  if (state.pinned !== null) return state;
  const pane = observation.panes.find((p) => p.paneId === name || p.locator === name);
  return pane ? { ...state, pinned: pane.paneId } : state;
}

/** A pinned pane (`--pane`, or `--agent` once pinned). */
function stepPinned(
  spec: WaitSpec,
  state: WaitState,
  observation: WaitObservation,
): { state: WaitState; verdict: WaitVerdict } {
  const pinned = state.pinned;
  if (pinned === null) {
    // Never seen: a typo, or a pane yet to be created. Block, hinting once (C41).
    const name = spec.target.kind === "pane" ? spec.target.pane : "";
    return hintOnce(state, `no pane ${name} on this tmux server yet; waiting (check the id)`);
  }
  if (!observation.panes.some((p) => p.paneId === pinned)) {
    return exit(state, EXIT.vanished, `wait: pane ${pinned} vanished`);
  }
  const row = observation.rows.find((r) => r.row.pane === pinned)?.row;
  const agent = spec.target.kind === "agent" ? spec.target.agent : null;
  if (!row || (agent !== null && row.agent !== agent)) {
    if (state.hadAgent.has(pinned)) {
      return exit(state, EXIT.refused, `wait: the agent in ${pinned} is gone (the pane lives)`);
    }
    return hintOnce(
      state,
      `pane ${pinned} has no agent (yet); waiting (check the id if this is a typo)`,
    );
  }
  const next = { ...state, hadAgent: new Set([...state.hadAgent, pinned]) };
  return satisfies(row, spec)
    ? { state: next, verdict: { kind: "satisfied", rows: [row], document: false } }
    : { state: next, verdict: { kind: "waiting", hint: null } };
}

function hintOnce(state: WaitState, hint: string): { state: WaitState; verdict: WaitVerdict } {
  if (state.hinted) return { state, verdict: { kind: "waiting", hint: null } };
  return { state: { ...state, hinted: true }, verdict: { kind: "waiting", hint } };
}

/** `--all`: a barrier over the members fixed at the first observation. */
function stepAll(
  spec: WaitSpec,
  state: WaitState,
  observation: WaitObservation,
  inScope: readonly AgentRow[],
): { state: WaitState; verdict: WaitVerdict } {
  if (state.members === null) {
    if (inScope.length === 0) {
      return exit(state, EXIT.usage, "wait --all: no agent pane is in scope (check the selector)");
    }
    const members = inScope.map((row) => row.pane);
    state = { ...state, members, hadAgent: new Set([...state.hadAgent, ...members]) };
  }
  const rows: AgentRow[] = [];
  for (const member of state.members!) {
    if (!observation.panes.some((p) => p.paneId === member)) {
      return exit(state, EXIT.vanished, `wait --all: member pane ${member} vanished`);
    }
    const row = observation.rows.find((r) => r.row.pane === member)?.row;
    if (!row) {
      return exit(
        state,
        EXIT.refused,
        `wait --all: the agent in ${member} is gone (the pane lives)`,
      );
    }
    rows.push(row);
  }
  return rows.every((row) => satisfies(row, spec))
    ? { state, verdict: { kind: "satisfied", rows, document: true } }
    : { state, verdict: { kind: "waiting", hint: null } };
}

/**
 * When the screen may end a fresh hook claim that no hook ended (D65, D67),
 * and the mark the broker leaves when tma itself delivered what ends a state
 * (`@tma_delivered`). Pure: the fold asks, every time is passed in.
 *
 * - D65: a `working` hook claim ends on turn-end chrome (an `ends_turn`
 *   rule, such as Claude's interrupt marker as the last transcript item).
 * - D67: a `blocked` hook claim ends on body chrome that is not blocker
 *   chrome (working or idle), for an agent whose manifest lists `blocked`
 *   in `[capture].visible`: the dialog is gone.
 *
 * Either waits `dwell_secs` from the hook event that made the claim, which
 * covers a prompt submitted a moment before its echo draws (no flicker to
 * idle) and a dialog whose hook fires before it draws. A mark left by the
 * broker after that event lifts the wait, since tma saw its own keys or
 * reply go out. A pane title alone never ends a claim: some agents (Claude
 * from 2.1.246) keep their idle glyph in the title in every state.
 *
 * ```ts
 * import { deliveredMark, readDelivered } from "./settle.ts";
 * readDelivered(deliveredMark("working", 1_700_000_000_000));
 * // { state: "working", at: 1700000000000 }
 * ```
 * @module
 */
import { isState, type State } from "./state.ts";

/** The pane option the broker writes after delivering an action that ends a state. */
export const DELIVERED_OPTION = "@tma_delivered";

/** What `@tma_delivered` says: tma delivered, at `at`, what ends `state`. */
export interface Delivered {
  state: State;
  at: number;
}

/**
 * The value of `@tma_delivered`: `<state>:<epoch ms>`.
 *
 * ```ts
 * deliveredMark("blocked", 1_700_000_000_000); // "blocked:1700000000000"
 * ```
 */
export function deliveredMark(state: State, at: number): string {
  return `${state}:${Math.round(at)}`;
}

/** Reads `@tma_delivered`; anything malformed reads as no mark. */
export function readDelivered(value: string | undefined): Delivered | null {
  const m = /^([a-z]+):(\d{1,16})$/.exec(value ?? "");
  if (!m || !isState(m[1])) return null;
  return { state: m[1], at: Number(m[2]) };
}

/** The screen claim as this decision needs it. */
export interface SettleClaim {
  state: State;
  /** Its rule carries `ends_turn` (D65). */
  endsTurn: boolean;
  /** Its rule reads the pane title, not the pane body. */
  fromTitle: boolean;
}

/** Everything the decision reads. */
export interface SettleInput {
  /** The hook claim's state. */
  hookState: State;
  /** The time of the hook event behind the claim (`@tma_hook_at`). */
  hookEventAt: number;
  /** The best screen claim of this capture, or null. */
  claim: SettleClaim | null;
  /** The broker's mark, or null. */
  delivered: Delivered | null;
  /** `[capture].visible` of the agent's manifest. */
  visible: ReadonlySet<State>;
  nowMs: number;
  dwellMs: number;
}

/**
 * Why the capture ends the hook claim (`D65 …` or `D67 …`, for `debug
 * explain`), or null when it does not.
 */
export function screenEndsClaim(input: SettleInput): string | null {
  const { claim, hookEventAt, nowMs } = input;
  if (claim === null || claim.fromTitle || claim.state === input.hookState) return null;
  if (!(hookEventAt < nowMs)) return null;
  const marked = input.delivered !== null && input.delivered.state === input.hookState &&
    input.delivered.at >= hookEventAt && input.delivered.at <= nowMs;
  const graced = nowMs - hookEventAt >= input.dwellMs;
  if (input.hookState === "working") {
    if (claim.state !== "idle") return null;
    if (marked) return "D65: idle chrome after tma interrupted the turn";
    return claim.endsTurn && graced ? "D65: turn-end chrome" : null;
  }
  if (input.hookState === "blocked") {
    if (claim.state === "blocked" || !input.visible.has("blocked")) return null;
    if (marked) return "D67: the dialog tma answered is gone";
    return graced ? "D67: the dialog is gone" : null;
  }
  return null;
}

/**
 * Whether the broker's mark lets a capture-sourced `working` state settle to
 * idle chrome without the D21 dwell: tma delivered the interrupt after the
 * working episode began.
 */
export function markLiftsDwell(
  delivered: Delivered | null,
  context: { priorState: State | null; since: number | null; nowMs: number },
): boolean {
  return delivered !== null && context.priorState === "working" &&
    delivered.state === "working" && delivered.at <= context.nowMs &&
    delivered.at >= (context.since ?? Infinity);
}

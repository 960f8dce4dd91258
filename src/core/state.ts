/**
 * The closed state vocabulary (D1) and the detail-token grammar (M24).
 *
 * ```ts
 * import { isState } from "./state.ts";
 * isState("blocked"); // true
 * ```
 * @module
 */

/** Who must act next: no one, the agent, the human, or it cannot be read. */
export const STATES = ["idle", "working", "blocked", "unknown"] as const;

/** One of the four published state tokens. */
export type State = (typeof STATES)[number];

/** The five surface classes: `done` is idle plus attention (D5), never stored. */
export const CLASSES = ["blocked", "working", "done", "idle", "unknown"] as const;

/** A surface class. */
export type StateClass = (typeof CLASSES)[number];

/** Provenance of a published state (D7). `activity` is read-only legacy. */
export type Source = "hook" | "capture" | "process";

/** Detail tokens: non-empty, lowercase a-z, digits, `_` and `-` (M24). */
export const DETAIL_TOKEN = /^[a-z0-9_-]+$/;

/** Whether `value` is one of the four state tokens. */
export function isState(value: unknown): value is State {
  return typeof value === "string" && (STATES as readonly string[]).includes(value);
}

/** The surface class of a state plus attention flag (D5). */
export function classOf(state: State, attention: boolean): StateClass {
  return state === "idle" && attention ? "done" : state;
}

/**
 * Window and session rollups: `<state>:<count>` in the fixed order blocked,
 * working, idle, unknown, zero counts omitted (D56, P33, P34). A pure
 * function of the member panes' states.
 * @module
 */
import type { State } from "./state.ts";

const ROLLUP_ORDER: readonly State[] = ["blocked", "working", "idle", "unknown"];

/**
 * Renders the rollup of some states; empty when there are none.
 *
 * ```ts
 * rollup(["working", "blocked", "working"]); // "blocked:1 working:2"
 * ```
 */
export function rollup(states: readonly State[]): string {
  return ROLLUP_ORDER
    .map((state) => [state, states.filter((s) => s === state).length] as const)
    .filter(([, count]) => count > 0)
    .map(([state, count]) => `${state}:${count}`)
    .join(" ");
}

/**
 * The subagent guard: `@agent_subagents` lists the live subagent session ids
 * of a pane, and while it is non-empty only the pane's own session may move
 * its state (D46, R3). Integrity, not authentication: it keeps an agent's own
 * subagents from overwriting the parent's row.
 *
 * ```ts
 * import { addSubagent, mayWriteState } from "./subagents.ts";
 * addSubagent([], "sub-1"); // ["sub-1"]
 * mayWriteState({ session: "main", subagents: ["sub-1"] }, "sub-1"); // false
 * ```
 * @module
 */

/** What the guard reads of a pane's stamp. */
export interface GuardedPane {
  /** `@agent_session`, or null when the pane registered none. */
  session: string | null;
  /** `@agent_subagents`, split. */
  subagents: readonly string[];
}

/**
 * The list with `id` appended, unless it is already there.
 *
 * ```ts
 * addSubagent(["a"], "b"); // ["a", "b"]
 * addSubagent(["a"], "a"); // ["a"]
 * ```
 */
export function addSubagent(list: readonly string[], id: string): string[] {
  return list.includes(id) ? [...list] : [...list, id];
}

/**
 * The list without `id`.
 *
 * ```ts
 * removeSubagent(["a", "b"], "a"); // ["b"]
 * ```
 */
export function removeSubagent(list: readonly string[], id: string): string[] {
  return list.filter((entry) => entry !== id);
}

/**
 * Whether an event from `sessionId` may write the pane's state. Always, while
 * no subagent is live; otherwise only when the event names the pane's own
 * registered session. An event with no session id, or a pane with none
 * registered, cannot be attributed and is ignored.
 *
 * ```ts
 * mayWriteState({ session: "main", subagents: ["sub"] }, "main"); // true
 * mayWriteState({ session: null, subagents: ["sub"] }, "main"); // false
 * ```
 */
export function mayWriteState(pane: GuardedPane, sessionId: string | null): boolean {
  if (pane.subagents.length === 0) return true;
  return sessionId !== null && pane.session !== null && sessionId === pane.session;
}

/**
 * A schema-1 agent row for pure tests: every key filled with a plain value,
 * with the fields a test cares about given.
 *
 * ```ts
 * agentRow("%1", "idle", { attention: true, done: true }).done; // true
 * ```
 * @module
 */
import type { AgentRow } from "../../src/core/rows.ts";

/** A claude row for `pane` in `state`, with `extra` over the defaults. */
export function agentRow(
  pane: string,
  state: AgentRow["state"],
  extra: Partial<AgentRow> = {},
): AgentRow {
  return {
    pane,
    agent: "claude",
    state,
    detail: null,
    since: 1000,
    since_ms: 1000,
    episode_ms: 1000,
    locator: `main:${pane.slice(1)}.0`,
    title: "",
    attention: false,
    done: false,
    session: null,
    context: null,
    context_at_ms: null,
    muted: false,
    tokens: null,
    quota: null,
    quota_window: null,
    quota_resets_at_ms: null,
    quota_at_ms: null,
    cost_usd: null,
    model: null,
    repo: null,
    branch: null,
    worktree: null,
    server: "",
    host: "",
    ...extra,
  };
}

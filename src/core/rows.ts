/**
 * The `ls --json` row (P38-P57) and the plain `ls` line (C17, P58), built by
 * one function each so every surface serializes the same way (P59). The key
 * set is frozen: adding a key keeps `schema: 1`, renaming or removing one
 * bumps it (P75), and a test pins the exact set.
 * @module
 */
import { isMuted } from "./mute.ts";
import type { PaneFacts, PaneOptionName, PaneOptions } from "./snapshot.ts";
import { readStamp } from "./stamp.ts";
import type { State } from "./state.ts";
import { parseEpochMs } from "./time.ts";

/** Git labels of a pane's cwd (D61); all null outside a repo. */
export interface GitLabels {
  repo: string | null;
  branch: string | null;
  worktree: boolean | null;
}

/** One agent row of the schema-1 document. */
export interface AgentRow {
  pane: string;
  agent: string;
  state: State;
  detail: string | null;
  since: number | null;
  since_ms: number | null;
  episode_ms: number | null;
  locator: string;
  title: string;
  attention: boolean;
  done: boolean;
  session: string | null;
  context: number | null;
  context_at_ms: number | null;
  muted: boolean;
  tokens: number | null;
  quota: number | null;
  quota_window: string | null;
  quota_resets_at_ms: number | null;
  quota_at_ms: number | null;
  cost_usd: number | null;
  model: string | null;
  repo: string | null;
  branch: string | null;
  worktree: boolean | null;
  server: string;
  host: string;
}

/** The exact key set of a row, in order (P75 drift test). */
export const ROW_KEYS: readonly (keyof AgentRow)[] = [
  "pane",
  "agent",
  "state",
  "detail",
  "since",
  "since_ms",
  "episode_ms",
  "locator",
  "title",
  "attention",
  "done",
  "session",
  "context",
  "context_at_ms",
  "muted",
  "tokens",
  "quota",
  "quota_window",
  "quota_resets_at_ms",
  "quota_at_ms",
  "cost_usd",
  "model",
  "repo",
  "branch",
  "worktree",
  "server",
  "host",
];

/** The pane options `buildRow` reads: all a listing needs to draw rows from stamps. */
export const ROW_OPTIONS: readonly PaneOptionName[] = [
  "@agent_name",
  "@agent_state",
  "@agent_detail",
  "@agent_since",
  "@agent_turn_at",
  "@agent_attention",
  "@agent_session",
  "@agent_context_pct",
  "@agent_context_at",
  "@agent_tokens",
  "@agent_quota_pct",
  "@agent_quota_window",
  "@agent_quota_resets_at",
  "@agent_quota_at",
  "@agent_cost_usd",
  "@agent_model",
  "@agent_mute_until",
];

/** What a row needs besides the pane. */
export interface RowContext {
  git: GitLabels;
  server: string;
  host: string;
  nowMs: number;
}

function numberOrNull(value: string | undefined): number | null {
  if (value === undefined || value === "") return null;
  const n = Number(value);
  return Number.isFinite(n) ? n : null;
}

/**
 * Builds the row of one agent pane from its options as they stand.
 *
 * ```ts
 * import type { PaneFacts } from "./snapshot.ts";
 * declare const pane: PaneFacts;
 * const git = { repo: "tma", branch: "main", worktree: false };
 * const row = buildRow(pane, pane.options, {
 *   git, server: pane.socketPath, host: "laptop", nowMs: 1_700_000_000_000,
 * });
 * row?.state; // "working", say; null for a pane with no agent stamp
 * ```
 */
export function buildRow(
  pane: PaneFacts,
  options: PaneOptions,
  context: RowContext,
): AgentRow | null {
  const stamp = readStamp(options);
  if (!stamp.agent || !stamp.state) return null;
  const since = stamp.since;
  const turnAt = stamp.turnAt;
  const episode = since === null && turnAt === null ? null : Math.max(since ?? 0, turnAt ?? 0);
  return {
    pane: pane.paneId,
    agent: stamp.agent,
    state: stamp.state,
    detail: stamp.detail,
    since,
    since_ms: since,
    episode_ms: episode,
    locator: pane.locator,
    title: pane.title,
    attention: stamp.attention,
    done: stamp.state === "idle" && stamp.attention,
    session: stamp.session,
    context: numberOrNull(options["@agent_context_pct"]),
    context_at_ms: parseEpochMs(options["@agent_context_at"]),
    muted: isMuted(options, context.nowMs),
    tokens: numberOrNull(options["@agent_tokens"]),
    quota: numberOrNull(options["@agent_quota_pct"]),
    quota_window: options["@agent_quota_window"] || null,
    quota_resets_at_ms: parseEpochMs(options["@agent_quota_resets_at"]),
    quota_at_ms: parseEpochMs(options["@agent_quota_at"]),
    cost_usd: numberOrNull(options["@agent_cost_usd"]),
    model: options["@agent_model"] || null,
    repo: context.git.repo,
    branch: context.git.branch,
    worktree: context.git.worktree,
    server: context.server,
    host: context.host,
  };
}

/** The plain `ls` line: twelve tab-separated columns (C17, P58). */
export function plainLine(row: AgentRow): string {
  return [
    row.pane,
    row.agent,
    row.state,
    row.detail ?? "",
    row.since_ms === null ? "" : String(row.since_ms),
    row.locator,
    row.title,
    row.attention ? "1" : "",
    row.muted ? "1" : "",
    row.repo ?? "",
    row.branch ?? "",
    row.worktree ? "1" : "",
  ].join("\t");
}

/**
 * Surface order of two locators: session name, then window and pane index
 * as numbers (`main:10.0` after `main:9.0`).
 *
 * ```ts
 * compareLocators("main:2.0", "main:10.0"); // negative
 * ```
 */
export function compareLocators(a: string, b: string): number {
  const key = (locator: string) => {
    const m = /^(.*):(\d+)\.(\d+)$/.exec(locator);
    return m ? [m[1], Number(m[2]), Number(m[3])] as const : [locator, 0, 0] as const;
  };
  const [sa, wa, pa] = key(a);
  const [sb, wb, pb] = key(b);
  return sa < sb ? -1 : sa > sb ? 1 : wa - wb || pa - pb;
}

/** Rows in surface order: session, window, pane. */
export function sortRows<T extends { locator: string }>(rows: T[]): T[] {
  return rows.sort((a, b) => compareLocators(a.locator, b.locator));
}

/**
 * What the broker knows about one target pane at one moment: its stamp and
 * the context an action may need, read from one `list-panes` row. Pure.
 *
 * ```ts
 * import type { PaneFacts } from "../snapshot.ts";
 * declare const facts: PaneFacts;
 * const view = paneView(facts);
 * view.state; // "blocked"
 * ```
 * @module
 */
import type { PaneFacts } from "../snapshot.ts";
import { readStamp } from "../stamp.ts";
import type { State } from "../state.ts";
import { parseEpochMs } from "../time.ts";

/** A target pane as the broker reads it. */
export interface PaneView {
  /** The pane id (`%12`). */
  pane: string;
  locator: string;
  /** `@agent_name`, or null when no agent was stamped. */
  agent: string | null;
  state: State | null;
  detail: string | null;
  /** `@agent_stamped_at`, for the freshness bound (A12). */
  stampedAt: number | null;
  /** `@agent_context_pct`, or null when absent or unreadable. */
  contextPct: number | null;
  contextAt: number | null;
  tokens: number | null;
  tokensAt: number | null;
  /** `@agent_session`. */
  session: string | null;
  cwd: string | null;
  /** `@agent_pid`, or null when absent or 0 (a registration without a process). */
  pid: number | null;
  title: string | null;
  permissionRequest: string | null;
  questionRequest: string | null;
  apiEndpoint: string | null;
  /** `@agent_action`, the lock as it stands (for dry runs and listings). */
  lock: string | null;
  /** The pane's height, to cut the viewport out of a capture. */
  height: number;
  /** The server's socket path, for the menu's commands. */
  socketPath: string;
}

function numberOrNull(raw: string | undefined): number | null {
  if (raw === undefined || raw.trim() === "") return null;
  const value = Number(raw);
  return Number.isFinite(value) ? value : null;
}

function textOrNull(raw: string | undefined): string | null {
  return raw === undefined || raw === "" ? null : raw;
}

/** Reads a pane's facts into the broker's view. */
export function paneView(facts: PaneFacts): PaneView {
  const stamp = readStamp(facts.options);
  const o = facts.options;
  return {
    pane: facts.paneId,
    locator: facts.locator,
    agent: stamp.agent,
    state: stamp.state,
    detail: stamp.detail,
    stampedAt: stamp.stampedAt,
    contextPct: numberOrNull(o["@agent_context_pct"]),
    contextAt: parseEpochMs(o["@agent_context_at"]),
    tokens: numberOrNull(o["@agent_tokens"]),
    tokensAt: parseEpochMs(o["@agent_tokens_at"]),
    session: stamp.session,
    cwd: textOrNull(facts.currentPath),
    pid: stamp.pid !== null && stamp.pid > 0 ? stamp.pid : null,
    title: textOrNull(facts.title),
    permissionRequest: textOrNull(o["@agent_permission_request"]),
    questionRequest: textOrNull(o["@agent_question_request"]),
    apiEndpoint: textOrNull(o["@agent_api_endpoint"]),
    lock: textOrNull(o["@agent_action"]),
    height: facts.height,
    socketPath: facts.socketPath,
  };
}

/**
 * Whether a stamp is too old to act on: absent, older than the bound, or in
 * the future (a stamp from a clock that stepped back) (A12, G8).
 */
export function isStale(
  view: PaneView,
  context: { nowMs: number; freshnessSecs: number },
): boolean {
  if (view.stampedAt === null) return true;
  if (view.stampedAt > context.nowMs + 1000) return true;
  return context.nowMs - view.stampedAt > context.freshnessSecs * 1000;
}

/**
 * What one cycle observes of a tmux server, as plain data: the pane facts of
 * one `list-panes -a` and the process table of one `ps`. The tmux layer fills
 * these in; the core only reads them.
 * @module
 */

/** The pane options tma reads back in the same `list-panes` call (P3-P37). */
export const PANE_OPTIONS = [
  "@agent_name",
  "@agent_pid",
  "@agent_state",
  "@agent_detail",
  "@agent_source",
  "@agent_evidence_at",
  "@agent_since",
  "@agent_stamped_at",
  "@agent_hash",
  "@agent_attention",
  "@agent_turn_at",
  "@agent_session",
  "@agent_subagents",
  "@agent_context_pct",
  "@agent_context_at",
  "@agent_tokens",
  "@agent_tokens_at",
  "@agent_model",
  "@agent_quota_pct",
  "@agent_quota_window",
  "@agent_quota_resets_at",
  "@agent_quota_at",
  "@agent_cost_usd",
  "@agent_permission_request",
  "@agent_question_request",
  "@agent_api_endpoint",
  "@agent_ignore",
  "@agent_mute_until",
  "@agent_action",
  "@agent_notified_at",
  "@agent_context_notified_at",
  "@tma_title_match_pid",
  "@tma_reg_dead_since",
  "@tma_fg",
  "@tma_hook_at",
  "@tma_hook_order",
  "@tma_delivered",
  "@tma_demoted",
] as const;

/** The name of one pane option tma reads. */
export type PaneOptionName = (typeof PANE_OPTIONS)[number];

/** Raw option values of one pane; an unset option is absent or empty. */
export type PaneOptions = Partial<Record<PaneOptionName, string>>;

/** The facts of one pane from `list-panes -a`. */
export interface PaneFacts {
  /** The pane id, `%12`. */
  paneId: string;
  sessionName: string;
  sessionId: string;
  windowId: string;
  windowIndex: number;
  paneIndex: number;
  /** `session:window.pane`. */
  locator: string;
  /** The pid of the pane's first process (usually the shell). */
  panePid: number;
  /** `#{pane_current_command}`: the foreground command name. */
  currentCommand: string;
  currentPath: string;
  title: string;
  width: number;
  height: number;
  /** The pane's tty, `/dev/pts/3`. */
  tty: string;
  inMode: boolean;
  /** Copy-mode scroll offset; 0 when not scrolled. */
  scrollPosition: number;
  /** `#{window_activity}` in whole seconds, or 0 when unknown. */
  windowActivitySec: number;
  dead: boolean;
  alternateOn: boolean;
  active: boolean;
  windowActive: boolean;
  /** The server's socket path (P57). */
  socketPath: string;
  /** The server hint `@tma_last_poll`: the last cycle's time, or 0 (P35). */
  lastPollMs: number;
  /** The server option `@tma_status_at`: when a daemon last refreshed `@tma_status`, or 0 (X6). */
  statusAtMs: number;
  options: PaneOptions;
  /** The window's and session's rollups as they stand (D56). */
  rollups: { "@agent_summary"?: string; "@agent_session_summary"?: string };
}

/** One row of the process snapshot. */
export interface ProcessInfo {
  pid: number;
  ppid: number;
  pgid: number;
  /** The foreground process group of the process's terminal, or -1 (D13). */
  tpgid: number;
  /** The short command name (`comm`), truncated by the OS at 15 characters. */
  comm: string;
  /** The full command line. */
  args: string;
}

/** The process snapshot of one cycle, indexed for walks. */
export interface ProcessTable {
  byPid: Map<number, ProcessInfo>;
  children: Map<number, ProcessInfo[]>;
}

/** Builds the indexes of a process table from `ps` rows. */
export function indexProcesses(rows: readonly ProcessInfo[]): ProcessTable {
  const byPid = new Map<number, ProcessInfo>();
  const children = new Map<number, ProcessInfo[]>();
  for (const row of rows) {
    byPid.set(row.pid, row);
    const siblings = children.get(row.ppid);
    if (siblings) siblings.push(row);
    else children.set(row.ppid, [row]);
  }
  return { byPid, children };
}

/** Every descendant of `pid` (not `pid` itself), parents before children. */
export function descendantsOf(table: ProcessTable, pid: number): ProcessInfo[] {
  const out: ProcessInfo[] = [];
  const queue = [...(table.children.get(pid) ?? [])];
  const seen = new Set<number>([pid]);
  while (queue.length > 0) {
    const next = queue.shift()!;
    if (seen.has(next.pid)) continue;
    seen.add(next.pid);
    out.push(next);
    queue.push(...(table.children.get(next.pid) ?? []));
  }
  return out;
}

/**
 * The runtime helpers the picker and watch reach tmux through (R14): the
 * first frame's rows read from the stamps already on the server (one
 * `list-panes`, no detection), a refresh that runs a full guarded cycle
 * with config and manifests re-read (G4, M26), the preview capture, and the
 * watch's `@tma_watch_pid` advertisement (P36).
 * @module
 */
import { type AgentRow, buildRow, type GitLabels, ROW_OPTIONS, sortRows } from "../core/rows.ts";
import type { PaneFacts } from "../core/snapshot.ts";
import type { TmuxServer } from "../tmux/exec.ts";
import { listPanes } from "../tmux/panes.ts";
import { listPanesAndClients } from "../tmux/clients.ts";
import type { ClientFacts } from "../core/client.ts";
import { writeChains } from "../tmux/writer.ts";
import { hostName } from "./host.ts";

const NO_GIT: GitLabels = { repo: null, branch: null, worktree: null };

/** The rows and panes of one read. */
export interface SurfaceRead {
  rows: AgentRow[];
  panes: PaneFacts[];
}

/** The rows of a listing's agent panes, in surface order. */
function rowsOf(panes: readonly PaneFacts[], nowMs: number): AgentRow[] {
  const host = hostName();
  const rows: AgentRow[] = [];
  for (const pane of panes) {
    if (pane.dead) continue;
    const row = buildRow(pane, pane.options, { git: NO_GIT, server: pane.socketPath, host, nowMs });
    if (row) rows.push(row);
  }
  return sortRows(rows);
}

/**
 * The rows as the stamps on the server say, without a detection cycle:
 * what the first frame paints (U32). Git labels come with the first
 * refresh.
 *
 * ```ts
 * const { rows } = await stampedRows({ bin: "tmux", socketName: "work" }, Date.now());
 * ```
 */
export async function stampedRows(server: TmuxServer, nowMs: number): Promise<SurfaceRead> {
  const panes = await listPanes(server, { options: ROW_OPTIONS });
  return { rows: rowsOf(panes, nowMs), panes };
}

/**
 * The stamped rows and the attached clients in one tmux call: the picker's
 * first frame, which must know the invoking client to leave its pane out.
 */
export async function stampedRowsAndClients(
  server: TmuxServer,
  nowMs: number,
): Promise<SurfaceRead & { clients: ClientFacts[] }> {
  const { panes, clients } = await listPanesAndClients(server, ROW_OPTIONS);
  return { rows: rowsOf(panes, nowMs), panes, clients };
}

/**
 * Advertises (`pid`) or withdraws (`null`) the watcher's pid on its pane,
 * for the attention-clear hook's SIGUSR1 nudges (U17, P36).
 */
export async function advertiseWatch(
  server: TmuxServer,
  pane: string,
  pid: number | null,
): Promise<void> {
  await writeChains(server, [{
    pane,
    writes: [{ name: "@tma_watch_pid", value: pid === null ? null : String(pid) }],
  }]).catch(() => undefined);
}

export { captureScreen } from "../tmux/capture.ts";

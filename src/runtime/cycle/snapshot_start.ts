/**
 * Starts a cycle's two outside reads, the one `list-panes` (carrying the
 * poll mark, P35) and the one process snapshot (D52), without loading the
 * rest of the cycle. A listing command starts them as soon as it knows the
 * server, so tmux and `ps` work while tma is still loading its own modules
 * and manifests, instead of after (D64).
 * @module
 */
import type { PaneFacts, ProcessInfo } from "../../core/snapshot.ts";
import type { TmuxServer } from "../../tmux/exec.ts";
import { listPanes } from "../../tmux/panes.ts";
import { snapshotProcesses } from "../../tmux/ps.ts";

/** A cycle's outside inputs, under way. */
export interface StartedSnapshot {
  panes: Promise<PaneFacts[]>;
  processes: Promise<ProcessInfo[]>;
}

/**
 * Spawns the listing (with the poll mark at `markPollMs`, when given) and,
 * unless the caller already started it, the process snapshot; pass the
 * result as `CycleOptions.snapshot`.
 *
 * ```ts
 * const snapshot = startSnapshot({ bin: "tmux", socketName: "work" }, Date.now());
 * const panes = await snapshot.panes;
 * ```
 */
export function startSnapshot(
  server: TmuxServer,
  markPollMs?: number,
  processes: Promise<ProcessInfo[]> = snapshotProcesses(),
): StartedSnapshot {
  const panes = listPanes(server, { markPollMs });
  // The cycle awaits both later; until then a failure is not an unhandled rejection.
  panes.catch(() => undefined);
  processes.catch(() => undefined);
  return { panes, processes };
}

/**
 * The snapshots a waiter (`wait`, `subscribe`) runs its ticks on: one
 * `list-panes` every tick, and the process snapshot (`ps`, D52) only when
 * the listing says a process may have changed, or the last one is a few
 * seconds old. `ps` is most of an idle waiter's cost (it walks every
 * process of the machine, once a second); a tick whose panes show the same
 * pane pid, foreground command and liveness as when `ps` last ran reuses
 * that table, for at most `reuseMs`.
 *
 * What a reused table can miss is an agent replaced in place by a process
 * of the same name within `reuseMs`; its new pid is seen at the next fresh
 * table. Everything a pane's listing shows (a new foreground command, a
 * pane gone or new) takes a fresh one at once.
 *
 * ```ts
 * const snapshots = new WaiterSnapshots({ bin: "tmux", socketName: "work" }, { reuseMs: 5000, now: Date.now });
 * const snapshot = await snapshots.next(); // pass as CycleOptions.snapshot
 * ```
 * @module
 */
import type { PaneFacts, ProcessInfo } from "../core/snapshot.ts";
import type { TmuxServer } from "../tmux/exec.ts";
import { listPanes } from "../tmux/panes.ts";
import { snapshotProcesses } from "../tmux/ps.ts";
import type { StartedSnapshot } from "./cycle/snapshot_start.ts";

/** How long a waiter may reuse a process snapshot, by default. */
export const PROCESS_REUSE_MS = 5000;

/** The listing's process facts: what must match for a table to be reused. */
export function processFacts(panes: readonly PaneFacts[]): string {
  return panes.map((p) => `${p.paneId}:${p.panePid}:${p.currentCommand}:${p.dead ? 1 : 0}`)
    .join(" ");
}

/** Snapshots for a waiter's ticks. */
export class WaiterSnapshots {
  readonly #server: TmuxServer;
  readonly #reuseMs: number;
  readonly #now: () => number;
  #table: ProcessInfo[] | null = null;
  #tableFacts = "";
  #tableAt = 0;

  constructor(server: TmuxServer, options: { reuseMs?: number; now: () => number }) {
    this.#server = server;
    this.#reuseMs = options.reuseMs ?? PROCESS_REUSE_MS;
    this.#now = options.now;
  }

  /** Adopts a snapshot started elsewhere (the first tick's, which main started early). */
  async adopt(snapshot: StartedSnapshot): Promise<StartedSnapshot> {
    const [panes, processes] = await Promise.all([snapshot.panes, snapshot.processes]);
    this.#remember(panes, processes);
    return { panes: Promise.resolve(panes), processes: Promise.resolve(processes) };
  }

  /** This tick's snapshot: a fresh listing (with the poll mark), and a fresh or reused table. */
  async next(): Promise<StartedSnapshot> {
    const now = this.#now();
    const panes = await listPanes(this.#server, { markPollMs: now });
    const fresh = this.#table === null || now - this.#tableAt >= this.#reuseMs ||
      processFacts(panes) !== this.#tableFacts;
    const processes = fresh ? await snapshotProcesses() : this.#table!;
    if (fresh) this.#remember(panes, processes);
    return { panes: Promise.resolve(panes), processes: Promise.resolve(processes) };
  }

  #remember(panes: readonly PaneFacts[], processes: ProcessInfo[]): void {
    this.#table = processes;
    this.#tableFacts = processFacts(panes);
    this.#tableAt = this.#now();
  }
}

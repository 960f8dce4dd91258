/**
 * Runs a cycle and turns it into rows for the listing surfaces (`ls`,
 * `status`): the one path from a tmux server to the schema-1 document.
 * @module
 */
import type { Config } from "../../core/config/schema.ts";
import type { AgentModel } from "../../core/agent_model.ts";
import { type AgentRow, buildRow, type GitLabels, sortRows } from "../../core/rows.ts";
import { matches, type Selector } from "../../core/selector.ts";
import type { TmuxServer } from "../../tmux/exec.ts";
import { type CycleResult, runCycle } from "./run.ts";
import type { StartedSnapshot } from "./snapshot_start.ts";
import { hostName } from "../host.ts";
import type { GitLabeler } from "./git.ts";

const NO_GIT: GitLabels = { repo: null, branch: null, worktree: null };

/** Options of `listAgents`. */
export interface ListOptions {
  server: TmuxServer;
  models: readonly AgentModel[];
  config: Config;
  now(): number;
  selector?: Selector;
  /** Only this pane (C19). */
  pane?: string;
  /** Resolve git labels (ls always; status only when the selector asks). */
  git: boolean;
  /** Apply the stampede guard (D53); `status` does. */
  stampedeGuard?: boolean;
  /** The cycle's snapshot, if the caller started it early (`startSnapshot`). */
  snapshot?: StartedSnapshot;
  /** A labeler that outlives this call (a surface's refreshes reuse its memo). */
  labeler?: GitLabeler;
  /** Capture these panes even when D54 would skip them (the daemon's quiet edges, U7). */
  forceCapture?: ReadonlySet<string>;
}

/** The rows of a listing and the cycle behind them. */
export interface Listing {
  rows: AgentRow[];
  cycle: CycleResult;
}

export { hostName } from "../host.ts";

/** Runs one cycle and returns the selected rows in surface order. */
export async function listAgents(options: ListOptions): Promise<Listing> {
  const cycle = await runCycle({
    server: options.server,
    models: options.models,
    windows: {
      dwellSecs: options.config.fold.dwell_secs,
      hookDecaySecs: options.config.fold.hook_decay_secs,
      blockedDecaySecs: options.config.fold.blocked_decay_secs,
    },
    now: options.now,
    stampedeGuard: options.stampedeGuard,
    snapshot: options.snapshot,
    forceCapture: options.forceCapture,
  });
  // Git labels load their code only when a surface asks for them.
  const labeler = options.git
    ? options.labeler ?? new (await import("./git.ts")).GitLabeler()
    : null;
  const host = hostName();
  const nowMs = options.now();
  const rows: AgentRow[] = [];
  for (const outcome of cycle.outcomes) {
    if (options.pane && outcome.pane.paneId !== options.pane) continue;
    const git = labeler ? await labeler.labels(outcome.pane.currentPath) : NO_GIT;
    const row = buildRow(outcome.pane, outcome.options, {
      git,
      server: outcome.pane.socketPath,
      host,
      nowMs,
    });
    if (!row) continue;
    if (options.selector && !matches(row, options.selector, outcome.pane.sessionName)) continue;
    rows.push(row);
  }
  return { rows: sortRows(rows), cycle };
}

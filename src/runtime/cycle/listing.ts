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
import { fromPollOn } from "../notify/who.ts";
import type { EnvReader } from "../paths.ts";
import { type CycleOptions, type CycleResult, runCycle } from "./run.ts";
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
  /**
   * Dispatch notifications for the panes this cycle stamped, when
   * `[notify] from_poll` (or `TMA_NOTIFY_FROM_POLL=1`) is on and no daemon
   * serves the server (U25). Every polling surface passes its environment.
   */
  notify?: { env: EnvReader };
  /** A labeler that outlives this call (a surface's refreshes reuse its memo). */
  labeler?: GitLabeler;
  /** Capture these panes even when D54 would skip them (the daemon's quiet edges, U7). */
  forceCapture?: ReadonlySet<string>;
  /** Panes whose hook claim their fold leaves out (the daemon's demotion, U9). */
  unguarded?: CycleOptions["unguarded"];
  /** Runs between the cycle's stamps and its input clear (the daemon's dispatch, U16). */
  beforeInputClear?: CycleOptions["beforeInputClear"];
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
    unguarded: options.unguarded,
    beforeInputClear: options.beforeInputClear,
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
  if (
    options.notify && !cycle.stats.skipped &&
    fromPollOn(options.config.notify.from_poll, options.notify.env)
  ) {
    // The dispatcher loads only when a producer may dispatch (D64).
    const { dispatchCycle } = await import("../notify/from_cycle.ts");
    // A listing never fails over a notification.
    await dispatchCycle(cycle, {
      server: options.server,
      config: options.config,
      models: options.models,
      env: options.notify.env,
      now: options.now,
    }).catch(() => undefined);
  }
  return { rows: sortRows(rows), cycle };
}

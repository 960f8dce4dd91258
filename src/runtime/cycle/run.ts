/**
 * One detection cycle over a tmux server: one `list-panes -a`, one `ps`, one
 * batched capture of the agent panes that need it, the fold, and one batched
 * guarded write (D52). Data flows one way: snapshot → evidence → fold →
 * stamp.
 * @module
 */
import { needsCapture, planWrites, reapRegistration } from "../../core/cycle_plan.ts";
import type { AgentModel } from "../../core/agent_model.ts";
import { fold, type FoldWindows, hold, type Verdict } from "../../core/fold.ts";
import { identify, type Identity } from "../../core/identity.ts";
import { rollup } from "../../core/rollup.ts";
import {
  descendantsOf,
  indexProcesses,
  type PaneFacts,
  type PaneOptions,
  type ProcessTable,
} from "../../core/snapshot.ts";
import {
  applyWrites,
  type OptionWrite,
  readStamp,
  removalWrites,
  type Stamp,
} from "../../core/stamp.ts";
import type { State } from "../../core/state.ts";
import { type StartedSnapshot, startSnapshot } from "./snapshot_start.ts";
import type { TmuxServer } from "../../tmux/exec.ts";
import { unchangedSince, type WriteChain, writeChains } from "../../tmux/writer.ts";
import { pullTelemetry } from "../telemetry/pull.ts"; // issue 5: telemetry pull
import { clearSeenAttention } from "./input_clear.ts"; // issue 15: D58

/** The result of a cycle for one agent pane. */
export interface PaneOutcome {
  pane: PaneFacts;
  identity: Identity;
  prior: Stamp;
  verdict: Verdict;
  /** The screen reading, when the pane was captured (for `debug explain`). */
  screen: ReturnType<AgentModel["classify"]> | null;
  /** The pane's options as they read after the cycle's write. */
  options: PaneOptions;
  /** The stamp as it reads after the cycle's write. */
  stamp: Stamp;
  captured: boolean;
  committed: boolean;
}

/** Counts for `--debug-timing` and the benchmark (C7). */
export interface CycleStats {
  panes: number;
  agents: number;
  captures: number;
  captureSkipped: number;
  tmuxCalls: number;
  writes: number;
  ms: number;
  /** The stampede guard skipped this cycle (D53). */
  skipped: boolean;
}

/** The result of a cycle. */
export interface CycleResult {
  outcomes: PaneOutcome[];
  /** Every pane of the server, agent or not. */
  panes: PaneFacts[];
  stats: CycleStats;
}

/** Options of `runCycle`. */
export interface CycleOptions {
  server: TmuxServer;
  models: readonly AgentModel[];
  windows: FoldWindows;
  now(): number;
  /** Skip writes (read-only surfaces such as `debug explain`). */
  dryRun?: boolean;
  /** Capture these panes even when D54 would skip them. */
  forceCapture?: ReadonlySet<string>;
  /**
   * The snapshot, when the caller started it early with `startSnapshot` (its
   * listing carries the poll mark); otherwise the cycle takes it, and marks
   * unless `dryRun`.
   */
  snapshot?: StartedSnapshot;
  /**
   * Skip producing when another cycle ran in the same wall-clock second: the
   * stamps are read as they are (D53). For the ambient driver, where every
   * attached client's status line polls at once.
   */
  stampedeGuard?: boolean;
  /**
   * Whether a pane's hook claim is left out of its fold: the daemon's
   * hook-liveness demotion (U9), judged against the stamp as this cycle
   * read it.
   */
  unguarded?: (pane: PaneFacts, prior: Stamp) => boolean;
  /**
   * Runs once the cycle's stamps are written and before the attention clear
   * by input (D58): the daemon dispatches its notifications here, so a
   * completion is announced before input can clear it (U16).
   */
  beforeInputClear?: (cycle: CycleResult) => Promise<void>;
}

const SHELLS = new Set(["bash", "zsh", "sh", "fish", "dash", "ksh", "tcsh", "csh", "nu", "elvish"]);

/**
 * Runs one cycle and returns what it decided.
 *
 * ```ts
 * import { buildModels } from "../../core/agent_model.ts";
 * import { bundledManifests } from "../manifest/load.ts";
 * const result = await runCycle({
 *   server: { bin: "tmux", socketName: "work" },
 *   models: buildModels(bundledManifests().agents.values()),
 *   windows: { dwellSecs: 3, hookDecaySecs: 60, blockedDecaySecs: 300 },
 *   now: Date.now,
 * });
 * result.stats.captures; // how many panes this cycle had to capture
 * ```
 */
export async function runCycle(options: CycleOptions): Promise<CycleResult> {
  const started = performance.now();
  const snapshot = options.snapshot ??
    startSnapshot(options.server, options.dryRun ? undefined : options.now());
  const [panes, processes] = await Promise.all([snapshot.panes, snapshot.processes]);
  let tmuxCalls = 1;
  const table = indexProcesses(processes);
  const nowMs = options.now();
  const lastPoll = Math.max(0, ...panes.map((p) => p.lastPollMs));
  if (options.stampedeGuard && Math.floor(lastPoll / 1000) === Math.floor(nowMs / 1000)) {
    return {
      outcomes: stampedOutcomes(panes),
      panes,
      stats: {
        panes: panes.length,
        agents: 0,
        captures: 0,
        captureSkipped: 0,
        tmuxCalls,
        writes: 0,
        ms: Math.round(performance.now() - started),
        skipped: true,
      },
    };
  }
  const profiles = options.models.map((m) => m.profile);
  const modelOf = new Map(options.models.map((m) => [m.profile.name, m]));

  interface Pending {
    pane: PaneFacts;
    identity: Identity;
    prior: Stamp;
    capture: boolean;
    unguarded: boolean;
  }
  const pending: Pending[] = [];
  const chains: WriteChain[] = [];
  for (const pane of panes) {
    if (pane.dead) continue;
    const identity = identify(pane, { table, profiles });
    const prior = readStamp(pane.options);
    if (!identity.agent) {
      // A pane that no longer holds an agent loses every stamp (D40).
      if (Object.keys(pane.options).some((name) => name !== "@agent_ignore")) {
        chains.push({ pane: pane.paneId, writes: removalWrites(pane.options) });
      }
      continue;
    }
    if (identity.source === "registered" && !identity.outOfScope) {
      const reaped = reapRegistration(pane, { shellOnly: isShellOnly(pane, table), nowMs });
      if (reaped === "remove") {
        chains.push({ pane: pane.paneId, writes: removalWrites(pane.options) });
        continue;
      }
      if (reaped.length > 0) chains.push({ pane: pane.paneId, writes: reaped });
    }
    const capture = options.forceCapture?.has(pane.paneId) && identity.source === "observed"
      ? true
      : needsCapture(pane, { prior, identity, nowMs, windows: options.windows });
    const unguarded = options.unguarded?.(pane, prior) ?? false;
    pending.push({ pane, identity, prior, capture, unguarded });
  }

  const toCapture = pending.filter((p) =>
    p.capture && p.identity.foregroundIsAgent && p.pane.scrollPosition === 0
  );
  // A quiet cycle captures nothing and does not load the capture code (D64).
  const screens = toCapture.length === 0
    ? new Map<string, string>()
    : await (await import("../../tmux/capture.ts")).capturePanes(
      options.server,
      toCapture.map((p) => p.pane.paneId),
    );
  if (toCapture.length > 0) tmuxCalls++;

  const outcomes: PaneOutcome[] = [];
  for (const item of pending) {
    const model = modelOf.get(item.identity.agent!)!;
    const capture = screens.get(item.pane.paneId) ?? null;
    const screen = capture === null
      ? null
      : model.classify({ capture, title: item.pane.title, height: item.pane.height });
    const verdict = fold({
      prior: item.prior,
      identity: item.identity,
      visible: model.visible,
      screen,
      scrolled: item.pane.scrollPosition > 0,
      nowMs,
      windows: options.windows,
      hookDemoted: item.unguarded,
    });
    const writes = planWrites(verdict, {
      pane: item.pane,
      identity: item.identity,
      prior: item.prior,
      capture,
      nowMs,
    });
    chains.push({ pane: item.pane.paneId, guard: unchangedSince(item.prior.stampedAtRaw), writes });
    outcomes.push({
      pane: item.pane,
      identity: item.identity,
      prior: item.prior,
      verdict,
      screen,
      ...afterWrites(item.pane, writes),
      captured: capture !== null,
      committed: false,
    });
  }
  // ── issue 5: file-tail telemetry pull (I29-I31) ───────────────────────────
  // Only panes whose manifest declares `[telemetry.context] channel =
  // "file-tail"` and that carry @agent_session read anything; every other pane
  // costs a property check. The chains ride in the same batch (no extra tmux
  // call); a refused one (newer evidence already stored) also reads as "not
  // committed" for the pane, which writeChains ANDs over a pane's chains.
  const pulled = await pullTelemetry(
    outcomes.map((o) => ({
      paneId: o.pane.paneId,
      options: o.options,
      manifest: modelOf.get(o.identity.agent!)!.manifest,
    })),
    { nowMs },
  );
  for (const outcome of outcomes) {
    const got = pulled.get(outcome.pane.paneId);
    if (got === undefined) continue;
    chains.push(...got.chains);
    outcome.options = got.options;
  }
  // ── end issue 5 ───────────────────────────────────────────────────────────
  chains.push(...rollupChains(panes, outcomes));
  let committed = new Map<string, boolean>();
  if (!options.dryRun && chains.length > 0) {
    committed = await writeChains(options.server, chains);
    // writeChains spawns tmux only when some chain has a write.
    if (chains.some((chain) => chain.writes.length > 0)) tmuxCalls++;
  }
  for (const outcome of outcomes) outcome.committed = committed.get(outcome.pane.paneId) ?? false;
  const result: CycleResult = {
    outcomes,
    panes,
    stats: {
      panes: panes.length,
      agents: outcomes.length,
      captures: screens.size,
      captureSkipped: pending.length - toCapture.length,
      tmuxCalls,
      writes: chains.reduce((n, c) => n + c.writes.length, 0),
      ms: 0,
      skipped: false,
    },
  };
  await options.beforeInputClear?.(result);
  // issue 15: attention cleared by input (D58), after the stamps are written.
  if (!options.dryRun) result.stats.tmuxCalls += await clearInputSeen(options.server, outcomes);
  result.stats.ms = Math.round(performance.now() - started);
  return result;
}

/**
 * D58: clears attention on the panes a client's input has seen, and
 * refreshes those outcomes' stamps; returns the tmux calls it made.
 */
async function clearInputSeen(server: TmuxServer, outcomes: PaneOutcome[]): Promise<number> {
  const calls = await clearSeenAttention(server, outcomes);
  for (const outcome of outcomes) outcome.stamp = readStamp(outcome.options);
  return calls;
}

/** Outcomes that restate the stamps as they stand, for a skipped cycle. */
function stampedOutcomes(panes: readonly PaneFacts[]): PaneOutcome[] {
  const outcomes: PaneOutcome[] = [];
  for (const pane of panes) {
    const stamp = readStamp(pane.options);
    if (!stamp.agent || !stamp.state) continue;
    outcomes.push({
      pane,
      identity: {
        agent: stamp.agent,
        source: stamp.pid === 0 ? "registered" : "observed",
        pid: stamp.pid ?? 0,
        foregroundIsAgent: true,
        outOfScope: null,
        ignored: false,
        titleMatchPid: null,
        matched: null,
      },
      prior: stamp,
      verdict: hold(stamp, false, "another cycle ran this second (D53)"),
      screen: null,
      options: pane.options,
      stamp,
      captured: false,
      committed: false,
    });
  }
  return outcomes;
}

function isShellOnly(pane: PaneFacts, table: ProcessTable): boolean {
  const root = table.byPid.get(pane.panePid);
  if (!root) return true;
  return SHELLS.has(pane.currentCommand) && descendantsOf(table, root.pid).length === 0;
}

/** The options and stamp as they will read once `writes` commit. */
function afterWrites(
  pane: PaneFacts,
  writes: readonly OptionWrite[],
): { options: PaneOptions; stamp: Stamp } {
  const options = applyWrites(pane.options, writes);
  return { options, stamp: readStamp(options) };
}

/**
 * Rollup writes for every window and session whose summary changed (D56).
 * `#{@agent_summary}` in a pane's format reads its window's value, so the
 * listing already holds the old rollups.
 */
function rollupChains(panes: readonly PaneFacts[], outcomes: readonly PaneOutcome[]): WriteChain[] {
  const stateOf = new Map(outcomes.map((o) => [o.pane.paneId, o.stamp.state]));
  const byWindow = new Map<string, PaneFacts[]>();
  const bySession = new Map<string, PaneFacts[]>();
  for (const pane of panes) {
    byWindow.set(pane.windowId, [...(byWindow.get(pane.windowId) ?? []), pane]);
    bySession.set(pane.sessionId, [...(bySession.get(pane.sessionId) ?? []), pane]);
  }
  const chains: WriteChain[] = [];
  const add = (members: PaneFacts[], name: "@agent_summary" | "@agent_session_summary") => {
    const states = members.map((p) => stateOf.get(p.paneId)).filter((s): s is State => !!s);
    const value = rollup(states);
    const old = members[0].rollups[name] ?? "";
    if (old === value) return;
    chains.push({
      pane: members[0].paneId,
      writes: [{
        name,
        value: value === "" ? null : value,
        scope: name === "@agent_summary" ? "window" : "session",
      }],
    });
  };
  for (const members of byWindow.values()) add(members, "@agent_summary");
  for (const members of bySession.values()) add(members, "@agent_session_summary");
  return chains;
}

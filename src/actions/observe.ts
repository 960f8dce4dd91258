/**
 * How the broker sees a target: the pane's stamp as listed, refreshed by
 * one on-demand detection cycle when it is too old to act on (A12), plus
 * what the gate needs from the agent's manifest and the config.
 * @module
 */
import type { AgentModel } from "../core/agent_model.ts";
import type { Config } from "../core/config/schema.ts";
import type { ParsedAgentManifest } from "../core/manifest/parse.ts";
import type { TmuxServer } from "../tmux/exec.ts";
import { serverVersion } from "../tmux/options.ts";
import { listPane } from "../tmux/panes.ts";
import { runCycle } from "../runtime/cycle/run.ts";
import type { GateInput } from "../core/action/gate.ts";
import { type PaneView, paneView } from "../core/action/view.ts";

/** What every broker run works with. */
export interface BrokerEnv {
  server: TmuxServer;
  config: Config;
  agents: ReadonlyMap<string, ParsedAgentManifest>;
  models: readonly AgentModel[];
  /** The wall clock, epoch ms. */
  now(): number;
  /** Where fired actions are logged, or null for no audit log. */
  auditPath: string | null;
  /** Receives one-line warnings (an audit log that cannot be written). */
  warn?(line: string): void;
  /**
   * How a child tma starts (the detached-exec supervisor, A23): the program
   * and its arguments up to the global flags. Defaults to this program.
   */
  tma?: readonly string[];
  /** The config and manifest flags every child tma gets, beside the target's server (C9). */
  childGlobals?: { config?: string; noConfig?: boolean; manifestDir?: string };
}

/**
 * Runs one detection cycle that captures `pane` whatever its stamp says,
 * and returns the pane as the cycle left it: null when it is gone, a view
 * with no agent when the cycle found none. `dryRun` computes without
 * writing a stamp.
 */
export async function redetect(
  env: BrokerEnv,
  options: { pane: string; dryRun?: boolean },
): Promise<PaneView | null> {
  const cycle = await runCycle({
    server: env.server,
    models: env.models,
    windows: {
      dwellSecs: env.config.fold.dwell_secs,
      hookDecaySecs: env.config.fold.hook_decay_secs,
      blockedDecaySecs: env.config.fold.blocked_decay_secs,
    },
    now: env.now,
    dryRun: options.dryRun,
    forceCapture: new Set([options.pane]),
  });
  const outcome = cycle.outcomes.find((o) => o.pane.paneId === options.pane);
  if (outcome) return paneView({ ...outcome.pane, options: outcome.options });
  const facts = cycle.panes.find((p) => p.paneId === options.pane);
  if (!facts || facts.dead) return null;
  return { ...paneView({ ...facts, options: {} }), agent: null };
}

/**
 * Lists one pane (by id or locator) into a view; null when it is gone.
 * A server that does not answer at all throws (a runtime error, not a
 * vanished pane).
 */
export async function readView(env: BrokerEnv, pane: string): Promise<PaneView | null> {
  const facts = await listPane(env.server, pane);
  if (!facts) {
    await serverVersion(env.server);
    return null;
  }
  if (facts.dead) return null;
  return paneView(facts);
}

/** The gate's input for a view: `--force`, context coverage, the API endpoint. */
export function gateInput(env: BrokerEnv, options: { view: PaneView; force: boolean }): GateInput {
  const { view, force } = options;
  const agent = view.agent === null ? null : env.agents.get(view.agent);
  const fallback = view.agent === null ? undefined : env.config.api[view.agent]?.api_base;
  return {
    view,
    force,
    hasContext: agent?.telemetry?.context !== undefined,
    endpoint: view.apiEndpoint ?? fallback ?? null,
  };
}

/** The model of an agent, for classifying a fresh capture. */
export function modelOf(env: BrokerEnv, agent: string | null): AgentModel | null {
  if (agent === null) return null;
  return env.models.find((m) => m.profile.name === agent) ?? null;
}

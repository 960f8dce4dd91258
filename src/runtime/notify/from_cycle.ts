/**
 * The polling producers' dispatch (U25, `[notify] from_poll`): after a
 * cycle, every pane whose stamp calls for a trigger is handed to the
 * dispatcher, unless a live daemon serves the server (it dispatches then).
 * Only stamps this cycle committed, or left as they were, are read: a
 * producer that lost its compare-and-swap leaves the pane to the winner.
 *
 * ```ts
 * import type { CycleResult } from "../cycle/run.ts";
 * import type { AgentModel } from "../../core/agent_model.ts";
 * import { defaultConfig } from "../../core/config/schema.ts";
 * declare const cycle: CycleResult;
 * declare const models: AgentModel[];
 * await dispatchCycle(cycle, {
 *   server: { bin: "tmux" }, config: defaultConfig(), models,
 *   env: (name) => Deno.env.get(name), now: Date.now,
 * });
 * ```
 * @module
 */
import type { AgentModel } from "../../core/agent_model.ts";
import { contextStep, stateTrigger } from "../../core/notify/trigger.ts";
import type { PaneFacts, PaneOptions } from "../../core/snapshot.ts";
import type { CycleResult } from "../cycle/run.ts";
import type { Candidate, DispatchContext, FireReport } from "./dispatch.ts";
import { daemonServes } from "./who.ts";

/** The triggers due on one pane: a state trigger and/or a `context_high` step. */
export function paneCandidates(
  pane: PaneFacts,
  options: PaneOptions,
  context: { config: DispatchContext["config"]; covered: boolean; nowMs: number; direct: boolean },
): Candidate[] {
  const notify = context.config.notify;
  const out: Candidate[] = [];
  const due = stateTrigger(options, { on: notify.on, nowMs: context.nowMs });
  if (due !== null) {
    out.push({ kind: "state", pane, options, due, payloadExcerpt: null, direct: context.direct });
  }
  const rule = notify.context_high ? { threshold: notify.context_high.threshold } : null;
  const step = contextStep(options, { rule, covered: context.covered });
  if (step.kind !== "none") {
    out.push({
      kind: "context",
      pane,
      options,
      step: step.kind,
      pct: step.pct,
      guard: step.guard,
      direct: context.direct,
    });
  }
  return out;
}

/** Dispatches what a cycle's stamps call for. */
export async function dispatchCycle(
  cycle: CycleResult,
  context: DispatchContext & {
    models: readonly AgentModel[];
    /** The daemon itself dispatches (U25): it does not defer to itself. */
    byDaemon?: boolean;
  },
): Promise<FireReport[]> {
  const nowMs = context.now();
  const covered = new Set(
    context.models.filter((m) => m.manifest.telemetry?.context).map((m) => m.profile.name),
  );
  const candidates: Candidate[] = [];
  for (const outcome of cycle.outcomes) {
    const untouched = outcome.stamp.stampedAtRaw === outcome.prior.stampedAtRaw;
    if (!outcome.committed && !untouched) continue;
    candidates.push(...paneCandidates(outcome.pane, outcome.options, {
      config: context.config,
      covered: covered.has(outcome.identity.agent ?? ""),
      nowMs,
      direct: false,
    }));
  }
  if (candidates.length === 0) return [];
  if (!context.byDaemon && await daemonServes(candidates[0].pane.socketPath, context.env)) {
    return [];
  }
  // The dispatcher and its sinks load only when something is due: a status
  // poll with from_poll on pays for the trigger check alone (D64).
  const { dispatch } = await import("./dispatch.ts");
  return await dispatch(candidates, context);
}

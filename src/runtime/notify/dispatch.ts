/**
 * The notification dispatcher: one due trigger in, at most one fire out
 * (U18-U28, R17, X5). Every dispatcher (a hook's direct fire, a polling
 * producer, later the daemon) goes through `dispatch`, in this order:
 *
 * 1. Claim the episode: one guarded chain writes `@agent_notified_at` only
 *    while the stamp still reads as the trigger was decided (state, since,
 *    turn_at, attention) and the marker is older than the episode, then
 *    reads the marker and the mute deadline back in the same tmux command
 *    list. Only the claimer whose own value reads back fires: racing
 *    producers ring once, and missing a fire is preferred to firing twice.
 *    (`context_high` claims its armed flag the same way, U27.)
 * 2. The claim is committed before anything fires, so a suppressed fire is
 *    spent, not queued: a muted pane (read back in the claim, U26) or one
 *    the user is looking at (X5) stays silent for the rest of the episode.
 * 3. Fire every sink: the status-line message on every attached client,
 *    the bell and OSC 9 if configured, the command, the log line.
 *
 * The excerpt lives only in this process: from the hook payload the caller
 * hands in, or from a capture taken here for a screen-detected dialog and
 * dropped once its question line is read (R8).
 *
 * ```ts
 * import { stateTrigger } from "../../core/notify/trigger.ts";
 * import { defaultConfig } from "../../core/config/schema.ts";
 * import type { PaneFacts } from "../../core/snapshot.ts";
 * declare const pane: PaneFacts;
 * const due = stateTrigger(pane.options, { on: ["blocked"], nowMs: Date.now() });
 * if (due) {
 *   await dispatch([{ kind: "state", pane, options: pane.options, due, payloadExcerpt: null, direct: false }], {
 *     server: { bin: "tmux", socketName: "work" },
 *     config: defaultConfig(),
 *     env: (name) => Deno.env.get(name),
 *     now: Date.now,
 *   });
 * }
 * ```
 * @module
 */
import type { Config } from "../../core/config/schema.ts";
import { finishExcerpt, questionLine } from "../../core/notify/excerpt.ts";
import {
  buildPayload,
  logLine,
  messageText,
  type NotifyPayload,
  oscText,
  payloadEnv,
} from "../../core/notify/payload.ts";
import { commandFor, messageClients, userIsLooking } from "../../core/notify/route.ts";
import {
  type ContextGuard,
  type DueStateTrigger,
  type EpisodeGuard,
  episodeOf,
  type TriggerName,
} from "../../core/notify/trigger.ts";
import type { PaneFacts, PaneOptions } from "../../core/snapshot.ts";
import { ms, readStamp } from "../../core/stamp.ts";
import { parseEpochMs } from "../../core/time.ts";
import type { TmuxServer } from "../../tmux/exec.ts";
import { readFireFacts, showMessage } from "../../tmux/notify.ts";
import { claimChain, escapeFormat } from "../../tmux/writer.ts";
import type { EnvReader } from "../paths.ts";
import { spawnNotifyCommand } from "./command.ts";
import { appendLog, ringPane } from "./sinks.ts";

/** A state trigger due on a pane. */
export interface StateCandidate {
  kind: "state";
  pane: PaneFacts;
  /** The pane's options as the trigger was decided from them. */
  options: PaneOptions;
  due: DueStateTrigger;
  /** The raw excerpt of the hook payload behind the stamp, when the caller has one. */
  payloadExcerpt: string | null;
  /** A hook's direct fire (U24): `since_ms` is 0. */
  direct: boolean;
}

/** A `context_high` step due on a pane (U27). */
export interface ContextCandidate {
  kind: "context";
  pane: PaneFacts;
  options: PaneOptions;
  step: "fire" | "rearm";
  pct: number;
  guard: ContextGuard;
  direct: boolean;
}

/** Something the dispatcher may fire. */
export type Candidate = StateCandidate | ContextCandidate;

/** What the dispatcher needs around it. */
export interface DispatchContext {
  server: TmuxServer;
  config: Config;
  env: EnvReader;
  now(): number;
}

/** What became of one candidate (tests and the debug log read it). */
export interface FireReport {
  pane: string;
  trigger: TriggerName;
  outcome: "fired" | "lost" | "muted" | "looking" | "rearmed";
  payload: NotifyPayload | null;
}

/** How long the OSC 9 bytes get to reach tmux before the status message freezes the client. */
const OSC_LEAD_MS = 50;

const MARKER = "@agent_notified_at";
const MUTE = "@agent_mute_until";
const CONTEXT_FLAG = "@agent_context_notified_at";

function equals(option: string, value: string): string {
  return `#{==:#{${option}},${escapeFormat(value)}}`;
}

/** `#{&&:a,#{&&:b,c}}`: tmux's `&&` takes two operands. */
function all(conditions: readonly string[]): string {
  return conditions.reduceRight((rest, condition) => `#{&&:${condition},${rest}}`);
}

/** The claim guard of a state trigger: the stamp as decided, and the marker older than the episode. */
export function episodeClaimGuard(guard: EpisodeGuard): string {
  const conditions = [
    equals("@agent_state", guard.state),
    equals("@agent_since", guard.since),
    equals("@agent_turn_at", guard.turnAt),
  ];
  if (guard.attention) conditions.push(equals("@agent_attention", "1"));
  conditions.push(`#{e|<:#{${MARKER}},${guard.episodeMs}}`);
  return all(conditions);
}

/** The claim guard of a context step: the gauge as read, and the flag as expected. */
export function contextClaimGuard(guard: ContextGuard, armed: boolean): string {
  return all([
    equals("@agent_context_pct", guard.pct),
    equals("@agent_context_at", guard.at),
    armed ? equals(CONTEXT_FLAG, "") : `#{!=:#{${CONTEXT_FLAG}},}`,
  ]);
}

/** Dispatches every candidate, one after the other; returns what became of each. */
export async function dispatch(
  candidates: readonly Candidate[],
  context: DispatchContext,
): Promise<FireReport[]> {
  const reports: FireReport[] = [];
  for (const candidate of candidates) {
    reports.push(
      candidate.kind === "state"
        ? await dispatchState(candidate, context)
        : await dispatchContext(candidate, context),
    );
  }
  return reports;
}

async function dispatchState(
  candidate: StateCandidate,
  context: DispatchContext,
): Promise<FireReport> {
  const { pane, due } = candidate;
  const marker = ms(due.markerMs);
  const claim = await claimChain(context.server, {
    pane: pane.paneId,
    guard: episodeClaimGuard(due.guard),
    writes: [{ name: MARKER, value: marker }],
    readBack: [MARKER, MUTE],
  });
  const report = { pane: pane.paneId, trigger: due.trigger, payload: null };
  if (!claim.committed || claim.values[MARKER] !== marker) return { ...report, outcome: "lost" };
  return await fire(candidate, {
    context,
    trigger: due.trigger,
    muteUntil: claim.values[MUTE],
    rawExcerpt: candidate.payloadExcerpt,
  });
}

async function dispatchContext(
  candidate: ContextCandidate,
  context: DispatchContext,
): Promise<FireReport> {
  const { pane } = candidate;
  const report = { pane: pane.paneId, trigger: "context_high" as const, payload: null };
  if (candidate.step === "rearm") {
    await claimChain(context.server, {
      pane: pane.paneId,
      guard: contextClaimGuard(candidate.guard, false),
      writes: [{ name: CONTEXT_FLAG, value: null }],
    });
    return { ...report, outcome: "rearmed" };
  }
  const flag = ms(context.now());
  const claim = await claimChain(context.server, {
    pane: pane.paneId,
    guard: contextClaimGuard(candidate.guard, true),
    writes: [{ name: CONTEXT_FLAG, value: flag }],
    readBack: [CONTEXT_FLAG, MUTE],
  });
  if (!claim.committed || claim.values[CONTEXT_FLAG] !== flag) {
    return { ...report, outcome: "lost" };
  }
  return await fire(candidate, {
    context,
    trigger: "context_high",
    muteUntil: claim.values[MUTE],
    rawExcerpt: null,
  });
}

/** After a won claim: the mute and looking checks, then every sink. */
async function fire(
  candidate: Candidate,
  spec: {
    context: DispatchContext;
    trigger: TriggerName;
    muteUntil: string | undefined;
    rawExcerpt: string | null;
  },
): Promise<FireReport> {
  const { context, trigger } = spec;
  const { pane } = candidate;
  const nowMs = context.now();
  const report = { pane: pane.paneId, trigger };
  const muteUntil = parseEpochMs(spec.muteUntil);
  if (muteUntil !== null && muteUntil > nowMs) {
    return { ...report, outcome: "muted", payload: null };
  }
  // The git labels load their code only when something fires, and run beside the tmux read.
  const git = import("../cycle/git.ts").then(({ GitLabeler }) =>
    new GitLabeler().labels(pane.currentPath)
  );
  git.catch(() => undefined);
  // The capture, when one is needed, is read here and dropped with this call (R8).
  const wantsScreen = trigger === "blocked" && spec.rawExcerpt === null;
  const facts = await readFireFacts(context.server, { pane: pane.paneId, capture: wantsScreen });
  const notify = context.config.notify;
  if (
    userIsLooking(facts.clients, { pane: pane.paneId, nowMs, lookingSecs: notify.looking_secs })
  ) {
    return { ...report, outcome: "looking", payload: null };
  }
  const raw = spec.rawExcerpt ??
    (facts.capture === null ? null : questionLine(facts.capture, facts.height ?? pane.height));
  const excerpt = raw === null || trigger !== "blocked"
    ? null
    : finishExcerpt(raw, { home: context.env("HOME") });
  const stamp = readStamp(candidate.options);
  const labels = await git;
  const payload = buildPayload({
    agent: stamp.agent ?? "",
    pane: pane.paneId,
    state: stamp.state ?? "unknown",
    detail: stamp.detail,
    session: stamp.session,
    locator: pane.locator,
    title: pane.title,
    windowName: facts.windowName,
    repo: labels.repo,
    branch: labels.branch,
    episodeMs: episodeOf(candidate.options),
    contextPct: contextPct(candidate.options),
    server: pane.socketPath,
  }, { trigger, excerpt, nowMs, direct: candidate.direct });
  await fireSinks(payload, { context, tty: pane.tty, clients: messageClients(facts.clients) });
  return { ...report, outcome: "fired", payload };
}

function contextPct(options: PaneOptions): number | null {
  const raw = options["@agent_context_pct"];
  return raw !== undefined && /^\d+$/.test(raw) ? Number(raw) : null;
}

/**
 * Every sink of one fire, each best-effort: the bell and OSC 9 first (a
 * status message would freeze the client they pass through), the command
 * (what a user waits on), then the message and the log line.
 */
async function fireSinks(
  payload: NotifyPayload,
  target: { context: DispatchContext; tty: string; clients: string[] },
): Promise<void> {
  const { context } = target;
  const notify = context.config.notify;
  const nowMs = context.now();
  const ringing = notify.bell || notify.osc
    ? ringPane(target.tty, { bell: notify.bell, osc: notify.osc ? oscText(payload) : null })
    : null;
  const command = commandFor(payload.state, notify, context.env("TMA_NOTIFY_CMD"));
  if (command !== null) {
    await spawnNotifyCommand({
      command,
      payload: JSON.stringify(payload),
      env: payloadEnv(payload),
      failure: { at_ms: nowMs, trigger: payload.state, pane: payload.pane },
      stateEnv: context.env,
    });
  }
  if (ringing !== null) {
    await ringing;
    // tmux freezes a client's output while it shows a status message, and
    // drops a passthrough sequence that arrives meanwhile: the pane's bytes
    // get a moment to reach the server before the message goes up.
    if (notify.osc) await new Promise((resolve) => setTimeout(resolve, OSC_LEAD_MS));
  }
  await showMessage(context.server, { clients: target.clients, text: messageText(payload) })
    .catch(() => undefined);
  if (notify.log !== undefined) appendLog(notify.log, logLine(payload, nowMs), context.env);
}

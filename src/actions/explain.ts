/**
 * The broker's read-only surfaces: the dry run (A36, C47), which walks the
 * broker's first half and says what would go out, and the fireability
 * listing (A37, C53, P69). Neither takes a lock, sends anything or writes
 * a stamp.
 * @module
 */
import type { ParsedActionManifest } from "../core/manifest/parse.ts";
import type { FireRequest } from "./broker.ts";
import { apiCall } from "./api.ts";
import { execEnv } from "./exec.ts";
import { checkGate } from "../core/action/gate.ts";
import { verdictToken } from "../core/hook/decision.ts";
import { VERDICT_OPTION } from "./hook_lane.ts";
import { parseLock } from "./lock.ts";
import { type BrokerEnv, gateInput, readView, redetect } from "./observe.ts";
import type { Reason } from "../core/action/outcome.ts";
import { applicableAgents, type Transport } from "../core/action/transport.ts";
import { isStale, type PaneView } from "../core/action/view.ts";

/** What a firing would send, by transport. */
export type WouldSend =
  | { transport: "keys"; keys: string[] }
  | { transport: "text"; sequence: string[]; text: string }
  | {
    transport: "hook-lane";
    option: string;
    value: string;
    /** Sent only when the holding hook does not take the verdict (A26). */
    fallback_keys: string[];
  }
  | { transport: "api"; method: "POST"; url: string; body: string }
  | {
    transport: "exec";
    command: string;
    env: Record<string, string>;
    /** Present for a detached exec: it would run under `tma supervise`, killed after this (A23). */
    detach_timeout_ms?: number;
  };

/** A reading with its age. */
export interface Aged {
  value: number;
  /** Milliseconds since it was stamped, or null when no time was stamped. */
  age_ms: number | null;
}

/** The dry run of one target. */
export interface DryRunTarget {
  pane: string;
  locator: string | null;
  agent: string | null;
  state: string | null;
  detail: string | null;
  /** Age of `@agent_stamped_at` as gated on, after any re-detection. */
  stamp_age_ms: number | null;
  /** A re-detection cycle ran because the stamp was stale (A12). */
  redetected: boolean;
  fireable: boolean;
  reason: Reason | null;
  message: string | null;
  context: { context_pct: Aged | null; tokens: Aged | null };
  /** The lock as it stands, or null when free. */
  lock: string | null;
  would_send: WouldSend | null;
}

/** What a dry run is asked: the request a firing would get, without its seams. */
export type DryRunRequest = Pick<
  FireRequest,
  "action" | "pane" | "text" | "args" | "answers" | "force"
>;

function aged(value: number | null, at: number | null, nowMs: number): Aged | null {
  if (value === null) return null;
  return { value, age_ms: at === null ? null : Math.max(0, nowMs - at) };
}

/**
 * Walks identity and the gate for one target the way `fire` would (with a
 * re-detection computed but not written), and describes what would go out.
 */
export async function dryRun(env: BrokerEnv, request: DryRunRequest): Promise<DryRunTarget> {
  const force = request.force ?? false;
  let view = await readView(env, request.pane);
  let redetected = false;
  if (view !== null) {
    const stale = isStale(view, {
      nowMs: env.now(),
      freshnessSecs: env.config.fold.freshness_secs,
    });
    if (view.agent === null || (request.action.kind === "keys" && stale && !force)) {
      view = await redetect(env, { pane: view.pane, dryRun: true });
      redetected = true;
    }
  }
  const nowMs = env.now();
  if (view === null) {
    return {
      pane: request.pane,
      locator: null,
      agent: null,
      state: null,
      detail: null,
      stamp_age_ms: null,
      redetected,
      fireable: false,
      reason: null,
      message: `pane ${request.pane} is gone`,
      context: { context_pct: null, tokens: null },
      lock: null,
      would_send: null,
    };
  }
  const gate = checkGate(request.action, gateInput(env, { view, force }));
  const lock = parseLock(view.lock);
  return {
    pane: view.pane,
    locator: view.locator,
    agent: view.agent,
    state: view.state,
    detail: view.detail,
    stamp_age_ms: view.stampedAt === null ? null : Math.max(0, nowMs - view.stampedAt),
    redetected,
    fireable: gate.ok,
    reason: gate.ok ? null : gate.refusal.reason,
    message: gate.ok ? null : gate.refusal.message,
    context: {
      context_pct: aged(view.contextPct, view.contextAt, nowMs),
      tokens: aged(view.tokens, view.tokensAt, nowMs),
    },
    lock: lock && lock.expiryMs >= nowMs ? view.lock : null,
    would_send: gate.ok ? wouldSend(env, { request, view, transport: gate.transport }) : null,
  };
}

function wouldSend(
  env: BrokerEnv,
  options: { request: DryRunRequest; view: PaneView; transport: Transport },
): WouldSend {
  const { request, view, transport } = options;
  switch (transport.kind) {
    case "keys":
      return { transport: "keys", keys: [...transport.keys] };
    case "text":
      return { transport: "text", sequence: [...transport.sequence], text: request.text ?? "" };
    case "hook-lane":
      return {
        transport: "hook-lane",
        option: VERDICT_OPTION,
        value: verdictToken(transport.requestId, transport.verdict),
        fallback_keys: [...transport.keys],
      };
    case "api": {
      const endpoint = gateInput(env, { view, force: false }).endpoint ?? "";
      const call = transport.op.op === "question-reply" && !request.answers
        ? {
          url: `${endpoint.replace(/\/+$/, "")}/question/${view.questionRequest}/reply`,
          body: "(answers)",
        }
        : apiCall(transport.op, {
          endpoint,
          permissionRequest: view.permissionRequest,
          questionRequest: view.questionRequest,
          answers: request.answers,
        });
      return { transport: "api", method: "POST", url: call.url, body: call.body };
    }
    case "exec":
      return {
        transport: "exec",
        command: transport.command,
        env: execEnv(view, { action: request.action.name, args: request.args ?? [] }),
        ...(request.action.detach ? { detach_timeout_ms: request.action.detach_timeout_ms } : {}),
      };
  }
}

/** The `when` of a listing entry (P69). */
export interface ListedWhen {
  state: string[];
  detail: string[];
  context_pct_min: number | null;
  context_pct_max: number | null;
}

/** One entry of `act --list` (P69). */
export interface ListedAction {
  name: string;
  label: string;
  kind: "keys" | "exec";
  text: boolean;
  agents: string[];
  when: ListedWhen | null;
  fireable?: boolean;
  reason?: Reason | null;
}

/** The listing entry of an action, without fireability. */
export function listedAction(action: ParsedActionManifest): ListedAction {
  const when = action.when;
  return {
    name: action.name,
    label: action.label,
    kind: action.kind,
    text: action.text,
    agents: applicableAgents(action),
    when: when
      ? {
        state: [...(when.state ?? [])],
        detail: [...(when.detail ?? [])],
        context_pct_min: when.context_pct_min ?? null,
        context_pct_max: when.context_pct_max ?? null,
      }
      : null,
  };
}

/** Whether an action could fire at a pane right now, and why not. */
export interface Fireability {
  fireable: boolean;
  reason: Reason | null;
  message: string | null;
}

/**
 * The fireability of one action at one view: the gate, a live lock
 * (`locked`), and the one shape `tma act` cannot fire (a `question-reply`
 * op that needs answers), which is not fireable with a null reason (A37).
 */
export function fireability(
  env: BrokerEnv,
  options: { action: ParsedActionManifest; view: PaneView },
): Fireability {
  const { action, view } = options;
  const gate = checkGate(action, gateInput(env, { view, force: false }));
  if (!gate.ok) {
    return { fireable: false, reason: gate.refusal.reason, message: gate.refusal.message };
  }
  if (gate.transport.kind === "api" && gate.transport.op.op === "question-reply") {
    return {
      fireable: false,
      reason: null,
      message: "question-reply needs answers (library only)",
    };
  }
  const lock = parseLock(view.lock);
  if (lock && lock.expiryMs >= env.now()) {
    return {
      fireable: false,
      reason: "locked",
      message: `${lock.name} (pid ${lock.pid}) holds the action lock`,
    };
  }
  return { fireable: true, reason: null, message: null };
}

/**
 * The view a listing or menu gates on: the pane as listed, re-detected
 * (and stamped, like any poll) when its stamp is stale. Null when gone.
 */
export async function freshView(env: BrokerEnv, pane: string): Promise<PaneView | null> {
  const view = await readView(env, pane);
  if (view === null) return null;
  if (isStale(view, { nowMs: env.now(), freshnessSecs: env.config.fold.freshness_secs })) {
    return await redetect(env, { pane: view.pane });
  }
  return view;
}

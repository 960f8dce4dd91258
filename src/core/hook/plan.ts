/**
 * The hook stamp: from a pane's options as read, one event's action and
 * payload, and the event's evidence time, to the option writes that publish
 * it and the one condition under which they may commit (D8, D30, D42-D47,
 * P1-P16, P27-P29). Pure: the caller reads the pane, supplies both clocks,
 * and writes through the guarded writer, retrying on a lost compare-and-swap.
 *
 * ```ts
 * import { planHookEvent } from "./plan.ts";
 * const plan = planHookEvent({
 *   agent: "claude",
 *   options: {},
 *   action: { kind: "claim", entry: { event: "Stop", claim: { state: "idle" }, turn_end: true } },
 *   payload: { raw: "{}", fields: {}, sessionId: null },
 *   evidenceAtMs: 1_700_000_000_000,
 *   stampedAtMs: 1_700_000_000_050,
 * });
 * plan.kind; // "write"
 * ```
 * @module
 */
import type { HookMapEntry } from "../manifest/agent_schema.ts";
import { rollup } from "../rollup.ts";
import type { PaneFacts, PaneOptions } from "../snapshot.ts";
import { ms, type OptionWrite, readStamp, removalWrites, type Stamp } from "../stamp.ts";
import type { State } from "../state.ts";
import { parseEpochMs } from "../time.ts";
import { acceptsSession } from "../telemetry/session.ts";
import { type HookAction, PERMISSION_ID_FIELDS, QUESTION_ID_FIELDS } from "./mapping.ts";
import {
  formatOrderKey,
  type HookOrder,
  ORDER_WINDOW_MS,
  type OrderKey,
  orderKeyOf,
  orderPatterns,
  relationTo,
} from "./order.ts";
import { type HookPayload, stringField } from "./payload.ts";
import { addSubagent, mayWriteState, removeSubagent } from "./subagents.ts";

/**
 * The condition a plan commits under: option `option` still reads `value`
 * (absent and empty are the same), and, with `hookAtMost`, no hook claim
 * newer than that evidence time has landed (`@tma_hook_at` is at most it).
 * Registration and removal guard on `@agent_stamped_at` as read, the
 * compare-and-swap of P2; bookkeeping writes guard on their own option, so
 * they never race a stamp they do not touch.
 *
 * A state claim guards on the agent name and `hookAtMost` instead: the write
 * itself decides, server side, that this is the newest hook claim, so the
 * newest event commits at its first write however many older writers are
 * busy on the pane (R12, D47), and an older one that comes second is
 * refused. What the claim derives from the state it replaces
 * (`@agent_since`) is a server-side format for the same reason.
 */
export interface HookGuard {
  option: string;
  value: string;
  hookAtMost?: number;
  /**
   * With `hookAtMost`, the phase order of the event's turn (`order.ts`): a
   * stored claim whose `@tma_hook_order` matches one of `earlier` yields to
   * this one although up to `windowMs` newer, and one matching `later`
   * holds against it although up to `windowMs` older.
   */
  order?: { earlier: string[]; later: string[]; windowMs: number };
}

/** Writes to commit under one guard. */
export interface HookWritePlan {
  kind: "write";
  guard: HookGuard;
  writes: OptionWrite[];
  /** The pane's state once the writes commit (null when deregistered), for its window rollup. */
  stateAfter: State | null;
  /** Whether `mintRequestId` is among the writes (the Claude hold may start). */
  minted: boolean;
  reason: string;
}

/** A plan that writes nothing, and why (for the debug log). */
export interface HookSkip {
  kind: "skip";
  reason: string;
}

/** What `planHookEvent` decides. */
export type HookPlan = HookWritePlan | HookSkip;

/** Everything one event's plan reads. */
export interface HookPlanInput {
  /** The agent (manifest) name the event came from. */
  agent: string;
  /** The pane's options as read. */
  options: PaneOptions;
  action: HookAction;
  payload: HookPayload;
  /** When the event happened: the hook process's clock at its start (D22, D47). */
  evidenceAtMs: number;
  /** The manifest's `[hooks.order]`, for entries with a `phase`. */
  order?: HookOrder;
  /** The clock now, written as `@agent_stamped_at` (P10). */
  stampedAtMs: number;
  /**
   * A request id to stamp onto `@agent_permission_request` with a blocked
   * claim: the id the Claude `PermissionRequest` hold answers to (A25).
   */
  mintRequestId?: string;
}

/**
 * Plans one event. The action decides the shape:
 *
 * - `subagent`: add or remove the firing session in `@agent_subagents` (D46);
 * - `clear-request`: clear a pending request id (OpenCode's replied edges);
 * - a lifecycle `start` claim: register (D8, D30);
 * - a lifecycle `end` claim: remove every `@agent_*` option (D8);
 * - a state claim: stamp state, detail, provenance, times and attention.
 *
 * Claims honour the subagent guard (D46) and hook-vs-hook arbitration (D47).
 */
export function planHookEvent(input: HookPlanInput): HookPlan {
  const { options, action, payload } = input;
  if (options["@agent_ignore"]) return skip("the pane is ignored (@agent_ignore, D38)");
  const prior = readStamp(options);
  switch (action.kind) {
    case "subagent":
      return planSubagent(prior, { op: action.op, session: payload.sessionId, raw: options });
    case "clear-request":
      return planClearRequest(input, action);
    case "claim": {
      if (!mayWriteState(prior, payload.sessionId)) {
        return skip("a subagent is live and the event is not the pane's own session (D46)");
      }
      const claim = action.entry.claim;
      if ("lifecycle" in claim) {
        return claim.lifecycle === "start"
          ? planRegistration(input, prior)
          : planDeregistration(input, prior);
      }
      return planStateClaim(input, { prior, entry: action.entry });
    }
  }
}

function skip(reason: string): HookSkip {
  return { kind: "skip", reason };
}

/**
 * The skip when a hook claim in the store holds against this event, else
 * null. D47: a strictly newer hook claim in the store wins. Newer
 * by the time of the last hook EVENT (`@tma_hook_at`), not by
 * `@agent_evidence_at`: a capture that confirms a hook claim advances the
 * latter to the capture time (D22), and must not make a Stop fired a moment
 * earlier, but processed later, look stale.
 *
 * With an order key, phase order overrules close times both ways, exactly
 * as the write's guard does server side (`HookGuard.order`).
 */
function holdingClaim(
  options: PaneOptions,
  prior: Stamp,
  event: { evidenceAtMs: number; key?: OrderKey | null },
): HookSkip | null {
  const hookAt = parseEpochMs(options[HOOK_AT]) ??
    (prior.source === "hook" ? prior.evidenceAt : null);
  if (hookAt === null) return null;
  const { evidenceAtMs, key } = event;
  const relation = key ? relationTo(options[HOOK_ORDER], key) : null;
  if (relation === "earlier" && hookAt <= evidenceAtMs + ORDER_WINDOW_MS) return null;
  if (relation === "later" && hookAt >= evidenceAtMs - ORDER_WINDOW_MS) {
    return skip("a later phase of this turn holds the pane (D47)");
  }
  return hookAt > evidenceAtMs ? skip("a newer hook claim holds the pane (D47)") : null;
}

/** The time of the last hook event that stamped the pane's state. */
const HOOK_AT = "@tma_hook_at";

/** The phase order key of that event (`order.ts`), when it had one. */
const HOOK_ORDER = "@tma_hook_order";

/**
 * `@agent_since` as the server expands it: kept while the pane already reads
 * `state` (and has a since), else this claim's evidence time.
 */
function sinceFormat(state: State, evidence: string): string {
  return `#{?#{&&:#{==:#{@agent_state},${state}},#{@agent_since}},#{@agent_since},${evidence}}`;
}

/** The stamp-time guard: `@agent_stamped_at` unchanged since the read. */
function stampGuard(options: PaneOptions): HookGuard {
  return { option: "@agent_stamped_at", value: options["@agent_stamped_at"] ?? "" };
}

/**
 * A stamp time distinct from the one read, so the compare-and-swap of a
 * writer that read the old value cannot pass against ours by coincidence.
 */
function stampTime(prior: Stamp, stampedAtMs: number): string {
  return ms(
    prior.stampedAt !== null && stampedAtMs === prior.stampedAt ? stampedAtMs + 1 : stampedAtMs,
  );
}

/**
 * Collects writes by name: a later write of a name replaces an earlier one,
 * and writes that leave an option as it reads are dropped.
 */
class WriteSet {
  #writes = new Map<string, { value: string | null; format?: boolean; expected?: string | null }>();
  /**
   * `keepAll`: write every value even where it equals the one read. A state
   * claim commits without a compare-and-swap, so another writer may have
   * changed what it read; dropping "unchanged" writes would then keep that
   * writer's values.
   */
  constructor(private readonly options: PaneOptions, private readonly keepAll = false) {}

  set(name: string, value: string | null): void {
    this.#writes.set(name, { value });
  }

  /** A write whose value is a tmux format, expanded server side (always kept). */
  setFormat(name: string, format: string, expected: string | null): void {
    this.#writes.set(name, { value: format, format: true, expected });
  }

  /** The writes that change something, with `@agent_stamped_at` last (P1). */
  finish(stampedAt: string): OptionWrite[] {
    const out: OptionWrite[] = [];
    for (const [name, { value, format, expected }] of this.#writes) {
      if (format) {
        out.push({ name, value, format, expected });
        continue;
      }
      const current = this.options[name as keyof PaneOptions] ?? null;
      if (this.keepAll || (current || null) !== (value || null)) out.push({ name, value });
    }
    out.push({ name: "@agent_stamped_at", value: stampedAt });
    return out;
  }
}

function planSubagent(
  prior: Stamp,
  event: { op: "add" | "remove"; session: string | null; raw: PaneOptions },
): HookPlan {
  if (event.session === null) return skip("a subagent event without a session_id");
  const next = event.op === "add"
    ? addSubagent(prior.subagents, event.session)
    : removeSubagent(prior.subagents, event.session);
  if (next.join(" ") === prior.subagents.join(" ")) return skip("subagent list unchanged");
  return {
    kind: "write",
    guard: { option: "@agent_subagents", value: event.raw["@agent_subagents"] ?? "" },
    writes: [{ name: "@agent_subagents", value: next.length === 0 ? null : next.join(" ") }],
    stateAfter: prior.state,
    minted: false,
    reason: `subagent ${event.op} ${event.session}`,
  };
}

function planClearRequest(
  input: HookPlanInput,
  action: Extract<HookAction, { kind: "clear-request" }>,
): HookPlan {
  const current = input.options[action.option];
  if (!current) return skip(`no ${action.option} to clear`);
  if (!acceptsSession(input.options["@agent_session"], input.payload.sessionId ?? undefined)) {
    return skip("another session's reply (D44)");
  }
  const id = stringField(input.payload.fields, action.idFields);
  if (id !== null && id !== current) {
    return skip(`the reply is for ${id}, not the pending ${current}`);
  }
  return {
    kind: "write",
    guard: { option: action.option, value: current },
    writes: [{ name: action.option, value: null }],
    stateAfter: readStamp(input.options).state,
    minted: false,
    reason: `cleared ${action.option}`,
  };
}

/**
 * The base of a stamp: when another agent's options are on the pane, they
 * are cleared first, since a registration or claim of this agent replaces
 * that agent's record rather than amending it.
 */
function baseWrites(
  input: HookPlanInput,
  prior: Stamp,
  keepAll = false,
): { set: WriteSet; prior: Stamp } {
  const set = new WriteSet(input.options, keepAll);
  if (prior.agent !== null && prior.agent !== input.agent) {
    for (const write of removalWrites(input.options)) set.set(write.name, null);
    prior = readStamp({});
  }
  set.set("@agent_name", input.agent);
  if (prior.pid === null) set.set("@agent_pid", "0");
  return { set, prior };
}

function planRegistration(input: HookPlanInput, original: Stamp): HookPlan {
  const { payload } = input;
  const { set, prior } = baseWrites(input, original);
  const session = payload.sessionId;
  if (session !== null) {
    set.set("@agent_session", session);
    // The old session's subagents are not the new session's.
    if (prior.session !== session && prior.subagents.length > 0) set.set("@agent_subagents", null);
  }
  const model = stringField(payload.fields, ["model"]);
  if (model !== null) set.set("@agent_model", model);
  // tma's OpenCode plugin sends `api_endpoint`; the other spellings are PluginInput's.
  const endpoint = stringField(payload.fields, ["api_endpoint", "serverUrl", "server_url"]);
  if (endpoint !== null) set.set("@agent_api_endpoint", endpoint);
  let stateAfter = prior.state;
  if (prior.state === null) {
    stateAfter = "idle";
    set.set("@agent_state", "idle");
    set.set("@agent_detail", null);
    set.set("@agent_source", "hook");
    set.set("@agent_evidence_at", ms(input.evidenceAtMs));
    set.set("@agent_since", ms(input.evidenceAtMs));
    set.set(HOOK_AT, ms(input.evidenceAtMs));
  }
  return {
    kind: "write",
    guard: stampGuard(input.options),
    writes: set.finish(stampTime(original, input.stampedAtMs)),
    stateAfter,
    minted: false,
    reason: prior.state === null ? "registered: idle" : `registered: keeps ${prior.state}`,
  };
}

function planDeregistration(input: HookPlanInput, prior: Stamp): HookPlan {
  const held = holdingClaim(input.options, prior, input);
  if (held !== null) return held;
  const session = input.payload.sessionId;
  if (session !== null && prior.session !== null && session !== prior.session) {
    return skip("the end of another session");
  }
  const writes = removalWrites(input.options);
  if (writes.length === 0) return skip("already deregistered");
  return {
    kind: "write",
    guard: stampGuard(input.options),
    writes,
    stateAfter: null,
    minted: false,
    reason: "deregistered",
  };
}

function planStateClaim(
  input: HookPlanInput,
  context: { prior: Stamp; entry: HookMapEntry },
): HookPlan {
  const claim = context.entry.claim as { state: State; detail?: string };
  const key = orderKeyOf({
    order: input.order,
    phase: context.entry.phase,
    fields: input.payload.fields,
  });
  const held = holdingClaim(input.options, context.prior, {
    evidenceAtMs: input.evidenceAtMs,
    key,
  });
  if (held !== null) return held;
  const { set, prior } = baseWrites(input, context.prior, true);
  const evidence = ms(input.evidenceAtMs);
  if (key === null) {
    set.set(HOOK_AT, evidence);
  } else {
    // An event that phase order let past a newer claim keeps that claim's
    // time: the pane has still heard from the agent that late.
    const read = parseEpochMs(input.options[HOOK_AT]) ?? 0;
    set.setFormat(
      HOOK_AT,
      `#{?#{e|>:#{${HOOK_AT}},${evidence}},#{${HOOK_AT}},${evidence}}`,
      ms(Math.max(read, input.evidenceAtMs)),
    );
  }
  set.set(HOOK_ORDER, key === null ? null : formatOrderKey(key));
  if (prior !== context.prior) {
    set.set("@agent_since", evidence); // another agent's record was cleared
  } else {
    // Decided when the write runs, by the state it actually replaces.
    const kept = input.options["@agent_state"] === claim.state
      ? input.options["@agent_since"] || null
      : null;
    set.setFormat("@agent_since", sinceFormat(claim.state, evidence), kept ?? evidence);
  }
  set.set("@agent_state", claim.state);
  set.set("@agent_detail", claim.detail ?? null);
  set.set("@agent_source", "hook");
  set.set("@agent_evidence_at", evidence);

  const enteringBlocked = claim.state === "blocked" && prior.state !== "blocked";
  const completed = prior.state === "working" && claim.state === "idle";
  if (context.entry.turn_end && !prior.attention) {
    // D45: one turn reported on two channels raises one mark.
    set.set("@agent_attention", "1");
    set.set("@agent_turn_at", evidence);
  } else if (enteringBlocked || completed) {
    set.set("@agent_attention", "1");
  }

  let minted = false;
  if (claim.state === "working" || claim.state === "idle") {
    // The prompt a request id named is gone once the agent moves on (P27, P28).
    set.set("@agent_permission_request", null);
    set.set("@agent_question_request", null);
  } else if (acceptsSession(prior.session ?? undefined, input.payload.sessionId ?? undefined)) {
    const permission = stringField(input.payload.fields, PERMISSION_ID_FIELDS);
    if (permission !== null) set.set("@agent_permission_request", permission);
    const question = stringField(input.payload.fields, QUESTION_ID_FIELDS);
    if (question !== null) set.set("@agent_question_request", question);
    if (input.mintRequestId !== undefined) {
      set.set("@agent_permission_request", input.mintRequestId);
      minted = true;
    }
  }
  return {
    kind: "write",
    guard: {
      option: "@agent_name",
      value: input.options["@agent_name"] ?? "",
      hookAtMost: input.evidenceAtMs,
      ...(key === null ? {} : { order: { ...orderPatterns(key), windowMs: ORDER_WINDOW_MS } }),
    },
    writes: set.finish(stampTime(context.prior, input.stampedAtMs)),
    stateAfter: claim.state,
    minted,
    reason: `${prior.state ?? "none"} -> ${claim.state}${claim.detail ? `/${claim.detail}` : ""}`,
  };
}

/**
 * The window rollup write for `paneId` once its state is `stateAfter` (D56),
 * or null when the rollup would not change. Members are the panes of the
 * same window carrying a state.
 *
 * ```ts
 * import type { PaneFacts } from "../snapshot.ts";
 * declare const panes: PaneFacts[]; // %1 and a working %2 share a window
 * windowRollupWrite(panes, { paneId: "%1", stateAfter: "blocked" });
 * // { name: "@agent_summary", value: "blocked:1 working:1", scope: "window" }
 * ```
 */
export function windowRollupWrite(
  panes: readonly PaneFacts[],
  target: { paneId: string; stateAfter: State | null },
): OptionWrite | null {
  const pane = panes.find((p) => p.paneId === target.paneId);
  if (!pane) return null;
  const states: State[] = [];
  for (const member of panes) {
    if (member.windowId !== pane.windowId) continue;
    const state = member.paneId === pane.paneId
      ? target.stateAfter
      : readStamp(member.options).state;
    if (state !== null) states.push(state);
  }
  const value = rollup(states);
  if (value === (pane.rollups["@agent_summary"] ?? "")) return null;
  return { name: "@agent_summary", value: value === "" ? null : value, scope: "window" };
}

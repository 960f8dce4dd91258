/**
 * The broker's gate: identity, `requires`, `when` and the API lane's
 * preconditions, checked in that order against one view of the pane (A11,
 * A17, A29, A34, M34, M36). Pure; the broker calls it once before the lock
 * and once under it.
 *
 * ```ts
 * import type { ParsedActionManifest } from "../manifest/parse.ts";
 * import type { PaneView } from "./view.ts";
 * declare const action: ParsedActionManifest;
 * declare const view: PaneView;
 * const verdict = checkGate(action, { view, force: false, hasContext: true, endpoint: null });
 * verdict.ok || verdict.refusal.reason; // "gated"
 * ```
 * @module
 */
import type { ParsedActionManifest } from "../manifest/parse.ts";
import type { Reason } from "./outcome.ts";
import { appliesTo, type Transport, transportFor } from "./transport.ts";
import type { PaneView } from "./view.ts";

/** Why the gate refused, in words a user can act on. */
export interface Refusal {
  reason: Reason;
  message: string;
}

/** What the gate reads besides the action and the view. */
export interface GateContext {
  /** `--force`: skip `when` only (A17). */
  force: boolean;
  /** The agent's manifest declares `[telemetry.context]` (A34). */
  hasContext: boolean;
  /** The API endpoint that resolves for the pane (A29), or null. */
  endpoint: string | null;
}

/** One view of the pane with what the gate reads besides it. */
export interface GateInput extends GateContext {
  view: PaneView;
}

/** The gate's verdict: a refusal, or the transport the action goes out on. */
export type GateVerdict =
  | { ok: false; refusal: Refusal }
  | { ok: true; transport: Transport };

function refuse(reason: Reason, message: string): GateVerdict {
  return { ok: false, refusal: { reason, message } };
}

/**
 * Checks one action against one view: identity (`wrong-agent`), `requires`
 * (`requires-unmet`), `when` (`no-coverage`, then `gated`; skipped by
 * `--force`) and, for an API op, the request id and endpoint
 * (`requires-unmet`, A29).
 */
export function checkGate(action: ParsedActionManifest, input: GateInput): GateVerdict {
  const { view, ...context } = input;
  const where = `pane ${view.pane}`;
  if (view.agent === null) return refuse("wrong-agent", `${where} holds no agent`);
  if (!appliesTo(action, view.agent)) {
    return refuse("wrong-agent", `${action.name} does not cover ${view.agent} (${where})`);
  }
  for (const token of action.requires) {
    const value = requiredValue(view, token);
    if (value === null) {
      return refuse("requires-unmet", `${action.name} requires ${token}, which ${where} lacks`);
    }
  }
  if (!context.force) {
    const refusal = checkWhen(action, { view, hasContext: context.hasContext });
    if (refusal) return { ok: false, refusal };
  }
  const transport = transportFor(action, {
    agent: view.agent,
    permissionRequest: view.permissionRequest,
  });
  if (transport === null) {
    return refuse("wrong-agent", `${action.name} does not cover ${view.agent} (${where})`);
  }
  if (transport.kind === "api") {
    const isQuestion = transport.op.op !== "permission-reply";
    const id = isQuestion ? view.questionRequest : view.permissionRequest;
    const option = isQuestion ? "@agent_question_request" : "@agent_permission_request";
    if (id === null) {
      return refuse("requires-unmet", `${where} has no pending request (${option} is empty)`);
    }
    if (context.endpoint === null) {
      return refuse(
        "requires-unmet",
        `${where} has no API endpoint: @agent_api_endpoint is empty and config.toml has no ` +
          `[api.${view.agent}] api_base`,
      );
    }
  }
  return { ok: true, transport };
}

function requiredValue(view: PaneView, token: string): string | null {
  switch (token) {
    case "session":
      return view.session;
    case "cwd":
      return view.cwd;
    case "pid":
      return view.pid === null ? null : String(view.pid);
    case "title":
      return view.title;
    default:
      return null;
  }
}

/** The `when` gate: every present key must hold; context bounds fail closed (M34). */
export function checkWhen(
  action: ParsedActionManifest,
  input: { view: PaneView; hasContext: boolean },
): Refusal | null {
  const { view, hasContext } = input;
  const when = action.when;
  if (!when) return null;
  const where = `pane ${view.pane}`;
  const bounded = when.context_pct_min !== undefined || when.context_pct_max !== undefined;
  if (bounded && !hasContext) {
    return {
      reason: "no-coverage",
      message: `${action.name} gates on context and ${view.agent} reports none`,
    };
  }
  if (when.state && (view.state === null || !when.state.includes(view.state))) {
    return {
      reason: "gated",
      message: `${where} is ${view.state ?? "unstamped"}; ${action.name} needs ${
        when.state.join(" or ")
      }`,
    };
  }
  if (when.detail && (view.detail === null || !when.detail.includes(view.detail))) {
    return {
      reason: "gated",
      message: `${where} has detail ${view.detail ?? "(none)"}; ${action.name} needs ${
        when.detail.join(" or ")
      }`,
    };
  }
  if (bounded) {
    if (view.contextPct === null) {
      return { reason: "gated", message: `${where} has no context reading yet` };
    }
    if (when.context_pct_min !== undefined && view.contextPct < when.context_pct_min) {
      return {
        reason: "gated",
        message: `${where} context is ${view.contextPct}%, below ${when.context_pct_min}%`,
      };
    }
    if (when.context_pct_max !== undefined && view.contextPct > when.context_pct_max) {
      return {
        reason: "gated",
        message: `${where} context is ${view.contextPct}%, above ${when.context_pct_max}%`,
      };
    }
  }
  return null;
}

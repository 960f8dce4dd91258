/**
 * Which way an action reaches one agent: a key sequence, a text delivery,
 * Claude's hook reply lane, an OpenCode API operation, or a process
 * (A19-A30). Pure: decided from the action manifest, the agent and the pane's
 * request ids.
 *
 * ```ts
 * import type { ParsedActionManifest } from "../manifest/parse.ts";
 * declare const approve: ParsedActionManifest;
 * transportFor(approve, { agent: "codex" }); // { kind: "keys", keys: ["y"] }
 * transportFor(approve, { agent: "opencode" });
 * // { kind: "api", op: { op: "permission-reply", reply: "once" } }
 * ```
 * @module
 */
import type { Verdict } from "../hook/decision.ts";
import type { ApiOp } from "../manifest/action_schema.ts";
import type { ParsedActionManifest } from "../manifest/parse.ts";

/** The Claude hook lane's two verdicts (A25). */
export type HookVerdict = Verdict;

/** How an action reaches one agent. */
export type Transport =
  | { kind: "keys"; keys: readonly string[] }
  | { kind: "text"; sequence: readonly string[] }
  | { kind: "api"; op: ApiOp }
  | { kind: "hook-lane"; verdict: HookVerdict; requestId: string; keys: readonly string[] }
  | { kind: "exec"; command: string };

/** The agents an action applies to: empty means every agent (exec only) (M35, P69). */
export function applicableAgents(action: ParsedActionManifest): string[] {
  if (action.kind === "exec") return [...action.agents];
  return [...Object.keys(action.keys), ...Object.keys(action.api)];
}

/** Whether an action applies to an agent (A11 identity). */
export function appliesTo(action: ParsedActionManifest, agent: string): boolean {
  if (action.kind === "exec") return action.agents.length === 0 || action.agents.includes(agent);
  return agent in action.keys || agent in action.api;
}

/**
 * The bundled action names that Claude's hook lane answers (A26), with the
 * verdict each hands over. A user file shadowing `approve` or `deny` keeps
 * the lane, because the lane answers the same request the keys would.
 */
export const HOOK_LANE_VERDICTS: Readonly<Record<string, HookVerdict>> = {
  approve: "allow",
  deny: "deny",
};

/** The agent whose permission hook holds for a verdict (A25). */
export const HOOK_LANE_AGENT = "claude";

/**
 * The transport of an action for an agent, or null when the action does not
 * cover the agent. `permissionRequest` is the pane's
 * `@agent_permission_request`: on a Claude pane it selects the hook lane
 * for approve and deny (A26), with the `[keys]` arm as its fallback.
 */
export function transportFor(
  action: ParsedActionManifest,
  target: { agent: string; permissionRequest?: string | null },
): Transport | null {
  const { agent } = target;
  const permissionRequest = target.permissionRequest ?? null;
  if (!appliesTo(action, agent)) return null;
  if (action.kind === "exec") return { kind: "exec", command: action.command ?? "" };
  const op = action.api[agent];
  if (op) return { kind: "api", op };
  const keys = action.keys[agent];
  if (action.text) return { kind: "text", sequence: keys };
  const verdict = HOOK_LANE_VERDICTS[action.name];
  if (agent === HOOK_LANE_AGENT && verdict && permissionRequest) {
    return { kind: "hook-lane", verdict, requestId: permissionRequest, keys };
  }
  return { kind: "keys", keys };
}

/** A short name of a transport for listings and the audit log. */
export function transportName(transport: Transport): string {
  return transport.kind;
}

/**
 * From an event name and its payload to what the event asks of a pane: a
 * manifest claim (D42), subagent bookkeeping (D46), or the clearing of a
 * pending request id (P27, P28). Events handled by name are looked at first,
 * so no manifest can turn them into state claims.
 *
 * ```ts
 * import { resolveHookAction } from "./mapping.ts";
 * resolveHookAction("SubagentStart", { hooks: undefined, raw: "{}" }); // { kind: "subagent", op: "add" }
 * ```
 * @module
 */
import type { HookMapEntry } from "../manifest/agent_schema.ts";
import type { HookManifest } from "./hook_manifest.ts";

/** The two request options a hook stamps and clears (P27, P28). */
export type RequestOption = "@agent_permission_request" | "@agent_question_request";

/** What one event asks of its pane. */
export type HookAction =
  /** A `[[hooks.map]]` entry matched: a state or lifecycle claim. */
  | { kind: "claim"; entry: HookMapEntry }
  /** `SubagentStart` / `SubagentStop`: add or remove the firing session (D46). */
  | { kind: "subagent"; op: "add" | "remove" }
  /** OpenCode's replied edges: clear a pending request id, claim nothing (I42). */
  | { kind: "clear-request"; option: RequestOption; idFields: readonly string[] };

/** The payload keys a permission request id arrives under (I42: both spellings). */
export const PERMISSION_ID_FIELDS: readonly string[] = ["request_id", "requestID"];

/** The payload keys a question id arrives under. */
export const QUESTION_ID_FIELDS: readonly string[] = ["question_id", "questionID"];

/** Events handled by name, never through a manifest. */
const NAMED: Readonly<Record<string, HookAction>> = {
  SubagentStart: { kind: "subagent", op: "add" },
  SubagentStop: { kind: "subagent", op: "remove" },
  "permission-replied": {
    kind: "clear-request",
    option: "@agent_permission_request",
    idFields: PERMISSION_ID_FIELDS,
  },
  "question-replied": {
    kind: "clear-request",
    option: "@agent_question_request",
    idFields: QUESTION_ID_FIELDS,
  },
};

/**
 * The action of one event: a by-name event, else the first `[[hooks.map]]`
 * entry whose `event` equals `kind` and whose `matcher` (if any) matches
 * somewhere in the raw payload text; null when nothing applies.
 *
 * ```ts
 * import type { HookManifest } from "./hook_manifest.ts";
 * const hooks: HookManifest["hooks"] = {
 *   covers: ["idle"],
 *   map: [{ event: "Stop", claim: { state: "idle" }, turn_end: true }],
 * };
 * resolveHookAction("Stop", { hooks, raw: "{}" })?.kind; // "claim"
 * resolveHookAction("Nope", { hooks, raw: "{}" }); // null
 * ```
 */
export function resolveHookAction(
  kind: string,
  context: { hooks: HookManifest["hooks"]; raw: string },
): HookAction | null {
  if (Object.hasOwn(NAMED, kind)) return NAMED[kind];
  const entry = context.hooks?.map.find((e) =>
    e.event === kind && (e.matcher === undefined || e.matcher.re.test(context.raw))
  );
  return entry ? { kind: "claim", entry } : null;
}

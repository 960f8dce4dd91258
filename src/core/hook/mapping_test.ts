import { assertEquals } from "../../../tests/harness/assert.ts";
import { BUNDLED_AGENTS } from "../../assets/bundled.ts";
import { readHookManifest } from "./hook_manifest.ts";
import { resolveHookAction } from "./mapping.ts";

const claude = readHookManifest(BUNDLED_AGENTS.claude, { path: "claude", stem: "claude" });

function claimOf(kind: string, raw: string) {
  const action = resolveHookAction(kind, { hooks: claude.hooks, raw });
  return action?.kind === "claim" ? action.entry.claim : action;
}

Deno.test("resolveHookAction() D42: an event maps through the first matching [[hooks.map]] entry", () => {
  assertEquals(claimOf("PermissionRequest", "{}"), { state: "blocked", detail: "permission" });
  assertEquals(claimOf("SessionStart", "{}"), { lifecycle: "start" });
});

Deno.test("resolveHookAction() D42: a matcher runs over the whole raw payload", () => {
  const prompt = '{"hook_event_name":"Notification","notification_type":"permission_prompt"}';
  assertEquals(claimOf("Notification", prompt), { state: "blocked", detail: "permission" });
  const inMessage = '{"message":"elicitation_dialog shown"}';
  assertEquals(claimOf("Notification", inMessage), { state: "blocked", detail: "permission" });
});

Deno.test("resolveHookAction() D42: an unmatched or unmapped event is a no-op", () => {
  assertEquals(claimOf("Notification", '{"notification_type":"idle_prompt"}'), null);
  assertEquals(claimOf("NoSuchEvent", "{}"), null);
  assertEquals(resolveHookAction("Stop", { hooks: undefined, raw: "{}" }), null);
});

Deno.test("resolveHookAction() D46: subagent events are handled by name, whatever the manifest says", () => {
  const hooks = {
    covers: ["working" as const],
    map: [{
      event: "SubagentStart",
      claim: { state: "working" as const, detail: undefined },
      turn_end: false,
    }],
  };
  assertEquals(resolveHookAction("SubagentStart", { hooks, raw: "{}" }), {
    kind: "subagent",
    op: "add",
  });
  assertEquals(resolveHookAction("SubagentStop", { hooks, raw: "{}" }), {
    kind: "subagent",
    op: "remove",
  });
});

Deno.test("resolveHookAction() I42: OpenCode's replied edges only clear their request ids", () => {
  assertEquals(
    resolveHookAction("permission-replied", { hooks: undefined, raw: "{}" })?.kind,
    "clear-request",
  );
  const q = resolveHookAction("question-replied", { hooks: undefined, raw: "{}" });
  assertEquals(q?.kind === "clear-request" ? q.option : null, "@agent_question_request");
});

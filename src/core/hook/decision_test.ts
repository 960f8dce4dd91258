import { assertEquals } from "../../../tests/harness/assert.ts";
import { decisionObject, readVerdict, verdictToken } from "./decision.ts";

Deno.test("decisionObject() A25: is Claude's allow object, verbatim", () => {
  assertEquals(
    decisionObject("allow"),
    '{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow"}}}',
  );
});

Deno.test("decisionObject() A25: denies with a short message", () => {
  const parsed = JSON.parse(decisionObject("deny"));
  assertEquals(parsed.hookSpecificOutput.hookEventName, "PermissionRequest");
  assertEquals(parsed.hookSpecificOutput.decision.behavior, "deny");
  assertEquals(typeof parsed.hookSpecificOutput.decision.message, "string");
});

Deno.test("readVerdict() reads only a verdict addressed to the request", () => {
  assertEquals(readVerdict(verdictToken("tma_1", "allow"), "tma_1"), "allow");
  assertEquals(readVerdict(verdictToken("tma_1", "deny"), "tma_1"), "deny");
  assertEquals(readVerdict(verdictToken("tma_2", "allow"), "tma_1"), null);
  assertEquals(readVerdict("tma_1:maybe", "tma_1"), null);
  assertEquals(readVerdict("", "tma_1"), null);
});

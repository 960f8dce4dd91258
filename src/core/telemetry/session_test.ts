import { assertStrictEquals } from "../../../tests/harness/assert.ts";
import { acceptsAgent, acceptsSession } from "./session.ts";

Deno.test("acceptsSession() D44: a payload from the pane's own session is accepted", () => {
  assertStrictEquals(acceptsSession("sess-a", "sess-a"), true);
});

Deno.test("acceptsSession() D44: a payload from another session (a subagent) is ignored", () => {
  assertStrictEquals(acceptsSession("sess-a", "sess-sub"), false);
});

Deno.test("acceptsSession() D44: a payload without a session id is accepted", () => {
  assertStrictEquals(acceptsSession("sess-a", undefined), true);
  assertStrictEquals(acceptsSession("sess-a", ""), true);
});

Deno.test("acceptsSession() D44: a pane with no registered session accepts any payload", () => {
  assertStrictEquals(acceptsSession(undefined, "sess-sub"), true);
  assertStrictEquals(acceptsSession("", "sess-sub"), true);
  assertStrictEquals(acceptsSession(undefined, undefined), true);
});

Deno.test("acceptsAgent() D46: another agent's payload is ignored; an unregistered pane takes any", () => {
  assertStrictEquals(acceptsAgent("claude", "claude"), true);
  assertStrictEquals(acceptsAgent("claude", "pi"), false);
  assertStrictEquals(acceptsAgent(undefined, "pi"), true);
  assertStrictEquals(acceptsAgent("", "pi"), true);
});

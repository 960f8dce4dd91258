import { strictEqual } from "node:assert/strict";
import { acceptsSession } from "./session.ts";

Deno.test("D44: a payload from the pane's own session is accepted", () => {
  strictEqual(acceptsSession("sess-a", "sess-a"), true);
});

Deno.test("D44: a payload from another session (a subagent) is ignored", () => {
  strictEqual(acceptsSession("sess-a", "sess-sub"), false);
});

Deno.test("D44: a payload without a session id is accepted", () => {
  strictEqual(acceptsSession("sess-a", undefined), true);
  strictEqual(acceptsSession("sess-a", ""), true);
});

Deno.test("D44: a pane with no registered session accepts any payload", () => {
  strictEqual(acceptsSession(undefined, "sess-sub"), true);
  strictEqual(acceptsSession("", "sess-sub"), true);
  strictEqual(acceptsSession(undefined, undefined), true);
});

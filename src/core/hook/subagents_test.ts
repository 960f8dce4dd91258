import { assertEquals } from "../../../tests/harness/assert.ts";
import { addSubagent, mayWriteState, removeSubagent } from "./subagents.ts";

Deno.test("addSubagent() R3: appends a new id once", () => {
  assertEquals(addSubagent([], "sub-1"), ["sub-1"]);
  assertEquals(addSubagent(["sub-1"], "sub-2"), ["sub-1", "sub-2"]);
  assertEquals(addSubagent(["sub-1"], "sub-1"), ["sub-1"]);
});

Deno.test("removeSubagent() R3: removes the id and nothing else", () => {
  assertEquals(removeSubagent(["sub-1", "sub-2"], "sub-1"), ["sub-2"]);
  assertEquals(removeSubagent(["sub-1"], "sub-9"), ["sub-1"]);
  assertEquals(removeSubagent([], "sub-1"), []);
});

Deno.test("subagents R3: a foreign session cannot write state while a subagent is live", () => {
  assertEquals(mayWriteState({ session: "main", subagents: ["sub-1"] }, "sub-1"), false);
  assertEquals(mayWriteState({ session: "main", subagents: ["sub-1"] }, "other"), false);
});

Deno.test("subagents R3: the owner session is honoured while a subagent is live", () => {
  assertEquals(mayWriteState({ session: "main", subagents: ["sub-1"] }, "main"), true);
});

Deno.test("subagents R3: unattributable events are ignored while a subagent is live", () => {
  assertEquals(mayWriteState({ session: "main", subagents: ["sub-1"] }, null), false);
  // An unowned pane (no registered session) cannot attribute anything.
  assertEquals(mayWriteState({ session: null, subagents: ["sub-1"] }, "main"), false);
});

Deno.test("subagents R3: with no live subagent every event may write state", () => {
  assertEquals(mayWriteState({ session: "main", subagents: [] }, "other"), true);
  assertEquals(mayWriteState({ session: null, subagents: [] }, null), true);
});

import { assertEquals } from "../../../tests/harness/assert.ts";
import { departedScope } from "./attention.ts";

Deno.test("D57: departedScope() finds the departed pane by hook kind", () => {
  assertEquals(departedScope("after-select-pane"), "window");
  assertEquals(departedScope("session-window-changed"), "session");
  assertEquals(departedScope(undefined), "none");
  assertEquals(departedScope("something-new"), "none");
});

Deno.test("D57: a session switch clears nothing", () => {
  assertEquals(departedScope("client-session-changed"), "skip");
});

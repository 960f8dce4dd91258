import { assertEquals } from "../../../tests/harness/assert.ts";
import { departedScope } from "./attention.ts";

Deno.test("departedScope() D57: finds the departed pane by hook kind", () => {
  assertEquals(departedScope("after-select-pane"), "window");
  assertEquals(departedScope("session-window-changed"), "session");
  assertEquals(departedScope(undefined), "none");
  assertEquals(departedScope("something-new"), "none");
});

Deno.test("departedScope() D57: a session switch clears nothing", () => {
  assertEquals(departedScope("client-session-changed"), "skip");
});

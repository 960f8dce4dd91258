import { assertEquals } from "../../tests/harness/assert.ts";
import { CURSOR_EVENTS } from "./agents.ts";
import { inspectCursorHooks, installCursorHooks, uninstallCursorHooks } from "./cursor_hooks.ts";

const wiring = { agent: "cursor", events: CURSOR_EVENTS, wrapperRef: "/b/tma-hook" };

Deno.test("installCursorHooks() I51: Cursor's own shape, with version 1, and the user's hooks kept", () => {
  const user =
    '{\n  "version": 1,\n  "hooks": {\n    "stop": [\n      { "command": "./audit.sh" }\n    ]\n  }\n}\n';
  const out = installCursorHooks(user, "h.json", wiring);
  const doc = JSON.parse(out);
  assertEquals(doc.version, 1);
  assertEquals(doc.hooks.stop, [{ command: "./audit.sh" }, { command: "/b/tma-hook cursor stop" }]);
  assertEquals(doc.hooks.sessionStart, [{ command: "/b/tma-hook cursor sessionStart" }]);
  assertEquals(installCursorHooks(out, "h.json", wiring), out);
  assertEquals(uninstallCursorHooks(out, "h.json", "cursor"), user);
  assertEquals(inspectCursorHooks(out, "h.json", wiring).current.length, CURSOR_EVENTS.length);
});

Deno.test("installCursorHooks() I51: a version key tma added is removed when it is left alone", () => {
  const out = installCursorHooks("{}\n", "h.json", wiring);
  assertEquals(Object.keys(JSON.parse(out)), ["version", "hooks"]);
  assertEquals(uninstallCursorHooks(out, "h.json", "cursor"), "{}\n");
  // Beside other keys, `version` is no longer alone, so it stays.
  const withOther = installCursorHooks('{\n  "other": true\n}\n', "h.json", wiring);
  assertEquals(
    uninstallCursorHooks(withOther, "h.json", "cursor"),
    '{\n  "other": true,\n  "version": 1\n}\n',
  );
});

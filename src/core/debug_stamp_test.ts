import { assertEquals, assertThrows } from "../../tests/harness/assert.ts";
import { debugStampWrites } from "./debug_stamp.ts";
import type { PaneFacts } from "./snapshot.ts";

function pane(options: PaneFacts["options"]): PaneFacts {
  return { paneId: "%1", options } as PaneFacts;
}

Deno.test("debugStampWrites() C100: the stamp time goes last and never repeats the one read", () => {
  const writes = debugStampWrites(pane({ "@agent_stamped_at": "1785100000000" }), {
    kind: "hold",
    nowMs: 1785100000000,
  });
  assertEquals(writes, [{ name: "@agent_stamped_at", value: "1785100000001" }]);
  const published = debugStampWrites(pane({}), {
    kind: "publish",
    state: "working",
    agent: "codex",
    nowMs: 1785100000000,
  });
  assertEquals(published.at(-1), { name: "@agent_stamped_at", value: "1785100000000" });
  assertEquals(
    Object.fromEntries(published.map((w) => [w.name, w.value])),
    {
      "@agent_name": "codex",
      "@agent_since": "1785100000000",
      "@agent_state": "working",
      "@agent_source": "capture",
      "@agent_evidence_at": "1785100000000",
      "@agent_stamped_at": "1785100000000",
    },
  );
});

Deno.test("debugStampWrites() C100: remove clears every tma option but the user's ignore", () => {
  const writes = debugStampWrites(
    pane({ "@agent_state": "idle", "@tma_hook_at": "1", "@agent_ignore": "1" }),
    { kind: "remove", nowMs: 0 },
  );
  assertEquals(writes.map((w) => [w.name, w.value]), [["@agent_state", null], [
    "@tma_hook_at",
    null,
  ]]);
  assertThrows(() => debugStampWrites(pane({}), { kind: "publish", state: "idle", nowMs: 0 }));
  assertThrows(() => debugStampWrites(pane({}), { kind: "publish", agent: "x", nowMs: 0 }));
});

import { assert, assertEquals } from "../../tests/harness/assert.ts";
import { demotes, demotionHolds, freshHookClaim, HookLiveness } from "./hook_liveness.ts";

const windows = { dwellSecs: 3, hookDecaySecs: 60, blockedDecaySecs: 300 };
const T = 1_785_100_000_000;
const idle = { state: "idle" as const, source: "hook" as const, hookAt: T };

Deno.test("freshHookClaim() U9: a hook's claim within its decay window, by its event time", () => {
  assert(freshHookClaim(idle, { nowMs: T + 59_000, windows }));
  assert(!freshHookClaim(idle, { nowMs: T + 60_000, windows }));
  assert(freshHookClaim({ ...idle, state: "blocked" }, { nowMs: T + 120_000, windows }));
  assert(!freshHookClaim({ ...idle, source: "capture" }, { nowMs: T, windows }), "not a hook's");
});

Deno.test("demotes() U9, G26: hook-registered, outside a fresh claim, demote_edges edges", () => {
  const late = { nowMs: T + 120_000, demoteEdges: 5, windows };
  assert(demotes(idle, { ...late, edges: 5 }));
  assert(!demotes(idle, { ...late, edges: 4 }), "fewer edges");
  assert(!demotes(idle, { ...late, edges: 50, nowMs: T + 1000 }), "inside a fresh claim");
  assert(!demotes({ ...idle, hookAt: null }, { ...late, edges: 50 }), "never hook-registered");
  // A capture that overrode the claim leaves the pane registered: edges still count.
  assert(demotes({ ...idle, source: "capture" }, { ...late, edges: 5 }));
  assert(demotes(idle, { ...late, edges: 2, demoteEdges: 2 }), "the threshold is the config's");
});

Deno.test("HookLiveness U9: demoted until a hook event moves @tma_hook_at; due at the threshold", () => {
  const liveness = new HookLiveness();
  const context = { edges: 0, nowMs: T + 120_000, demoteEdges: 3, windows };
  assertEquals(liveness.judge("%1", { ...context, claim: idle }), {
    unguarded: false,
    resumed: false,
  });
  assert(!liveness.due("%1", { edges: 2, demoteEdges: 3 }));
  assert(liveness.due("%1", { edges: 3, demoteEdges: 3 }), "judged at its quiet edge");
  assertEquals(liveness.judge("%1", { ...context, edges: 3, claim: idle }), {
    unguarded: true,
    resumed: false,
  });
  assertEquals(liveness.marker("%1"), String(T));
  // Demoted it stays, whatever the edge count, while no hook event comes.
  assert(liveness.judge("%1", { ...context, edges: 0, claim: idle }).unguarded);
  assert(liveness.due("%1", { edges: 0, demoteEdges: 3 }));
  // A hook event (a new @tma_hook_at) resumes it, and its edges start again.
  const resumed = { ...idle, hookAt: T + 119_000 };
  assertEquals(liveness.judge("%1", { ...context, edges: 9, claim: resumed }), {
    unguarded: false,
    resumed: true,
  });
  assertEquals(liveness.marker("%1"), null);
  liveness.forget("%1");
  assertEquals(liveness.panes(), []);
});

Deno.test("HookLiveness U9: a restarted daemon takes over a marker that still matches", () => {
  const liveness = new HookLiveness();
  const context = { edges: 0, nowMs: T + 120_000, demoteEdges: 5, windows };
  assert(liveness.judge("%1", { ...context, claim: idle, marker: String(T) }).unguarded);
  assert(!liveness.judge("%2", { ...context, claim: idle, marker: String(T - 1) }).unguarded);
  assert(demotionHolds({ "@tma_demoted": String(T), "@tma_hook_at": String(T) }));
  assert(!demotionHolds({ "@tma_demoted": String(T), "@tma_hook_at": String(T + 1) }));
  assert(!demotionHolds({ "@tma_hook_at": String(T) }));
});

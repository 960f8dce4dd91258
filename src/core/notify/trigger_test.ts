import { assertEquals } from "../../../tests/harness/assert.ts";
import type { PaneOptions } from "../snapshot.ts";
import { contextStep, stateTrigger } from "./trigger.ts";

const T = 1_785_100_000_000;
const blocked: PaneOptions = {
  "@agent_name": "claude",
  "@agent_state": "blocked",
  "@agent_detail": "permission",
  "@agent_since": String(T),
  "@agent_attention": "1",
};

Deno.test("stateTrigger() U18: entering blocked is due once; the marker is now, at least the episode", () => {
  const due = stateTrigger(blocked, { on: ["blocked"], nowMs: T + 400 });
  assertEquals(due?.trigger, "blocked");
  assertEquals(due?.markerMs, T + 400);
  assertEquals(due?.guard, {
    state: "blocked",
    since: String(T),
    turnAt: "",
    attention: false,
    episodeMs: T,
  });
  // A clock behind the episode: the marker is clamped up to it (U23).
  assertEquals(stateTrigger(blocked, { on: ["blocked"], nowMs: T - 50 })?.markerMs, T);
});

Deno.test("stateTrigger() U23: a marker at or past the episode instant is spent", () => {
  assertEquals(
    stateTrigger({ ...blocked, "@agent_notified_at": String(T) }, {
      on: ["blocked"],
      nowMs: T + 9,
    }),
    null,
  );
  assertEquals(
    stateTrigger({ ...blocked, "@agent_notified_at": String(T - 1) }, {
      on: ["blocked"],
      nowMs: T + 9,
    })?.trigger,
    "blocked",
  );
});

Deno.test("stateTrigger() U18 G13: done is idle with attention, and only when [notify] on lists it", () => {
  const done: PaneOptions = {
    "@agent_name": "claude",
    "@agent_state": "idle",
    "@agent_since": String(T),
    "@agent_turn_at": String(T + 10),
    "@agent_attention": "1",
    "@agent_notified_at": String(T - 5000),
  };
  assertEquals(stateTrigger(done, { on: ["blocked"], nowMs: T + 20 }), null);
  const due = stateTrigger(done, { on: ["blocked", "done"], nowMs: T + 20 });
  assertEquals(due?.trigger, "done");
  assertEquals(due?.guard.episodeMs, T + 10);
  assertEquals(due?.guard.attention, true);
  // Plain idle (attention seen) is no completion to announce.
  assertEquals(
    stateTrigger({ ...done, "@agent_attention": undefined }, { on: ["done"], nowMs: T }),
    null,
  );
});

Deno.test("stateTrigger() U23: blocked then done is two episodes, two fires", () => {
  const first = stateTrigger(blocked, { on: ["blocked", "done"], nowMs: T + 100 })!;
  const after: PaneOptions = {
    ...blocked,
    "@agent_state": "idle",
    "@agent_detail": undefined,
    "@agent_since": String(T + 5000),
    "@agent_turn_at": String(T + 5000),
    "@agent_notified_at": String(first.markerMs),
  };
  assertEquals(stateTrigger(after, { on: ["blocked", "done"], nowMs: T + 5100 })?.trigger, "done");
});

Deno.test("stateTrigger(): working, unknown and unstamped panes are never due", () => {
  for (const state of ["working", "unknown"]) {
    assertEquals(
      stateTrigger({ ...blocked, "@agent_state": state }, { on: ["blocked", "done"], nowMs: T }),
      null,
    );
  }
  assertEquals(stateTrigger({}, { on: ["blocked"], nowMs: T }), null);
});

const gauge = (pct: string, extra: PaneOptions = {}): PaneOptions => ({
  "@agent_context_pct": pct,
  "@agent_context_at": String(T),
  ...extra,
});

Deno.test("contextStep() U27: fires once while armed, quiet while high, re-arms below threshold - 10", () => {
  const rule = { threshold: 80 };
  assertEquals(contextStep(gauge("80"), { rule, covered: true }).kind, "fire");
  const fired = { "@agent_context_notified_at": String(T) };
  assertEquals(contextStep(gauge("95", fired), { rule, covered: true }).kind, "none");
  assertEquals(contextStep(gauge("70", fired), { rule, covered: true }).kind, "none");
  assertEquals(contextStep(gauge("69", fired), { rule, covered: true }).kind, "rearm");
  assertEquals(contextStep(gauge("69"), { rule, covered: true }).kind, "none");
});

Deno.test("contextStep() U27: a null reading, a torn pair, no opt-in or no coverage do nothing", () => {
  const rule = { threshold: 80 };
  assertEquals(
    contextStep({ "@agent_context_at": String(T) }, { rule, covered: true }).kind,
    "none",
  );
  assertEquals(contextStep({ "@agent_context_pct": "90" }, { rule, covered: true }).kind, "none");
  assertEquals(contextStep(gauge("90"), { rule: null, covered: true }).kind, "none");
  assertEquals(contextStep(gauge("90"), { rule, covered: false }).kind, "none");
});

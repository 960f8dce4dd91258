import { assertEquals } from "../../tests/harness/assert.ts";
import { fold, type FoldInput, type ScreenClaim } from "./fold.ts";
import type { Identity } from "./identity.ts";
import { readStamp } from "./stamp.ts";
import type { PaneOptions } from "./snapshot.ts";
import type { State } from "./state.ts";

const NOW = 1_800_000_000_000;
const windows = { dwellSecs: 3, hookDecaySecs: 60, blockedDecaySecs: 300 };

const observed: Identity = {
  agent: "claude",
  source: "observed",
  pid: 100,
  foregroundIsAgent: true,
  outOfScope: null,
  ignored: false,
  titleMatchPid: null,
  matched: null,
};

function claim(state: State, detail: string | null = null): ScreenClaim {
  return { state, detail, priority: 50, label: `rule ${state}` };
}

function input(options: PaneOptions, extra: Partial<FoldInput> = {}): FoldInput {
  return {
    prior: readStamp(options),
    identity: observed,
    visible: new Set<State>(["working", "blocked"]),
    screen: { best: null, historyView: null },
    scrolled: false,
    nowMs: NOW,
    windows,
    ...extra,
  };
}

const stamped = (state: State, source: string, evidenceAt: number): PaneOptions => ({
  "@agent_name": "claude",
  "@agent_pid": "100",
  "@agent_state": state,
  "@agent_source": source,
  "@agent_evidence_at": String(evidenceAt),
  "@agent_since": String(evidenceAt),
  "@agent_stamped_at": String(evidenceAt),
});

Deno.test("fold() D10: first sight with no matching rule publishes unknown", () => {
  const v = fold(input({}));
  assertEquals([v.action, v.state, v.source], ["publish", "unknown", "process"]);
});

Deno.test("fold() D16: blocker chrome wins its slot and raises attention on entry (D4)", () => {
  const v = fold(input(stamped("working", "capture", NOW - 10_000), {
    screen: { best: claim("blocked", "permission"), historyView: null },
  }));
  assertEquals([v.action, v.state, v.detail, v.setAttention], [
    "publish",
    "blocked",
    "permission",
    true,
  ]);
});

Deno.test("fold() D20: blocker chrome beats an older working hook claim at once", () => {
  const v = fold(input(stamped("working", "hook", NOW - 500), {
    screen: { best: claim("blocked", "permission"), historyView: null },
  }));
  assertEquals([v.state, v.source], ["blocked", "capture"]);
});

Deno.test("fold() D20: a hook claim newer than the capture keeps blocker chrome out", () => {
  const v = fold(input(stamped("working", "hook", NOW + 5), {
    screen: { best: claim("blocked", "permission"), historyView: null },
  }));
  assertEquals(v.action, "hold");
});

Deno.test("fold() D18: a fresh hook claim outranks contrary working chrome", () => {
  const v = fold(input(stamped("idle", "hook", NOW - 10_000), {
    screen: { best: claim("working"), historyView: null },
  }));
  assertEquals([v.action, v.state], ["hold", "idle"]);
});

Deno.test("fold() D17/D18: a decayed hook claim yields to contrary chrome only for a visible state", () => {
  const oldIdle = stamped("idle", "hook", NOW - 61_000);
  const workingChrome = { best: claim("working"), historyView: null };
  // idle is not in visible for most agents: working chrome (which co-renders
  // with the composer) cannot decay a legitimate idle hook claim.
  assertEquals(fold(input(oldIdle, { screen: workingChrome })).action, "hold");
  // claude lists idle as visible, so there it can.
  const v = fold(input(oldIdle, {
    screen: workingChrome,
    visible: new Set<State>(["working", "idle", "blocked"]),
  }));
  assertEquals([v.action, v.state, v.source], ["publish", "working", "capture"]);
  // A decayed working claim yields to idle chrome, working being visible.
  const done = fold(input(stamped("working", "hook", NOW - 61_000), {
    screen: { best: claim("idle"), historyView: null },
  }));
  assertEquals([done.action, done.state, done.setAttention], ["publish", "idle", true]);
});

Deno.test("fold() D18: silence never expires a hook claim", () => {
  const v = fold(input(stamped("working", "hook", NOW - 3_600_000)));
  assertEquals(v.action, "hold");
});

Deno.test("fold() D19: a blocked hook claim decays after blocked_decay_secs, not hook_decay_secs", () => {
  const working = { best: claim("working"), historyView: null };
  assertEquals(
    fold(input(stamped("blocked", "hook", NOW - 120_000), { screen: working })).action,
    "hold",
  );
  const v = fold(input(stamped("blocked", "hook", NOW - 301_000), { screen: working }));
  assertEquals([v.action, v.state], ["publish", "working"]);
});

Deno.test("fold() D22: chrome consistent with a hook claim advances its evidence time", () => {
  const v = fold(input(stamped("working", "hook", NOW - 50_000), {
    screen: { best: claim("working"), historyView: null },
  }));
  assertEquals([v.action, v.source, v.evidenceAt], ["publish", "hook", NOW]);
});

Deno.test("fold() D21: working to idle waits for the dwell; idle to working does not", () => {
  const idle = { best: claim("idle"), historyView: null };
  assertEquals(
    fold(input(stamped("working", "capture", NOW - 1000), { screen: idle })).action,
    "hold",
  );
  const later = fold(input(stamped("working", "capture", NOW - 3000), { screen: idle }));
  assertEquals([later.action, later.state, later.setAttention], ["publish", "idle", true]);
  const up = fold(input(stamped("idle", "capture", NOW - 100), {
    screen: { best: claim("working"), historyView: null },
  }));
  assertEquals([up.action, up.state, up.setAttention], ["publish", "working", false]);
});

Deno.test("fold() D14: a scrolled pane freezes its state", () => {
  const v = fold(input(stamped("working", "capture", NOW - 10_000), {
    scrolled: true,
    screen: { best: claim("idle"), historyView: null },
  }));
  assertEquals([v.action, v.state], ["hold", "working"]);
});

Deno.test("fold() D15: a history view freezes instead of restating", () => {
  const v = fold(input(stamped("idle", "capture", NOW - 10_000), {
    screen: { best: claim("working"), historyView: claim("idle") },
  }));
  assertEquals([v.action, v.state], ["hold", "idle"]);
});

Deno.test("fold() D12: when the agent is not in the foreground the screen reads unknown", () => {
  const v = fold(input(stamped("idle", "capture", NOW - 10_000), {
    identity: { ...observed, foregroundIsAgent: false },
    screen: { best: claim("working"), historyView: null },
  }));
  assertEquals([v.state, v.source], ["unknown", "process"]);
});

Deno.test("fold() D12: a hook claim survives an editor the agent launched", () => {
  const v = fold(input(stamped("working", "hook", NOW - 10_000), {
    identity: { ...observed, foregroundIsAgent: false },
  }));
  assertEquals([v.action, v.state], ["hold", "working"]);
});

Deno.test("fold() D24: a new agent pid resets the episode and ignores the old hook claim", () => {
  const v = fold(input(stamped("blocked", "hook", NOW - 1000), {
    identity: { ...observed, pid: 200 },
    screen: { best: claim("idle"), historyView: null },
  }));
  assertEquals([v.action, v.state, v.episodeReset, v.setAttention], [
    "publish",
    "idle",
    true,
    false,
  ]);
});

Deno.test("fold() D40: a pane without an agent is removed; D38: an ignored one too", () => {
  const none: Identity = { ...observed, agent: null, source: null, pid: 0 };
  assertEquals(fold(input(stamped("idle", "capture", NOW), { identity: none })).action, "remove");
  assertEquals(
    fold(input(stamped("idle", "capture", NOW), { identity: { ...none, ignored: true } })).action,
    "remove",
  );
});

Deno.test("fold() D37: a registration behind a remote shell holds on hooks alone", () => {
  const v = fold(input(stamped("working", "hook", NOW - 1000), {
    identity: {
      ...observed,
      source: "registered",
      pid: 0,
      outOfScope: "remote",
      foregroundIsAgent: false,
    },
    screen: null,
  }));
  assertEquals([v.action, v.state], ["hold", "working"]);
});

Deno.test("fold() D25: blocked is never published from silence", () => {
  for (const state of ["idle", "working", "unknown"] as State[]) {
    const v = fold(input(stamped(state, "capture", NOW - 600_000)));
    assertEquals(v.state === "blocked", false);
  }
});

Deno.test("fold() D11: the fold is deterministic", () => {
  const a = input(stamped("working", "hook", NOW - 61_000), {
    screen: { best: claim("blocked", "permission"), historyView: null },
  });
  assertEquals(fold(a), fold(structuredClone(a)));
});

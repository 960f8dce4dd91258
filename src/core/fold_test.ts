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
  // Title chrome alone never ends a claim through D67, only through the decay.
  const working = { best: { ...claim("working"), fromTitle: true }, historyView: null };
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

/** A stamp whose last hook event (`@tma_hook_at`) is `hookAt`, with an optional broker mark. */
const hooked = (
  state: State,
  times: { evidenceAt: number; hookAt: number; delivered?: string },
): PaneOptions => ({
  ...stamped(state, "hook", times.evidenceAt),
  "@tma_hook_at": String(times.hookAt),
  ...(times.delivered ? { "@tma_delivered": times.delivered } : {}),
});

const turnEnd: ScreenClaim = { ...claim("idle"), endsTurn: true, label: "rule turn-end" };
const claudeVisible = new Set<State>(["working", "idle", "blocked"]);

Deno.test("fold() D65: turn-end chrome ends a working hook claim once dwell_secs passed its hook", () => {
  // The spinner confirmed the claim a moment ago (D22), but the hook that made it is old.
  const v = fold(input(hooked("working", { evidenceAt: NOW - 400, hookAt: NOW - 8000 }), {
    screen: { best: turnEnd, historyView: null },
    visible: claudeVisible,
  }));
  assertEquals([v.action, v.state, v.source], ["publish", "idle", "capture"]);
  assertEquals(v.winning?.label.includes("D65"), true);
});

Deno.test("fold() D65: a prompt submitted after an interrupt never flickers to idle", () => {
  // UserPromptSubmit fired 1 s ago; the screen still shows the old marker last.
  const v = fold(input(hooked("working", { evidenceAt: NOW - 1000, hookAt: NOW - 1000 }), {
    screen: { best: turnEnd, historyView: null },
    visible: claudeVisible,
  }));
  assertEquals([v.action, v.state], ["hold", "working"]);
});

Deno.test("fold() D65: plain idle chrome does not end a fresh working hook claim", () => {
  const v = fold(input(hooked("working", { evidenceAt: NOW - 8000, hookAt: NOW - 8000 }), {
    screen: { best: claim("idle"), historyView: null },
    visible: claudeVisible,
  }));
  assertEquals([v.action, v.state], ["hold", "working"]);
});

Deno.test("fold() D65: an interrupt tma delivered settles the pane on the next capture", () => {
  const marked = hooked("working", {
    evidenceAt: NOW - 300,
    hookAt: NOW - 1500,
    delivered: `working:${NOW - 800}`,
  });
  const v = fold(input(marked, {
    screen: { best: claim("idle"), historyView: null },
    visible: claudeVisible,
  }));
  assertEquals([v.action, v.state], ["publish", "idle"]);
  // A hook event after the delivery (the next prompt) voids the mark.
  const newer = hooked("working", {
    evidenceAt: NOW - 300,
    hookAt: NOW - 500,
    delivered: `working:${NOW - 800}`,
  });
  assertEquals(
    fold(input(newer, { screen: { best: turnEnd, historyView: null }, visible: claudeVisible }))
      .action,
    "hold",
  );
  // Working chrome still on screen (the agent has not redrawn yet) ends nothing.
  assertEquals(
    fold(input(marked, { screen: { best: claim("working"), historyView: null } })).state,
    "working",
  );
});

Deno.test("fold() D65: an interrupt mark lifts the capture dwell (D21) of the episode it ended", () => {
  const working = {
    ...stamped("working", "capture", NOW - 500),
    "@agent_since": String(NOW - 9000),
    "@tma_delivered": `working:${NOW - 700}`,
  };
  const v = fold(input(working, { screen: { best: claim("idle"), historyView: null } }));
  assertEquals([v.action, v.state], ["publish", "idle"]);
  const older = { ...working, "@tma_delivered": `working:${NOW - 10_000}` };
  assertEquals(
    fold(input(older, { screen: { best: claim("idle"), historyView: null } })).action,
    "hold",
  );
});

Deno.test("fold() D67: a blocked hook claim ends when its dialog is gone, after the dwell grace", () => {
  const blocked = { ...hooked("blocked", { evidenceAt: NOW - 400, hookAt: NOW - 5000 }) };
  for (const state of ["idle", "working"] as State[]) {
    const v = fold(input(blocked, { screen: { best: claim(state), historyView: null } }));
    assertEquals([v.action, v.state, v.source], ["publish", state, "capture"]);
  }
  // The hook fired 1 s ago and the dialog has not drawn yet: the grace holds.
  const fresh = hooked("blocked", { evidenceAt: NOW - 1000, hookAt: NOW - 1000 });
  assertEquals(
    fold(input(fresh, { screen: { best: claim("idle"), historyView: null } })).action,
    "hold",
  );
  // An answer tma delivered lifts the grace.
  const answered = hooked("blocked", {
    evidenceAt: NOW - 1000,
    hookAt: NOW - 1000,
    delivered: `blocked:${NOW - 600}`,
  });
  assertEquals(
    fold(input(answered, { screen: { best: claim("idle"), historyView: null } })).state,
    "idle",
  );
});

Deno.test("fold() D67: the dialog still drawn, a title alone, or blocked not visible end nothing", () => {
  const blocked = hooked("blocked", { evidenceAt: NOW - 400, hookAt: NOW - 5000 });
  const still = fold(input(blocked, {
    screen: { best: claim("blocked", "permission"), historyView: null },
  }));
  assertEquals([still.state, still.source], ["blocked", "hook"]);
  const title = fold(input(blocked, {
    screen: { best: { ...claim("idle"), fromTitle: true }, historyView: null },
  }));
  assertEquals(title.action, "hold");
  const hidden = fold(input(blocked, {
    screen: { best: claim("idle"), historyView: null },
    visible: new Set<State>(["working"]),
  }));
  assertEquals(hidden.action, "hold");
  // No chrome at all is silence, which never ends a claim (D18).
  assertEquals(fold(input(blocked)).action, "hold");
});

Deno.test("fold() D65: a title claim that outranks body idle chrome does not hide it from the mark", () => {
  // Claude from 2.1.246 keeps its idle glyph in the title in every state; after an early
  // interrupt the body shows only the mode line (the prompt restored to the composer).
  const marked = hooked("working", {
    evidenceAt: NOW - 300,
    hookAt: NOW - 1500,
    delivered: `working:${NOW - 800}`,
  });
  const titleIdle = { ...claim("idle"), fromTitle: true, label: "rule title" };
  const modeLine = { ...claim("idle"), label: "rule mode line" };
  const v = fold(input(marked, {
    screen: { best: titleIdle, bestBody: modeLine, historyView: null },
    visible: claudeVisible,
  }));
  assertEquals([v.action, v.state, v.winning?.label.startsWith("rule mode line")], [
    "publish",
    "idle",
    true,
  ]);
  // With no body chrome at all, the title alone still ends nothing.
  const bare = fold(input(marked, {
    screen: { best: titleIdle, bestBody: null, historyView: null },
    visible: claudeVisible,
  }));
  assertEquals(bare.action, "hold");
  // The same for the capture dwell (D21) in screen mode.
  const screenWorking = {
    ...stamped("working", "capture", NOW - 500),
    "@agent_since": String(NOW - 9000),
    "@tma_delivered": `working:${NOW - 700}`,
  };
  const s = fold(input(screenWorking, {
    screen: { best: titleIdle, bestBody: modeLine, historyView: null },
  }));
  assertEquals([s.action, s.state], ["publish", "idle"]);
});

Deno.test("fold() D67: a title that still claims blocked keeps the claim, whatever the body shows", () => {
  // The hook's claim names the permission; the title says only "blocked".
  const blocked = {
    ...hooked("blocked", { evidenceAt: NOW - 400, hookAt: NOW - 5000 }),
    "@agent_detail": "permission",
  };
  const title = { ...claim("blocked"), fromTitle: true, label: "rule title blocked" };
  const v = fold(input(blocked, {
    screen: { best: title, bestBody: claim("idle"), historyView: null },
  }));
  assertEquals([v.action, v.state, v.detail, v.source], ["hold", "blocked", "permission", "hook"]);
});

Deno.test("fold() U9: a demoted pane's fresh hook claim is no evidence: the capture publishes", () => {
  const fresh = stamped("idle", "hook", NOW - 10_000);
  const workingChrome = { best: claim("working"), historyView: null };
  assertEquals(fold(input(fresh, { screen: workingChrome })).action, "hold");
  const v = fold(input(fresh, { screen: workingChrome, hookDemoted: true }));
  assertEquals([v.action, v.state, v.source], ["publish", "working", "capture"]);
});

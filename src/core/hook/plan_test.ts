import { assert, assertEquals } from "../../../tests/harness/assert.ts";
import type { HookMapEntry } from "../manifest/agent_schema.ts";
import type { PaneFacts, PaneOptions } from "../snapshot.ts";
import { type HookAction, resolveHookAction } from "./mapping.ts";
import { parsePayload } from "./payload.ts";
import { type HookPlan, type HookPlanInput, planHookEvent, windowRollupWrite } from "./plan.ts";

const T = 1_800_000_000_000;

function entry(claim: HookMapEntry["claim"], turnEnd = false): HookAction {
  return { kind: "claim", entry: { event: "E", claim, turn_end: turnEnd } };
}
const START = entry({ lifecycle: "start" });
const END = entry({ lifecycle: "end" });
const WORKING = entry({ state: "working", detail: undefined });
const IDLE_TURN = entry({ state: "idle", detail: undefined }, true);
const IDLE = entry({ state: "idle", detail: undefined });
const BLOCKED = entry({ state: "blocked", detail: "permission" });
const QUESTION = entry({ state: "blocked", detail: "question" });

function plan(
  options: PaneOptions,
  action: HookAction,
  extra: Partial<Omit<HookPlanInput, "payload">> & { payload?: string } = {},
): HookPlan {
  const { payload, ...rest } = extra;
  return planHookEvent({
    agent: "claude",
    options,
    action,
    payload: parsePayload(payload ?? "{}")!,
    evidenceAtMs: T,
    stampedAtMs: T + 5,
    ...rest,
  });
}

/** The options as they read once a plan's writes commit. */
function apply(options: PaneOptions, result: HookPlan): PaneOptions {
  assert(
    result.kind === "write",
    `expected writes, got skip: ${result.kind === "skip" ? result.reason : ""}`,
  );
  const out: Record<string, string> = { ...options };
  for (const w of result.writes) {
    if ((w.scope ?? "pane") !== "pane") continue;
    if (w.value === null) delete out[w.name];
    else if (w.format) {
      const expanded = w.name === "@tma_hook_at"
        ? expandHookAt(w.value, options)
        : expandSince(w.value, options);
      // applyWrites() (the committed stamp a notification reads) predicts the same.
      assertEquals(w.expected, expanded, `${w.name}: expected vs the server's expansion`);
      out[w.name] = expanded;
    } else out[w.name] = w.value;
  }
  return out as PaneOptions;
}

/**
 * What tmux makes of the one server-side format a hook stamp writes
 * (`@agent_since`), against the options before the chain. The scratch-server
 * tests run the real expansion.
 */
function expandSince(format: string, options: PaneOptions): string {
  const m =
    /^#\{\?#\{&&:#\{==:#\{@agent_state\},(\w+)\},#\{@agent_since\}\},#\{@agent_since\},(\d+)\}$/
      .exec(format);
  assert(m, `unexpected format ${format}`);
  const since = options["@agent_since"];
  return options["@agent_state"] === m[1] && since ? since : m[2];
}

/** The later-of-two format an ordered claim writes `@tma_hook_at` with. */
function expandHookAt(format: string, options: PaneOptions): string {
  const m = /^#\{\?#\{e\|>:#\{@tma_hook_at\},(\d+)\},#\{@tma_hook_at\},(\d+)\}$/.exec(format);
  assert(m && m[1] === m[2], `unexpected format ${format}`);
  const read = Number(options["@tma_hook_at"] ?? 0);
  return read > Number(m[1]) ? options["@tma_hook_at"]! : m[1];
}

const registered: PaneOptions = {
  "@agent_name": "claude",
  "@agent_pid": "0",
  "@agent_session": "main",
  "@agent_state": "idle",
  "@agent_source": "hook",
  "@agent_evidence_at": String(T - 10_000),
  "@agent_since": String(T - 10_000),
  "@agent_stamped_at": String(T - 9_000),
};

Deno.test("planHookEvent() D8, D30: a start claim registers an empty pane and publishes idle", () => {
  const result = plan({}, START, { payload: '{"session_id":"s1","model":"claude-opus-4-8[1m]"}' });
  const after = apply({}, result);
  assertEquals(after, {
    "@agent_name": "claude",
    "@agent_pid": "0",
    "@agent_session": "s1",
    "@agent_model": "claude-opus-4-8[1m]",
    "@agent_state": "idle",
    "@agent_source": "hook",
    "@agent_evidence_at": String(T),
    "@agent_since": String(T),
    "@tma_hook_at": String(T),
    "@agent_stamped_at": String(T + 5),
  });
  assert(result.kind === "write");
  assertEquals(result.writes.at(-1)?.name, "@agent_stamped_at");
  assertEquals(result.guard, { option: "@agent_stamped_at", value: "" });
  assertEquals(result.stateAfter, "idle");
});

Deno.test("planHookEvent() D8: registration keeps a state the pane already holds, and a real pid", () => {
  const options: PaneOptions = { ...registered, "@agent_pid": "4242", "@agent_state": "working" };
  const after = apply(options, plan(options, START, { payload: '{"session_id":"s2"}' }));
  assertEquals(after["@agent_state"], "working");
  assertEquals(after["@agent_pid"], "4242");
  assertEquals(after["@agent_session"], "s2");
  assertEquals(after["@agent_since"], registered["@agent_since"]);
});

Deno.test("planHookEvent() P29: registration stamps the OpenCode server URL", () => {
  const after = apply(
    {},
    plan({}, START, {
      agent: "opencode",
      payload: '{"opencode_event":"plugin.load","api_endpoint":"http://127.0.0.1:4096"}',
    }),
  );
  assertEquals(after["@agent_api_endpoint"], "http://127.0.0.1:4096");
  assertEquals(after["@agent_session"], undefined);
});

Deno.test("planHookEvent() D8: an end claim removes every @agent_* option, and is idempotent", () => {
  const options: PaneOptions = { ...registered, "@agent_attention": "1", "@tma_fg": "x" };
  const result = plan(options, END, { payload: '{"session_id":"main"}' });
  assertEquals(apply(options, result), {});
  assertEquals(plan({}, END).kind, "skip");
});

Deno.test("planHookEvent() D8: the end of another session leaves the pane registered", () => {
  assertEquals(plan(registered, END, { payload: '{"session_id":"other"}' }).kind, "skip");
});

Deno.test("planHookEvent() D38: an ignored pane is never stamped", () => {
  assertEquals(plan({ "@agent_ignore": "1" }, WORKING).kind, "skip");
  assertEquals(plan({ ...registered, "@agent_ignore": "1" }, END).kind, "skip");
});

Deno.test("planHookEvent() P5-P10: a state claim stamps state, provenance and times, since only on change", () => {
  const working = apply(registered, plan(registered, WORKING));
  assertEquals(working["@agent_state"], "working");
  assertEquals(working["@agent_source"], "hook");
  assertEquals(working["@agent_evidence_at"], String(T));
  assertEquals(working["@agent_since"], String(T));
  assertEquals(working["@agent_attention"], undefined);
  const again = apply(
    working,
    plan(working, WORKING, { evidenceAtMs: T + 100, stampedAtMs: T + 200 }),
  );
  assertEquals(again["@agent_since"], String(T));
  assertEquals(again["@agent_evidence_at"], String(T + 100));
});

Deno.test("planHookEvent() D4: working to idle raises attention; idle to idle does not", () => {
  const working = { ...registered, "@agent_state": "working" };
  assertEquals(apply(working, plan(working, IDLE))["@agent_attention"], "1");
  assertEquals(apply(registered, plan(registered, IDLE))["@agent_attention"], undefined);
});

Deno.test("planHookEvent() D4: entering blocked raises attention; staying blocked changes neither since nor the mark", () => {
  const blocked = apply(registered, plan(registered, BLOCKED));
  assertEquals([blocked["@agent_state"], blocked["@agent_detail"], blocked["@agent_attention"]], [
    "blocked",
    "permission",
    "1",
  ]);
  const seen = { ...blocked };
  delete (seen as Record<string, string>)["@agent_attention"];
  const again = apply(seen, plan(seen, BLOCKED, { evidenceAtMs: T + 6000, stampedAtMs: T + 6001 }));
  assertEquals(again["@agent_attention"], undefined);
  assertEquals(again["@agent_since"], String(T));
});

Deno.test("planHookEvent() D45: a turn end raises attention even from idle and stamps turn_at once", () => {
  const first = apply(registered, plan(registered, IDLE_TURN));
  assertEquals(first["@agent_attention"], "1");
  assertEquals(first["@agent_turn_at"], String(T));
  // The same turn on the second channel (Codex notify after Stop): the mark is up.
  const second = apply(
    first,
    plan(first, IDLE_TURN, { evidenceAtMs: T + 20, stampedAtMs: T + 30 }),
  );
  assertEquals(second["@agent_turn_at"], String(T));
  assertEquals(second["@agent_evidence_at"], String(T + 20));
});

Deno.test("planHookEvent() D47: a strictly newer hook claim suppresses the stamp", () => {
  const newer = { ...registered, "@agent_state": "working", "@agent_evidence_at": String(T + 1) };
  assertEquals(plan(newer, IDLE_TURN).kind, "skip");
  assertEquals(plan(newer, END).kind, "skip");
  // Equal evidence is not strictly newer.
  const equal = { ...newer, "@agent_evidence_at": String(T) };
  assertEquals(plan(equal, IDLE).kind, "write");
  // Screen evidence is the fold's business, never a reason to drop a hook.
  const capture = { ...newer, "@agent_source": "capture" };
  assertEquals(plan(capture, IDLE).kind, "write");
});

Deno.test("planHookEvent() D47, D22: a capture that advanced a hook claim's evidence does not make a later-processed Stop stale", () => {
  // PostToolUse stamped working at T - 600; a poll then confirmed the working
  // chrome at T + 80 (D22 advanced the evidence); Stop fired at T but its tma
  // process wrote after the poll. The Stop is the newer hook EVENT and wins.
  const confirmed = {
    ...registered,
    "@agent_state": "working",
    "@agent_evidence_at": String(T + 80),
    "@tma_hook_at": String(T - 600),
  };
  const after = apply(confirmed, plan(confirmed, IDLE_TURN));
  assertEquals(after["@agent_state"], "idle");
  assertEquals(after["@tma_hook_at"], String(T));
  // A genuinely newer hook event still wins over an older one.
  const newerEvent = { ...confirmed, "@tma_hook_at": String(T + 5) };
  assertEquals(plan(newerEvent, IDLE_TURN).kind, "skip");
});

Deno.test("planHookEvent() P27, P28: the working or idle edge clears pending request ids", () => {
  const pending = {
    ...registered,
    "@agent_state": "blocked",
    "@agent_permission_request": "per_1",
    "@agent_question_request": "que_1",
  };
  for (const action of [WORKING, IDLE]) {
    const after = apply(pending, plan(pending, action));
    assertEquals([after["@agent_permission_request"], after["@agent_question_request"]], [
      undefined,
      undefined,
    ]);
  }
});

Deno.test("planHookEvent() I42, I44: OpenCode's blocked edges stamp their ids under the ownership filter", () => {
  const oc = { ...registered, "@agent_name": "opencode" };
  const perm = apply(
    oc,
    plan(oc, BLOCKED, { agent: "opencode", payload: '{"session_id":"main","requestID":"per_9"}' }),
  );
  assertEquals(perm["@agent_permission_request"], "per_9");
  const q = apply(
    oc,
    plan(oc, QUESTION, {
      agent: "opencode",
      payload: '{"session_id":"main","question_id":"que_9"}',
    }),
  );
  assertEquals([q["@agent_question_request"], q["@agent_detail"]], ["que_9", "question"]);
  // D44: another session's id is not stamped.
  const foreign = apply(
    oc,
    plan(oc, BLOCKED, { agent: "opencode", payload: '{"session_id":"bg","request_id":"per_x"}' }),
  );
  assertEquals(foreign["@agent_permission_request"], undefined);
});

Deno.test("planHookEvent() A25: a minted request id rides the blocked stamp", () => {
  const result = plan(registered, BLOCKED, {
    mintRequestId: "tma_00ff",
    payload: '{"session_id":"main"}',
  });
  assert(result.kind === "write");
  assertEquals(result.minted, true);
  assertEquals(apply(registered, result)["@agent_permission_request"], "tma_00ff");
  const working = plan(registered, WORKING, { mintRequestId: "tma_00ff" });
  assertEquals(working.kind === "write" && working.minted, false);
});

Deno.test("planHookEvent() R3, D46: subagent events keep the list and never change state", () => {
  const add = plan(registered, { kind: "subagent", op: "add" }, {
    payload: '{"session_id":"sub-1"}',
  });
  assert(add.kind === "write");
  assertEquals(add.writes, [{ name: "@agent_subagents", value: "sub-1" }]);
  assertEquals(add.guard, { option: "@agent_subagents", value: "" });
  const withSub = apply(registered, add);
  assertEquals(withSub["@agent_state"], "idle");
  assertEquals(withSub["@agent_stamped_at"], registered["@agent_stamped_at"]);
  // A subagent's own event does not move the parent.
  assertEquals(plan(withSub, WORKING, { payload: '{"session_id":"sub-1"}' }).kind, "skip");
  assertEquals(plan(withSub, WORKING, { payload: "{}" }).kind, "skip");
  // The owner still does.
  assertEquals(plan(withSub, WORKING, { payload: '{"session_id":"main"}' }).kind, "write");
  const removed = apply(
    withSub,
    plan(withSub, { kind: "subagent", op: "remove" }, { payload: '{"session_id":"sub-1"}' }),
  );
  assertEquals(removed["@agent_subagents"], undefined);
  assertEquals(plan(removed, WORKING, { payload: "{}" }).kind, "write");
});

Deno.test("planHookEvent() I42: a replied edge clears only the pending id it names", () => {
  const pending = { ...registered, "@agent_permission_request": "per_1" };
  const clear = resolveHookAction("permission-replied", { hooks: undefined, raw: "" })!;
  const done = plan(pending, clear, { payload: '{"session_id":"main","requestID":"per_1"}' });
  assert(done.kind === "write");
  assertEquals(done.guard, { option: "@agent_permission_request", value: "per_1" });
  assertEquals(apply(pending, done)["@agent_permission_request"], undefined);
  assertEquals(plan(pending, clear, { payload: '{"requestID":"per_2"}' }).kind, "skip");
  assertEquals(plan(pending, clear, { payload: '{"session_id":"bg"}' }).kind, "skip");
});

Deno.test("planHookEvent() P1: the stamp time differs from the one read, so a compare-and-swap cannot pass by coincidence", () => {
  const same = { ...registered, "@agent_stamped_at": String(T + 5) };
  assertEquals(apply(same, plan(same, WORKING))["@agent_stamped_at"], String(T + 6));
});

Deno.test("a claim by another agent replaces that agent's record", () => {
  const other = {
    ...registered,
    "@agent_name": "gemini",
    "@agent_model": "m",
    "@agent_turn_at": String(T - 1),
  };
  const after = apply(other, plan(other, WORKING));
  assertEquals(after["@agent_name"], "claude");
  assertEquals(after["@agent_model"], undefined);
  assertEquals(after["@agent_turn_at"], undefined);
  assertEquals(after["@agent_session"], undefined);
});

function pane(id: string, windowId: string, options: PaneOptions, summary?: string): PaneFacts {
  return {
    paneId: id,
    windowId,
    options,
    rollups: { "@agent_summary": summary },
  } as unknown as PaneFacts;
}

Deno.test("planHookEvent() D56: the window rollup follows the stamped pane's new state", () => {
  const panes = [
    pane("%1", "@1", { "@agent_state": "idle" }, "working:1 idle:1"),
    pane("%2", "@1", { "@agent_state": "working" }, "working:1 idle:1"),
    pane("%3", "@2", { "@agent_state": "blocked" }, "blocked:1"),
    pane("%4", "@1", {}, "working:1 idle:1"),
  ];
  assertEquals(windowRollupWrite(panes, { paneId: "%1", stateAfter: "blocked" }), {
    name: "@agent_summary",
    value: "blocked:1 working:1",
    scope: "window",
  });
  assertEquals(windowRollupWrite(panes, { paneId: "%1", stateAfter: "idle" }), null);
  assertEquals(
    windowRollupWrite([pane("%3", "@2", {}, "blocked:1")], { paneId: "%3", stateAfter: null }),
    {
      name: "@agent_summary",
      value: null,
      scope: "window",
    },
  );
});

/** Claude's ordered claims of one tool call (manifests/claude.toml). */
const ORDER = { turn: ["prompt_id"], call: ["tool_name", "tool_input"] };
const phased = (claim: HookMapEntry["claim"], phase: number): HookAction => ({
  kind: "claim",
  entry: { event: "E", claim, turn_end: false, phase },
});
const CALL = JSON.stringify({ prompt_id: "p1", tool_name: "Bash", tool_input: { command: "x" } });

Deno.test("planHookEvent() D47, X10: within a turn, phase order overrules close fire times both ways", () => {
  const ask = plan(registered, phased({ state: "blocked", detail: "permission" }, 2), {
    payload: CALL,
    order: ORDER,
  });
  const blocked = apply(registered, ask);
  assertEquals(blocked["@agent_state"], "blocked");
  assert(/^[0-9a-f]+\.[0-9a-f]+\.2$/.test(blocked["@tma_hook_order"]!), blocked["@tma_hook_order"]);
  const pre = phased({ state: "working", detail: undefined }, 1);
  // The async PreToolUse of the same call, its fire time taken 30 ms after the prompt's: refused.
  const late = plan(blocked, pre, { payload: CALL, order: ORDER, evidenceAtMs: T + 30 });
  assertEquals(late, { kind: "skip", reason: "a later phase of this turn holds the pane (D47)" });
  // ... and when it landed first, the prompt still stamps, keeping the later hook time.
  const working = apply(
    registered,
    plan(registered, pre, { payload: CALL, order: ORDER, evidenceAtMs: T + 30 }),
  );
  const first = plan(working, phased({ state: "blocked", detail: "permission" }, 2), {
    payload: CALL,
    order: ORDER,
  });
  assert(first.kind === "write" && first.guard.order !== undefined);
  const after = apply(working, first);
  assertEquals(after["@agent_state"], "blocked");
  assertEquals(after["@tma_hook_at"], String(T + 30));
  // Beyond the window the clock decides: the same command run again later in the turn.
  const again = plan(blocked, pre, { payload: CALL, order: ORDER, evidenceAtMs: T + 5_000 });
  assertEquals(again.kind, "write");
  // Another call of the turn is ordered by time alone.
  const other = JSON.stringify({
    prompt_id: "p1",
    tool_name: "Bash",
    tool_input: { command: "y" },
  });
  assertEquals(
    plan(blocked, pre, { payload: other, order: ORDER, evidenceAtMs: T + 30 }).kind,
    "write",
  );
  assertEquals(
    plan(blocked, pre, { payload: other, order: ORDER, evidenceAtMs: T - 30 }).kind,
    "skip",
  );
  // Without [hooks.order] nothing changes: plain D47.
  const plain = plan(blocked, pre, { payload: CALL, evidenceAtMs: T + 30 });
  assert(plain.kind === "write" && plain.guard.order === undefined);
});

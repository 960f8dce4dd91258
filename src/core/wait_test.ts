import { assertEquals } from "../../tests/harness/assert.ts";
import { agentRow } from "../../tests/harness/rows.ts";
import type { AgentRow } from "./rows.ts";
import type { StateClass } from "./state.ts";
import {
  initialWaitState,
  stepWait,
  type WaitObservation,
  type WaitSpec,
  type WaitState,
  type WaitTarget,
} from "./wait.ts";

const row = agentRow;

function done(pane: string, extra: Partial<AgentRow> = {}): AgentRow {
  return row(pane, "idle", { attention: true, done: true, ...extra });
}

/** An observation: the rows, plus `extraPanes` that live without an agent. */
function obs(rows: AgentRow[], extraPanes: string[] = [], session = "main"): WaitObservation {
  return {
    panes: [...rows.map((r) => r.pane), ...extraPanes].map((id) => ({
      paneId: id,
      locator: `main:${id.slice(1)}.0`,
    })),
    rows: rows.map((r) => ({ row: r, sessionName: session })),
  };
}

function spec(target: WaitTarget, until: StateClass[], extra: Partial<WaitSpec> = {}): WaitSpec {
  return { target, until: new Set(until), sinceMs: null, selector: {}, ...extra };
}

/** Runs the observations in turn and returns every verdict. */
function run(s: WaitSpec, observations: WaitObservation[]) {
  let state: WaitState = initialWaitState();
  return observations.map((o) => {
    const step = stepWait(s, state, o);
    state = step.state;
    return step.verdict;
  });
}

Deno.test("stepWait() C35: level-triggered: a pane already in a target state satisfies at once", () => {
  const [verdict] = run(spec({ kind: "pane", pane: "%1" }, ["idle"]), [obs([row("%1", "idle")])]);
  assertEquals(verdict.kind, "satisfied");
});

Deno.test("stepWait() C35: idle matches done, done does not match plain idle", () => {
  assertEquals(
    run(spec({ kind: "pane", pane: "%1" }, ["idle"]), [obs([done("%1")])])[0].kind,
    "satisfied",
  );
  assertEquals(
    run(spec({ kind: "pane", pane: "%1" }, ["done"]), [obs([row("%1", "idle")])])[0].kind,
    "waiting",
  );
});

Deno.test("stepWait() C34: --pane accepts a locator and pins its id", () => {
  const verdicts = run(spec({ kind: "pane", pane: "main:1.0" }, ["blocked"]), [
    obs([row("%1", "working")]),
    obs([row("%1", "blocked")]),
  ]);
  assertEquals(verdicts.map((v) => v.kind), ["waiting", "satisfied"]);
});

Deno.test("stepWait() C41 C42: --pane vanishing is 3, losing its agent once seen is 4", () => {
  const vanish = run(spec({ kind: "pane", pane: "%1" }, ["idle"]), [
    obs([row("%1", "working")]),
    obs([]),
  ]);
  assertEquals(vanish[1], { kind: "exit", code: 3, message: "wait: pane %1 vanished" });
  const died = run(spec({ kind: "pane", pane: "%1" }, ["idle"]), [
    obs([row("%1", "working")]),
    obs([], ["%1"]),
  ]);
  assertEquals(died[1].kind === "exit" && died[1].code, 4);
});

Deno.test("stepWait() C41: a pane that never carried an agent waits forever, hinting once", () => {
  const verdicts = run(spec({ kind: "pane", pane: "%1" }, ["idle"]), [
    obs([], ["%1"]),
    obs([], ["%1"]),
    obs([], ["%1"]),
  ]);
  assertEquals(verdicts.map((v) => v.kind), ["waiting", "waiting", "waiting"]);
  assertEquals(verdicts.map((v) => v.kind === "waiting" && v.hint !== null), [true, false, false]);
  const typo = run(spec({ kind: "pane", pane: "%99" }, ["idle"]), [obs([]), obs([])]);
  assertEquals(typo.map((v) => v.kind === "waiting" && v.hint !== null), [true, false]);
});

Deno.test("stepWait() C34: --agent pins the one in-scope pane, several at once is exit 1", () => {
  const ambiguous = run(spec({ kind: "agent", agent: "claude" }, ["idle"]), [
    obs([row("%1", "working"), row("%2", "working")]),
  ]);
  assertEquals(ambiguous[0].kind === "exit" && ambiguous[0].code, 1);
  // Pinned to %1: a second claude appearing later changes nothing.
  const pinned = run(spec({ kind: "agent", agent: "claude" }, ["idle"]), [
    obs([row("%1", "working")]),
    obs([row("%1", "working"), row("%2", "idle")]),
    obs([row("%1", "idle"), row("%2", "idle")]),
  ]);
  assertEquals(pinned.map((v) => v.kind), ["waiting", "waiting", "satisfied"]);
  assertEquals(pinned[2].kind === "satisfied" && pinned[2].rows[0].pane, "%1");
  // The pinned pane now runs another agent: its agent died (exit 4).
  const replaced = run(spec({ kind: "agent", agent: "claude" }, ["idle"]), [
    obs([row("%1", "working")]),
    obs([row("%1", "working", { agent: "codex" })]),
  ]);
  assertEquals(replaced[1].kind === "exit" && replaced[1].code, 4);
});

Deno.test("stepWait() C39: the selector scopes --agent at first observation", () => {
  const verdicts = run(
    spec({ kind: "agent", agent: "claude" }, ["idle"], { selector: { session: "work" } }),
    [obs([row("%1", "working"), row("%2", "working")], [], "main")],
  );
  // Neither pane is in session "work": nothing to pin, no ambiguity.
  assertEquals(verdicts[0].kind, "waiting");
});

Deno.test("stepWait() C34: --any never pins; the first satisfied row in surface order wins; a vanish keeps waiting", () => {
  const verdicts = run(spec({ kind: "any" }, ["idle"]), [
    obs([row("%1", "working"), row("%2", "working")]),
    obs([row("%2", "working")]),
    obs([row("%2", "idle"), row("%3", "idle")]),
  ]);
  assertEquals(verdicts.map((v) => v.kind), ["waiting", "waiting", "satisfied"]);
  assertEquals(verdicts[2].kind === "satisfied" && verdicts[2].rows.map((r) => r.pane), ["%2"]);
});

Deno.test("stepWait() C39: --state scopes at first observation, so a pane may leave it", () => {
  const verdicts = run(
    spec({ kind: "any" }, ["idle"], { selector: { states: new Set(["working" as const]) } }),
    [obs([row("%1", "working"), row("%2", "idle")]), obs([row("%1", "idle"), row("%2", "idle")])],
  );
  // %2 was idle when first seen: out of scope; %1 was working, and now satisfies.
  assertEquals(verdicts[0].kind, "waiting");
  assertEquals(verdicts[1].kind === "satisfied" && verdicts[1].rows[0].pane, "%1");
});

Deno.test("stepWait() C34 C38: --all is a barrier over the first sight's members, emitting the document", () => {
  const verdicts = run(spec({ kind: "all" }, ["idle"]), [
    obs([row("%1", "working"), row("%2", "working")]),
    obs([row("%1", "idle"), row("%2", "working"), row("%3", "working")]),
    obs([row("%1", "idle"), row("%2", "idle"), row("%3", "working")]),
  ]);
  assertEquals(verdicts.map((v) => v.kind), ["waiting", "waiting", "satisfied"]);
  const last = verdicts[2];
  assertEquals(last.kind === "satisfied" && last.document, true);
  assertEquals(last.kind === "satisfied" && last.rows.map((r) => r.pane), ["%1", "%2"]);
});

Deno.test("stepWait() C34 C41: --all with an empty scope is 2; a member's vanish 3, its agent's death 4", () => {
  assertEquals(run(spec({ kind: "all" }, ["idle"]), [obs([])])[0].kind === "exit", true);
  assertEquals(
    (run(spec({ kind: "all" }, ["idle"]), [obs([])])[0] as { code: number }).code,
    2,
  );
  const vanish = run(spec({ kind: "all" }, ["idle"]), [obs([row("%1", "working")]), obs([])]);
  assertEquals(vanish[1].kind === "exit" && vanish[1].code, 3);
  const died = run(spec({ kind: "all" }, ["idle"]), [obs([row("%1", "working")]), obs([], ["%1"])]);
  assertEquals(died[1].kind === "exit" && died[1].code, 4);
});

Deno.test("stepWait() C35: done un-satisfies when the user types: the barrier waits for both at once", () => {
  const verdicts = run(spec({ kind: "all" }, ["done"]), [
    obs([done("%1"), row("%2", "working")]),
    // The user typed at %1 (attention cleared): no longer done.
    obs([row("%1", "idle"), done("%2")]),
  ]);
  assertEquals(verdicts.map((v) => v.kind), ["waiting", "waiting"]);
});

Deno.test("stepWait() C34: --count re-reads scope each cycle and ignores vanishes", () => {
  const verdicts = run(spec({ kind: "count", count: 2 }, ["idle"]), [
    obs([row("%1", "idle")]),
    obs([row("%2", "idle")]),
    obs([row("%2", "idle"), row("%3", "idle")]),
  ]);
  assertEquals(verdicts.map((v) => v.kind), ["waiting", "waiting", "satisfied"]);
  assertEquals(verdicts[2].kind === "satisfied" && verdicts[2].document, true);
});

Deno.test("stepWait() C36: --since counts only an episode strictly newer", () => {
  const s = spec({ kind: "pane", pane: "%1" }, ["idle"], { sinceMs: 5000 });
  const verdicts = run(s, [
    obs([row("%1", "idle", { episode_ms: 4000 })]),
    obs([row("%1", "idle", { episode_ms: 5000 })]),
    obs([row("%1", "idle", { episode_ms: 5001 })]),
  ]);
  assertEquals(verdicts.map((v) => v.kind), ["waiting", "waiting", "satisfied"]);
  for (
    const target of [
      { kind: "any" } as const,
      { kind: "all" } as const,
      { kind: "count", count: 1 } as const,
    ]
  ) {
    const again = run({ ...s, target }, [obs([row("%1", "idle", { episode_ms: 5000 })])]);
    assertEquals(again[0].kind, "waiting", target.kind);
  }
});

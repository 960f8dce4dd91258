import { assertEquals } from "../../tests/harness/assert.ts";
import { diffEdges, EDGE_KEYS } from "./edges.ts";
import { agentRow } from "../../tests/harness/rows.ts";
import type { AgentRow } from "./rows.ts";

function row(pane: string, state: AgentRow["state"], extra: Partial<AgentRow> = {}): AgentRow {
  return agentRow(pane, state, {
    locator: "main:1.0",
    title: "t",
    repo: "shop",
    branch: "main",
    worktree: false,
    ...extra,
  });
}

const edge = (e: { from: string; to: string; pane?: string }) => [e.pane ?? "%1", e.from, e.to];
const flat = (records: ReturnType<typeof diffEdges>) => records.map((r) => [r.pane, r.from, r.to]);

Deno.test("diffEdges() C63: the first cycle is a silent baseline", () => {
  assertEquals(diffEdges(null, [row("%1", "idle")], 5), []);
});

Deno.test("diffEdges() P61: one record per class change, with the exact key set", () => {
  const records = diffEdges([row("%1", "idle")], [row("%1", "working", { detail: "x" })], 5);
  assertEquals(records, [{
    schema: 1,
    at_ms: 5,
    pane: "%1",
    agent: "claude",
    from: "idle",
    to: "working",
    detail: "x",
    locator: "main:1.0",
    repo: "shop",
    branch: "main",
  }]);
  assertEquals(Object.keys(records[0]), [...EDGE_KEYS]);
});

Deno.test("diffEdges() P61: detail, title and telemetry changes alone emit nothing", () => {
  const before = [row("%1", "blocked", { detail: "permission", title: "a", context: 10 })];
  const after = [row("%1", "blocked", { detail: "question", title: "b", context: 50 })];
  assertEquals(diffEdges(before, after, 5), []);
});

Deno.test("diffEdges() P61: done and idle are disjoint: an attention clear is done -> idle", () => {
  const done = row("%1", "idle", { attention: true, done: true });
  assertEquals(flat(diffEdges([row("%1", "blocked")], [done], 5)), [
    edge({ from: "blocked", to: "done" }),
  ]);
  assertEquals(flat(diffEdges([done], [row("%1", "idle")], 6)), [
    edge({ from: "done", to: "idle" }),
  ]);
  assertEquals(flat(diffEdges([row("%1", "idle")], [done], 7)), [
    edge({ from: "idle", to: "done" }),
  ]);
});

Deno.test('diffEdges() P61 C64: appear from "", vanish (or leave the selection) to "" with the last row', () => {
  const gone = row("%2", "working", { locator: "main:2.0" });
  const records = diffEdges(
    [row("%1", "idle"), gone],
    [row("%1", "idle"), row("%3", "blocked")],
    9,
  );
  assertEquals(flat(records), [
    edge({ pane: "%3", from: "", to: "blocked" }),
    edge({ pane: "%2", from: "working", to: "" }),
  ]);
  assertEquals(records[1].locator, "main:2.0");
});

Deno.test("diffEdges(): a pane that now runs another agent departs and arrives", () => {
  const records = diffEdges([row("%1", "idle")], [row("%1", "idle", { agent: "codex" })], 9);
  assertEquals(records.map((r) => [r.agent, r.from, r.to]), [["claude", "idle", ""], [
    "codex",
    "",
    "idle",
  ]]);
});

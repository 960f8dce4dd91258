import { assert, assertEquals, assertMatch } from "../../tests/harness/assert.ts";
import { agentRow } from "../../tests/harness/rows.ts";
import { fzfRanker } from "../core/fuzzy.ts";
import type { AgentRow } from "../core/rows.ts";
import { stripAnsi } from "../core/ansi.ts";
import { displayWidth } from "../core/width.ts";
import { defaultConfig } from "../core/config/schema.ts";
import { cutAnsi } from "./ansi_cut.ts";
import { gateRequest, gateSettled, openGate } from "./gate.ts";
import {
  type Effect,
  entriesOf,
  initSurface,
  type SurfaceKind,
  type SurfaceModel,
  type SurfaceMsg,
  update,
} from "./surface.ts";
import { gauge } from "./table.ts";
import { view } from "./view.ts";

const NOW = 1_800_000_000_000;

function row(pane: string, over: Partial<AgentRow> = {}): AgentRow {
  const at = NOW - 60_000;
  return agentRow(pane, over.state ?? "idle", {
    since: at,
    since_ms: at,
    episode_ms: at,
    title: `task ${pane}`,
    server: "/tmp/s",
    host: "h",
    ...over,
  });
}

const ROWS = [
  row("%1", { state: "working", since_ms: NOW - 5_000, agent: "codex", title: "write tests" }),
  row("%2", { state: "blocked", detail: "permission", since_ms: NOW - 10_000, repo: "tma" }),
  row("%3", { state: "idle", attention: true, done: true, repo: "tma", branch: "main" }),
  row("%4", { state: "blocked", since_ms: NOW - 90_000, locator: "other:1.0", repo: "web" }),
];

function start(kind: SurfaceKind, width = 100, height = 20): SurfaceModel {
  const model = initSurface({
    kind,
    width,
    height,
    nowMs: NOW,
    styles: defaultConfig().picker,
    invokingSession: "main",
  });
  return step(model, { type: "rows", rows: ROWS, nowMs: NOW, fresh: true })[0];
}

function step(model: SurfaceModel, ...msgs: SurfaceMsg[]): [SurfaceModel, Effect[]] {
  let effects: Effect[] = [];
  for (const msg of msgs) [model, effects] = update(model, msg);
  return [model, effects];
}

const key = (name: string, char?: string): SurfaceMsg => ({
  type: "key",
  key: { name: name as "char", char },
});

const panes = (model: SurfaceModel) =>
  entriesOf(model).flatMap((e) => e.kind === "row" ? [e.row.pane] : []);

Deno.test("picker U29: blocked, working, idle, then longest in state; first row selected", () => {
  const model = start("picker");
  assertEquals(panes(model), ["%4", "%2", "%1", "%3"]);
  assertEquals(model.list.selected, "%4");
});

Deno.test("picker U30: up and down wrap; enter jumps and closes; tab menus and closes; esc", () => {
  let [model] = step(start("picker"), key("up"));
  assertEquals(model.list.selected, "%3", "up from the first wraps to the last");
  [model] = step(model, key("down"));
  assertEquals(model.list.selected, "%4");
  assertEquals(step(model, key("enter"))[1], [{ type: "jump", pane: "%4" }, { type: "quit" }]);
  assertEquals(step(model, key("tab"))[1], [{ type: "menu", pane: "%4" }, { type: "quit" }]);
  assertEquals(step(model, key("esc"))[1], [{ type: "quit" }]);
  assertEquals(step(model, key("ctrl-c"))[1], [{ type: "quit" }]);
});

Deno.test("picker U30: printable keys and digits go to the fuzzy query; backspace edits", () => {
  let [model] = step(start("picker"), { type: "ranker", rank: fzfRanker() });
  [model] = step(model, key("char", "c"), key("char", "d"), key("char", "x"));
  assertEquals(model.query, "cdx");
  assertEquals(panes(model), ["%1"], "only codex matches");
  assertEquals(model.list.selected, "%1");
  [model] = step(model, key("backspace"), key("backspace"), key("backspace"), key("char", "4"));
  assertEquals(model.query, "4", "a digit is query text, not a shortcut");
  assertEquals(panes(model), ["%4"]);
});

Deno.test("picker U30: ctrl-s toggles between every session and the invoking one", () => {
  let [model] = step(start("picker"), key("ctrl-s"));
  assertEquals(panes(model), ["%2", "%1", "%3"]);
  assertMatch(stripAnsi(view(model)[0]), /session main/);
  [model] = step(model, key("ctrl-s"));
  assertEquals(panes(model).length, 4);
});

Deno.test("picker U31: click selects, a second click jumps, hover underlines, wheel stops at ends", () => {
  const model = start("picker");
  // Body starts at line 2 (header, query); entry 1 is %2.
  let [next, effects] = step(model, {
    type: "mouse",
    event: { kind: "press", button: 0, x: 3, y: 3 },
  });
  assertEquals(next.list.selected, "%2");
  [next, effects] = step(next, { type: "mouse", event: { kind: "press", button: 0, x: 3, y: 3 } });
  assertEquals(effects, [{ type: "jump", pane: "%2" }, { type: "quit" }]);
  [next] = step(next, { type: "mouse", event: { kind: "move", button: 0, x: 3, y: 4 } });
  assertEquals(next.list.hover, 2);
  assert(view(next)[4].includes("\x1b[4m"), "the hovered row is underlined");
  [next] = step(next, { type: "mouse", event: { kind: "wheel-down", button: 0, x: 1, y: 3 } });
  assertEquals(next.list.selected, "%3", "three rows down, stopped at the last");
  [next] = step(next, { type: "mouse", event: { kind: "wheel-down", button: 0, x: 1, y: 3 } });
  assertEquals(next.list.selected, "%3", "no wrap");
});

Deno.test("picker U32: a preview and its capture only at 76 columns and wider", () => {
  const wide = initSurface({
    kind: "picker",
    width: 76,
    height: 20,
    nowMs: NOW,
    styles: defaultConfig().picker,
  });
  const [, wideEffects] = step(wide, { type: "rows", rows: ROWS, nowMs: NOW, fresh: true });
  assert(wideEffects.some((e) => e.type === "capture"));
  const narrow = initSurface({
    kind: "picker",
    width: 75,
    height: 20,
    nowMs: NOW,
    styles: defaultConfig().picker,
  });
  const [model, effects] = step(narrow, { type: "rows", rows: ROWS, nowMs: NOW, fresh: true });
  assert(!effects.some((e) => e.type === "capture"), "nothing is captured below 76");
  assert(!view(model).some((l) => l.includes("│")));
});

Deno.test("surface R14: a vanished pane is dropped at the next refresh and the selection moves on", () => {
  let [model] = step(start("picker"), key("down"));
  assertEquals(model.list.selected, "%2");
  [model] = step(model, {
    type: "rows",
    rows: ROWS.filter((r) => r.pane !== "%2"),
    nowMs: NOW,
    fresh: true,
  });
  assertEquals(panes(model), ["%4", "%1", "%3"]);
  assertEquals(model.list.selected, "%1", "the row now in its place");
});

Deno.test("surface: a narrow or tiny terminal degrades to the flat list and never throws", () => {
  for (const [w, h] of [[20, 5], [1, 1], [0, 0], [30, 3], [200, 2]]) {
    const model = start("watch", w, h);
    const lines = view(model);
    assert(lines.length <= h, `${w}x${h}`);
    for (const line of lines) assert(displayWidth(stripAnsi(line)) <= Math.max(w, 1) + 1, line);
  }
});

Deno.test("watch U34, U35: grouped by repo when wide, headers unselectable; j/k wrap; g, p, q", () => {
  let model = start("watch", 100, 20);
  const entries = entriesOf(model);
  assertEquals(
    entries.map((e) => e.kind === "header" ? `▸ ${e.label}` : e.row.pane),
    ["▸ web", "%4", "▸ tma", "%2", "%3", "▸ (no repo)", "%1"],
  );
  assertEquals(model.list.selected, "%4");
  [model] = step(model, key("char", "k"));
  assertEquals(model.list.selected, "%1", "k wraps to the last row, over the headers");
  [model] = step(model, key("char", "j"));
  assertEquals(model.list.selected, "%4");
  assertEquals(step(model, key("enter"))[1], [{ type: "jump", pane: "%4" }], "the watch stays");
  assertEquals(step(model, key("char", "a"))[1], [{ type: "menu", pane: "%4" }]);
  assertEquals(step(model, key("char", "q"))[1], [{ type: "quit" }]);
  [model] = step(model, key("char", "g"));
  assertEquals(entriesOf(model).every((e) => e.kind === "row"), true, "g: flat");
  [model] = step(model, key("char", "p"));
  assertEquals(model.table, true);
  assertMatch(stripAnsi(view(model)[1]), /AGENT\s+STATE/);
  const narrow = start("watch", 60, 20);
  assert(entriesOf(narrow).every((e) => e.kind === "row"), "narrow bodies do not group");
});

Deno.test("watch U33: the table's gauge is a bar with its percent, dimmed when stale", () => {
  assertEquals(stripAnsi(gauge(50, { stale: false })), "████░░░░  50%");
  assert(gauge(90, { stale: false }).includes("\x1b[31m"), "red from 85");
  assert(gauge(90, { stale: true }).startsWith("\x1b[2m"), "dim when stale");
  assertEquals(gauge(null, { stale: false }).trim(), "", "absence, never 0");
  const rows = [
    row("%1", {
      context: 63,
      context_at_ms: NOW,
      model: "claude-opus-4",
      quota: 72,
      quota_window: "five_hour",
      quota_resets_at_ms: NOW + 7_200_000,
      cost_usd: 1.5,
      tokens: 45_000,
    }),
  ];
  const model = step(
    initSurface({
      kind: "watch",
      width: 160,
      height: 10,
      nowMs: NOW,
      styles: defaultConfig().picker,
      table: true,
    }),
    { type: "rows", rows, nowMs: NOW, fresh: true },
  )[0];
  const text = view(model).map(stripAnsi).join("\n");
  assertMatch(text, /█████░░░\s+63%/);
  assertMatch(text, /72% 5h in 2h/);
  assertMatch(text, /\$1\.50/);
  assertMatch(text, /45k/);
  assertMatch(text, /claude-opus-4/);
});

Deno.test("refresh gate: one refresh in flight, a burst of ticks and nudges leaves one more", () => {
  let [gate, go] = gateRequest(openGate());
  assert(go);
  [gate, go] = gateRequest(gate);
  assert(!go);
  [gate, go] = gateRequest(gate);
  assert(!go);
  [gate, go] = gateSettled(gate);
  assert(go, "the pending one starts");
  [gate, go] = gateSettled(gate);
  assert(!go && !gate.inFlight);
  // Through the update function: a tick asks for a refresh, a second waits.
  let model = start("watch");
  let effects: Effect[];
  [model, effects] = step(model, { type: "tick", nowMs: NOW });
  assertEquals(effects, [{ type: "refresh" }]);
  [model, effects] = step(model, { type: "nudge", nowMs: NOW });
  assertEquals(effects, []);
  [, effects] = step(model, { type: "rows", rows: ROWS, nowMs: NOW, fresh: true });
  assert(effects.some((e) => e.type === "refresh"), "the nudge's refresh runs next");
});

Deno.test("cutAnsi() keeps colours, cuts by display width, and resets", () => {
  assertEquals(cutAnsi("\x1b[31mred text\x1b[0m", 3), "\x1b[31mred\x1b[0m");
  assertEquals(cutAnsi("日本語", 5), "日本\x1b[0m");
  assertEquals(cutAnsi("a\x1b]0;title\x07b", 5), "ab\x1b[0m");
});

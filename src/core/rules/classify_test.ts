import { deepStrictEqual, strictEqual } from "node:assert/strict";
import { parseAgentManifest } from "../manifest/parse.ts";
import { classifyScreen, SLOT_ORDER } from "./classify.ts";

function manifest(rules: string): ReturnType<typeof parseAgentManifest> {
  const text = [
    'min_engine_version = "0.1"',
    "[identity]",
    'process_names = ["mycli"]',
    "[capture]",
    rules,
  ].join("\n");
  return parseAgentManifest(text, { path: "mycli.toml", stem: "mycli" });
}

const RULES = `
[[rules]]
state = "idle"
priority = 5
region = "tail_lines(3)"
match = { contains = "> " }

[[rules]]
state = "working"
priority = 1
region = "visible"
match = { contains = "esc to cancel" }

[[rules]]
state = "working"
priority = 9
region = "title"
match = { regex = "^[\\u2800-\\u28FF]" }

[[rules]]
state = "blocked"
detail = "permission"
region = "visible"
match = { contains = "Allow once" }

[[rules]]
state = "idle"
priority = 90
region = "visible"
skip_state_update = true
match = { contains = "Showing transcript" }
`;

Deno.test("D16: slot order is blocked, then working, then idle", () => {
  deepStrictEqual(SLOT_ORDER, ["blocked", "working", "idle"]);
  const m = manifest(RULES);
  const r = classifyScreen(m, { capture: "Allow once\nesc to cancel\n> \n", title: "⠋ x" });
  strictEqual(r.best?.index, 3);
  strictEqual(r.best?.state, "blocked");
  strictEqual(r.best?.detail, "permission");
  deepStrictEqual(r.verdict, { kind: "claim", rule: r.best });
});

Deno.test("D16: an idle composer on screen mid-turn loses to working chrome", () => {
  const r = classifyScreen(manifest(RULES), { capture: "esc to cancel\n> \n", title: "" });
  strictEqual(r.best?.state, "working");
  strictEqual(r.results[0].matched, true);
});

Deno.test("D16: within a slot the higher priority wins", () => {
  const r = classifyScreen(manifest(RULES), { capture: "esc to cancel\n", title: "⠙ task" });
  strictEqual(r.best?.index, 2);
  strictEqual(r.best?.priority, 9);
});

Deno.test("D16: equal priority in a slot keeps the rule written first", () => {
  const m = manifest(`
[[rules]]
state = "idle"
region = "visible"
match = { contains = "a" }

[[rules]]
state = "idle"
region = "visible"
match = { contains = "a" }
`);
  strictEqual(classifyScreen(m, { capture: "a\n", title: "" }).best?.index, 0);
});

Deno.test("D15: a matched skip_state_update rule reports a history view and freezes", () => {
  const r = classifyScreen(manifest(RULES), {
    capture: "esc to cancel\nShowing transcript\n",
    title: "",
  });
  strictEqual(r.historyView?.index, 4);
  strictEqual(r.historyView?.skipStateUpdate, true);
  // The history view is no claim: best is the live chrome's claim.
  strictEqual(r.best?.state, "working");
  deepStrictEqual(r.verdict, { kind: "freeze", rule: r.historyView });
});

Deno.test("classifyScreen() reports every rule tried, in manifest order", () => {
  const r = classifyScreen(manifest(RULES), { capture: "nothing here\n", title: "" });
  deepStrictEqual(r.results.map((x) => x.index), [0, 1, 2, 3, 4]);
  deepStrictEqual(r.results.map((x) => x.matched), [false, false, false, false, false]);
  deepStrictEqual(r.results.map((x) => x.region), [
    "tail_lines(3)",
    "visible",
    "title",
    "visible",
    "visible",
  ]);
  strictEqual(r.results[3].label, "rules[3] blocked/permission");
  strictEqual(r.best, null);
  strictEqual(r.historyView, null);
  deepStrictEqual(r.verdict, { kind: "none" });
});

Deno.test("D26: colour is never a signal: escapes are stripped before matching", () => {
  const r = classifyScreen(manifest(RULES), {
    capture: "\x1b[38;5;174mesc to\x1b[39m to cancel\nesc \x1b[1mto cancel\x1b[0m\n",
    title: "",
  });
  strictEqual(r.results[1].matched, true);
});

Deno.test("D27: visible keeps prior-turn scrollback out of a rule", () => {
  const r = classifyScreen(manifest(RULES), {
    capture: "Allow once\nold turn\n> \n",
    title: "",
    height: 2,
  });
  strictEqual(r.results[3].matched, false);
  strictEqual(r.best?.state, "idle");
});

Deno.test("M22: rule details are folded through [details] aliases at load", () => {
  const m = manifest(`
[[rules]]
state = "working"
detail = "ratelimit"
region = "visible"
match = { contains = "limit" }

[details]
rate_limit = { aliases = ["ratelimit"] }
`);
  strictEqual(classifyScreen(m, { capture: "limit\n", title: "" }).best?.detail, "rate_limit");
});

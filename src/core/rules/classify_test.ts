import { assertEquals, assertStrictEquals } from "../../../tests/harness/assert.ts";
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

Deno.test("classifyScreen() D16: slot order is blocked, then working, then idle", () => {
  assertEquals(SLOT_ORDER, ["blocked", "working", "idle"]);
  const m = manifest(RULES);
  const r = classifyScreen(m, { capture: "Allow once\nesc to cancel\n> \n", title: "⠋ x" });
  assertStrictEquals(r.best?.index, 3);
  assertStrictEquals(r.best?.state, "blocked");
  assertStrictEquals(r.best?.detail, "permission");
  assertEquals(r.verdict, { kind: "claim", rule: r.best! });
});

Deno.test("classifyScreen() D16: an idle composer on screen mid-turn loses to working chrome", () => {
  const r = classifyScreen(manifest(RULES), { capture: "esc to cancel\n> \n", title: "" });
  assertStrictEquals(r.best?.state, "working");
  assertStrictEquals(r.results[0].matched, true);
});

Deno.test("classifyScreen() D16: within a slot the higher priority wins", () => {
  const r = classifyScreen(manifest(RULES), { capture: "esc to cancel\n", title: "⠙ task" });
  assertStrictEquals(r.best?.index, 2);
  assertStrictEquals(r.best?.priority, 9);
});

Deno.test("classifyScreen() D16: equal priority in a slot keeps the rule written first", () => {
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
  assertStrictEquals(classifyScreen(m, { capture: "a\n", title: "" }).best?.index, 0);
});

Deno.test("classifyScreen() D15: a matched skip_state_update rule reports a history view and freezes", () => {
  const r = classifyScreen(manifest(RULES), {
    capture: "esc to cancel\nShowing transcript\n",
    title: "",
  });
  assertStrictEquals(r.historyView?.index, 4);
  assertStrictEquals(r.historyView?.skipStateUpdate, true);
  // The history view is no claim: best is the live chrome's claim.
  assertStrictEquals(r.best?.state, "working");
  assertEquals(r.verdict, { kind: "freeze", rule: r.historyView! });
});

Deno.test("classifyScreen() reports every rule tried, in manifest order", () => {
  const r = classifyScreen(manifest(RULES), { capture: "nothing here\n", title: "" });
  assertEquals(r.results.map((x) => x.index), [0, 1, 2, 3, 4]);
  assertEquals(r.results.map((x) => x.matched), [false, false, false, false, false]);
  assertEquals(r.results.map((x) => x.region), [
    "tail_lines(3)",
    "visible",
    "title",
    "visible",
    "visible",
  ]);
  assertStrictEquals(r.results[3].label, "rules[3] blocked/permission");
  assertStrictEquals(r.best, null);
  assertStrictEquals(r.historyView, null);
  assertEquals(r.verdict, { kind: "none" });
});

Deno.test("classifyScreen() D26: colour is never a signal: escapes are stripped before matching", () => {
  const r = classifyScreen(manifest(RULES), {
    capture: "\x1b[38;5;174mesc to\x1b[39m to cancel\nesc \x1b[1mto cancel\x1b[0m\n",
    title: "",
  });
  assertStrictEquals(r.results[1].matched, true);
});

Deno.test("classifyScreen() D27: visible keeps prior-turn scrollback out of a rule", () => {
  const r = classifyScreen(manifest(RULES), {
    capture: "Allow once\nold turn\n> \n",
    title: "",
    height: 2,
  });
  assertStrictEquals(r.results[3].matched, false);
  assertStrictEquals(r.best?.state, "idle");
});

Deno.test("classifyScreen() M22: rule details are folded through [details] aliases at load", () => {
  const m = manifest(`
[[rules]]
state = "working"
detail = "ratelimit"
region = "visible"
match = { contains = "limit" }

[details]
rate_limit = { aliases = ["ratelimit"] }
`);
  assertStrictEquals(
    classifyScreen(m, { capture: "limit\n", title: "" }).best?.detail,
    "rate_limit",
  );
});

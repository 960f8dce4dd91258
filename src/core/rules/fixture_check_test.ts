import { assertEquals } from "../../../tests/harness/assert.ts";
import { parseAgentManifest } from "../manifest/parse.ts";
import { checkScreenFile, ruleDescriptor } from "./fixture_check.ts";
import { parseScreenFile } from "./screen_file.ts";

const manifest = parseAgentManifest(
  `min_engine_version = "0.1"
[identity]
process_names = ["mycli"]
[capture]

[[rules]]
state = "working"
priority = 10
region = "visible"
match = { contains = "esc to cancel" }

[[rules]]
state = "idle"
region = "visible"
skip_state_update = true
match = { contains = "History" }
`,
  { path: "mycli.toml", stem: "mycli" },
);

function fixture(headers: string[], screen: string) {
  return parseScreenFile(
    ["# agent: mycli", ...headers, "---", screen].join("\n") + "\n",
    "t.txt",
  );
}

Deno.test("ruleDescriptor() spells state, detail, priority and history", () => {
  assertEquals(manifest.rules.map(ruleDescriptor), ["working@10", "idle@0 history"]);
});

Deno.test("checkScreenFile() passes a fixture that holds", () => {
  const f = fixture(
    ["# state: working", "# rule: 0 working@10", "# not-rule: 1"],
    "(esc to cancel)",
  );
  assertEquals(checkScreenFile(manifest, f), []);
});

Deno.test("checkScreenFile() names a wrong state, a silent pin, a stale descriptor and a loud not-rule", () => {
  const f = fixture(
    ["# state: idle", "# rule: 0 working@70", "# rule: 1", "# not-rule: 0", "# rule: 7"],
    "(esc to cancel)",
  );
  assertEquals(checkScreenFile(manifest, f), [
    "marked idle, but the screen claims working (rules[0] working)",
    'pins rule 0 as "working@70", but it is "working@10"',
    "rule 1 (idle@0 history) did not match",
    "pins rule 7, which does not exist",
    "rule 0 (working@10) matched",
  ]);
});

Deno.test("checkScreenFile(): unknown forbids a blocked or working claim only", () => {
  assertEquals(checkScreenFile(manifest, fixture(["# state: unknown"], "History")), []);
  assertEquals(checkScreenFile(manifest, fixture(["# state: unknown"], "nothing")), []);
  assertEquals(checkScreenFile(manifest, fixture(["# state: unknown"], "esc to cancel")), [
    "marked unknown, but the screen claims working (rules[0] working)",
  ]);
});

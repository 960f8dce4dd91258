/**
 * Issue 13 item 1 (R10, R11): no manifest pattern can hang tma. A user
 * manifest whose rule or hook matcher backtracks catastrophically in a
 * backtracking engine (`(a+)+$` against forty `a` and a `!`) must leave
 * `tma status` and `tma event` as quick as any other pattern: user patterns
 * run on a linear-time engine, and the bundled ones are vetted when they are
 * embedded.
 * @module
 */
import { assert, assertEquals, assertStringIncludes } from "./harness/assert.ts";
import { agentOptions, fireHook, quietPane } from "./harness/hook.ts";
import { runTma, type ScratchTmux, tmuxTest } from "./harness/tmux.ts";

/** Far above a normal run, far below what the backtracking pattern takes (hours). */
const DEADLINE_MS = 20_000;

const CATASTROPHIC = "(a+)+$";

async function writeAgent(scratch: ScratchTmux, name: string, text: string): Promise<string> {
  const dir = `${scratch.home}/.config/tma/agents`;
  await Deno.mkdir(dir, { recursive: true });
  const path = `${dir}/${name}.toml`;
  await Deno.writeTextFile(path, text);
  return path;
}

const HOSTILE = `min_engine_version = "0.1.0"
[identity]
process_names = ["hostile"]
[hooks]
covers = ["working", "idle"]
[[hooks.map]]
event = "Go"
matcher = '${CATASTROPHIC}'
claim = { state = "working" }
[capture]
visible = ["working"]
[[rules]]
state = "working"
priority = 10
region = "visible"
match = { line_regex = '${CATASTROPHIC}' }
`;

tmuxTest("tma status R11: a catastrophic user line_regex does not hang the cycle", async (t) => {
  await writeAgent(t, "hostile", HOSTILE);
  const agent = await t.standIn("hostile");
  await agent.draw(`${"a".repeat(40)}!\n`);
  const ran = await runTma(t, ["status", "--format", "plain"], { deadlineMs: DEADLINE_MS });
  assert(!ran.timedOut, `tma status was still running after ${DEADLINE_MS} ms`);
  assertEquals(ran.code, 0, ran.stderr);
});

tmuxTest("tma event R10: a catastrophic user hook matcher does not hang the hook", async (t) => {
  await writeAgent(t, "hostile", HOSTILE);
  const pane = await quietPane(t);
  const fired = await fireHook(t, {
    agent: "hostile",
    event: "Go",
    pane,
    stdin: `{"session_id":"s1","text":"${"a".repeat(40)}!"}`,
    deadlineMs: DEADLINE_MS,
  });
  assert(!fired.timedOut, `tma-hook was still running after ${DEADLINE_MS} ms`);
  assertEquals(fired.code, 0);
  assertEquals(fired.stdout, "");
  // The matcher did not match (no `a` run at the very end), so nothing was stamped.
  assertEquals((await agentOptions(t, pane))["@agent_state"], undefined);
});

tmuxTest(
  "tma status M3: a user pattern the linear engine cannot run is refused with its file and key",
  async (t) => {
    const path = await writeAgent(
      t,
      "hostile",
      HOSTILE.replace(`line_regex = '${CATASTROPHIC}'`, "line_regex = '(a)\\1'"),
    );
    await t.standIn("hostile");
    const ran = await runTma(t, ["status", "--format", "plain"], { deadlineMs: DEADLINE_MS });
    assertEquals(ran.code, 0, ran.stderr);
    assertStringIncludes(ran.stderr, path);
    assertStringIncludes(ran.stderr, "rules[0].match.line_regex");
    assertStringIncludes(ran.stderr, "backreference");
  },
);

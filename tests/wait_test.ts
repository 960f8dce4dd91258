/**
 * `tma wait` against a scratch server with stand-in agents (C34-C42, P59):
 * one test per exit code (0, 124, 3, 4, 2, 1), `--since` refusing an
 * episode that is not newer, the `agents` document of `--all` and
 * `--count`, a wait that sees a change, and the never-an-agent hint.
 * @module
 */
import { assert, assertEquals, assertStringIncludes } from "./harness/assert.ts";
import { fireFixture, registeredPane, tmaScript } from "./harness/hook.ts";
import { screen } from "./harness/recorder.ts";
import { runTma, type ScratchTmux, startTma, tmuxTest } from "./harness/tmux.ts";
import { ROW_KEYS } from "../src/core/rows.ts";

const IDLE = screen("claude_idle_fresh_w120");
const WORKING = screen("claude_working_spinner_w120");
const BLOCKED = screen("claude_blocked_bash_w120");

async function idleAgent(t: ScratchTmux) {
  const agent = await t.standIn("claude");
  await agent.draw(IDLE.capture, IDLE.title);
  return agent;
}

/** Waits until the running wait has done at least one cycle (the stamp exists). */
async function cycled(t: ScratchTmux, pane: string): Promise<void> {
  await t.waitFor(async () => (await t.option(pane, "@agent_state")) !== "", 10_000);
  await new Promise((r) => setTimeout(r, 300));
}

tmuxTest(
  "tma wait C42 exit 0 P59: a pane already idle returns at once; --json is the ls row plus schema",
  async (t) => {
    const agent = await idleAgent(t);
    const plain = await runTma(t, ["wait", "--pane", agent.pane, "--until", "idle"]);
    assertEquals(plain.code, 0, plain.stderr);
    const ls = await runTma(t, ["ls", "--pane", agent.pane]);
    assertEquals(plain.stdout.split("\t").slice(0, 3), ls.stdout.split("\t").slice(0, 3));
    const json = await runTma(t, ["wait", "--pane", agent.pane, "--until", "idle,done", "--json"]);
    assertEquals(json.code, 0, json.stderr);
    const row = JSON.parse(json.stdout);
    assertEquals(Object.keys(row), ["schema", ...ROW_KEYS]);
    assertEquals([row.schema, row.pane, row.state], [1, agent.pane, "idle"]);
  },
);

tmuxTest("tma wait C37 C42 exit 124: --timeout gives up with nothing on stdout", async (t) => {
  const agent = await idleAgent(t);
  const started = Date.now();
  const ran = await runTma(t, [
    "wait",
    "--pane",
    agent.pane,
    "--until",
    "blocked",
    "--timeout",
    "1.5",
  ]);
  assertEquals([ran.code, ran.stdout], [124, ""]);
  assert(Date.now() - started >= 1500);
});

tmuxTest("tma wait C34 C42 exit 3: the watched pane vanished", async (t) => {
  const agent = await idleAgent(t);
  const wait = startTma(t, ["wait", "--pane", agent.pane, "--until", "blocked"]);
  await cycled(t, agent.pane);
  await t.tmux("kill-pane", "-t", agent.pane);
  const ran = await wait.done;
  assertEquals(ran.code, 3, ran.stderr);
  assertStringIncludes(ran.stderr, "vanished");
  assertEquals(ran.stdout, "");
});

tmuxTest("tma wait C41 C42 exit 4: the agent died while its pane lived", async (t) => {
  // A hook-registered agent whose session ends: the row goes, the pane stays.
  const bin = await tmaScript(t);
  const pane = await registeredPane(t, bin);
  const fire = (event: string) => fireFixture(t, { pane, bin }, event);
  await fire("UserPromptSubmit");
  const wait = startTma(t, ["wait", "--pane", pane, "--until", "idle"]);
  await new Promise((r) => setTimeout(r, 1500));
  await fire("SessionEnd");
  const ran = await wait.done;
  assertEquals(ran.code, 4, ran.stderr);
  assertStringIncludes(ran.stderr, "is gone (the pane lives)");
});

tmuxTest(
  "tma wait C41 C42 exit 4: an agent whose process ended in a pane kept by remain-on-exit",
  async (t) => {
    const agent = await idleAgent(t);
    await t.tmux("set-option", "-p", "-t", agent.pane, "remain-on-exit", "on");
    const wait = startTma(t, ["wait", "--pane", agent.pane, "--until", "blocked"]);
    await cycled(t, agent.pane);
    await agent.exit();
    const ran = await wait.done;
    assertEquals(ran.code, 4, ran.stderr);
  },
);

tmuxTest("tma wait C42 exit 2: usage errors name the flag", async (t) => {
  const agent = await idleAgent(t);
  const cases: [string[], string][] = [
    [["wait", "--until", "idle"], "wait needs a target"],
    [["wait", "--any"], "--until"],
    [["wait", "--any", "--until", "nonsense"], '--until: unknown state "nonsense"'],
    [["wait", "--pane", agent.pane, "--session", "main", "--until", "idle"], "--pane"],
    [["wait", "--pane", agent.pane, "--agent", "claude", "--until", "idle"], "--pane"],
    [["wait", "--any", "--all", "--until", "idle"], "--any and --all"],
    [["wait", "--count", "0", "--until", "idle"], "--count"],
    [["wait", "--any", "--until", "idle", "--since", "yesterday"], "--since"],
    [["wait", "--any", "--until", "idle", "--timeout", "soon"], "--timeout"],
    [
      ["wait", "--all", "--session", "nosuch", "--until", "idle"],
      "wait --all: no agent pane is in scope",
    ],
  ];
  for (const [args, says] of cases) {
    const ran = await runTma(t, args);
    assertEquals(ran.code, 2, `${args.join(" ")}: ${ran.stderr}`);
    assertStringIncludes(ran.stderr, says);
    assertEquals(ran.stdout, "");
  }
});

tmuxTest("tma wait C34 C42 exit 1: an ambiguous --agent, and no server", async (t) => {
  await idleAgent(t);
  await idleAgent(t);
  const ambiguous = await runTma(t, ["wait", "--agent", "claude", "--until", "idle"]);
  assertEquals(ambiguous.code, 1, ambiguous.stderr);
  assertStringIncludes(ambiguous.stderr, "matches 2 panes");
  const noServer = await runTma(t, [
    "--socket-name",
    `tma-test-none-${crypto.randomUUID().slice(0, 6)}`,
    "wait",
    "--any",
    "--until",
    "idle",
  ]);
  assertEquals(noServer.code, 1, noServer.stderr);
  assertStringIncludes(noServer.stderr, "no tmux server");
});

tmuxTest(
  "tma wait C36: --since ignores an episode that is not newer, and takes one that is",
  async (t) => {
    const agent = await idleAgent(t);
    const [row] = JSON.parse((await runTma(t, ["ls", "--json"])).stdout).agents;
    const episode = row.episode_ms as number;
    const notNewer = await runTma(t, [
      "wait",
      "--pane",
      agent.pane,
      "--until",
      "idle",
      "--since",
      String(episode),
      "--timeout",
      "1.5",
    ]);
    assertEquals([notNewer.code, notNewer.stdout], [124, ""]);
    const older = await runTma(t, [
      "wait",
      "--any",
      "--until",
      "idle",
      "--since",
      String(episode - 1),
      "--timeout",
      "5",
    ]);
    assertEquals(older.code, 0, older.stderr);
  },
);

tmuxTest(
  "tma wait C38: --all and --count emit the agents document of the satisfied rows",
  async (t) => {
    const a = await idleAgent(t);
    const b = await idleAgent(t);
    for (const target of [["--all"], ["--count", "2"]]) {
      const ran = await runTma(t, ["wait", ...target, "--until", "idle", "--json"]);
      assertEquals(ran.code, 0, ran.stderr);
      const doc = JSON.parse(ran.stdout);
      assertEquals(Object.keys(doc), ["schema", "agents"]);
      assertEquals(doc.agents.map((r: { pane: string }) => r.pane).sort(), [a.pane, b.pane].sort());
    }
    const short = await runTma(t, ["wait", "--count", "3", "--until", "idle", "--timeout", "1"]);
    assertEquals(short.code, 124);
  },
);

tmuxTest("tma wait C35 C40: --any sees a pane reach the target on a later cycle", async (t) => {
  const agent = await t.standIn("claude");
  await agent.draw(WORKING.capture, WORKING.title);
  const wait = startTma(t, ["wait", "--any", "--until", "blocked", "--json", "--timeout", "20"]);
  await cycled(t, agent.pane);
  assertEquals(wait.stdout(), "");
  await agent.draw(BLOCKED.capture, BLOCKED.title);
  const ran = await wait.done;
  assertEquals(ran.code, 0, ran.stderr);
  const row = JSON.parse(ran.stdout);
  assertEquals([row.pane, row.state, row.detail], [agent.pane, "blocked", "permission"]);
});

tmuxTest(
  "tma wait C41: a pane that never carried an agent waits, hinting once on stderr",
  async (t) => {
    const plain = await t.newWindow(["sh", "-c", "sleep 3600"]);
    const ran = await runTma(t, ["wait", "--pane", plain, "--until", "idle", "--timeout", "2.5"]);
    assertEquals(ran.code, 124);
    assertEquals(ran.stderr.trim().split("\n").length, 1, ran.stderr);
    assertStringIncludes(ran.stderr, `pane ${plain} has no agent`);
  },
);

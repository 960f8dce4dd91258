/**
 * Detection end to end on a scratch tmux server: stand-in agents of all six
 * kinds draw blocked, working and idle screens (our own fixtures), and
 * `tma ls --json` must list each with the state the screen shows.
 */
import { assert, assertEquals } from "./harness/assert.ts";
import { countingTmux, runTma, type ScratchTmux, tmuxTest } from "./harness/tmux.ts";
import { parseScreenFile, type ScreenFile } from "../src/core/rules/screen_file.ts";
import { ROW_KEYS } from "../src/core/rows.ts";

const SCREENS = new URL("../fixtures/screens/", import.meta.url);

/** How each stand-in is started so identity sees what the real agent shows. */
const STAND_INS: Record<string, { name: string; title?: string }> = {
  claude: { name: "claude" },
  codex: { name: "codex" },
  gemini: { name: "node", title: "◇  Ready (proj)" },
  opencode: { name: "opencode" },
  cursor: { name: "node", title: "Cursor Agent" },
  pi: { name: "pi" },
};

async function fixture(name: string): Promise<ScreenFile> {
  return parseScreenFile(await Deno.readTextFile(new URL(name, SCREENS)), name);
}

/** The first fixture of an agent and state, preferring the narrow width. */
async function pick(agent: string, state: string): Promise<ScreenFile | null> {
  const names: string[] = [];
  for await (const entry of Deno.readDir(SCREENS)) names.push(entry.name);
  names.sort((a, b) =>
    (a.includes("_w80") ? -1 : 0) - (b.includes("_w80") ? -1 : 0) || a.localeCompare(b)
  );
  for (const name of names) {
    if (!name.startsWith(`${agent}_${state}_`)) continue;
    const file = await fixture(name);
    if (file.state === state) return file;
  }
  return null;
}

async function writeConfig(t: ScratchTmux, text: string): Promise<void> {
  await Deno.mkdir(`${t.home}/.config/tma`, { recursive: true });
  await Deno.writeTextFile(`${t.home}/.config/tma/config.toml`, text);
}

interface Row {
  pane: string;
  agent: string;
  state: string;
  detail: string | null;
  attention: boolean;
  [key: string]: unknown;
}

async function ls(t: ScratchTmux, ...args: string[]): Promise<Row[]> {
  const out = await runTma(t, ["ls", "--json", ...args]);
  assertEquals(out.code, 0, out.stderr);
  const doc = JSON.parse(out.stdout);
  assertEquals(doc.schema, 1);
  return doc.agents;
}

for (const agent of Object.keys(STAND_INS)) {
  tmuxTest(
    `tma ls D10: a ${agent} stand-in is listed blocked, working and idle as its screen shows`,
    async (t) => {
      await writeConfig(t, "[fold]\ndwell_secs = 0\n");
      const spec = STAND_INS[agent];
      const standIn = await t.standIn(spec.name, { width: 120, height: 40, title: spec.title });
      for (const state of ["blocked", "working", "idle"]) {
        const screen = await pick(agent, state);
        if (!screen) {
          assert(agent === "pi" && state === "blocked", `no ${agent} ${state} fixture`);
          continue;
        }
        await t.tmux(
          "resize-window",
          "-t",
          standIn.pane,
          "-x",
          "120",
          "-y",
          String(screen.height ?? 40),
        );
        await standIn.draw(screen.capture.replace(/\n$/, ""), spec.title ?? screen.title);
        const rows = await ls(t, "--pane", standIn.pane);
        assertEquals(rows.length, 1, `${agent} ${state}: ${JSON.stringify(rows)}`);
        assertEquals([rows[0].agent, rows[0].state], [agent, state]);
      }
    },
  );
}

tmuxTest(
  "tma ls C18, P38: a plain shell pane is not listed; rows carry exactly the schema-1 keys",
  async (t) => {
    const standIn = await t.standIn("claude");
    const screen = (await pick("claude", "idle"))!;
    await standIn.draw(screen.capture.replace(/\n$/, ""), screen.title);
    const rows = await ls(t);
    assertEquals(rows.map((r) => r.pane), [standIn.pane]);
    assertEquals(Object.keys(rows[0]), [...ROW_KEYS]);
    const shellPane = (await t.tmux("display", "-p", "-t", "main:0", "#{pane_id}")).trim();
    assertEquals(await ls(t, "--pane", shellPane), []);
  },
);

tmuxTest(
  "tma ls D38: @agent_ignore removes a pane and its stamps; D40: an exited agent loses its stamp",
  async (t) => {
    const a = await t.standIn("claude");
    const b = await t.standIn("opencode");
    const idle = (await pick("claude", "idle"))!;
    await a.draw(idle.capture.replace(/\n$/, ""), idle.title);
    await b.draw((await pick("opencode", "idle"))!.capture.replace(/\n$/, ""));
    assertEquals((await ls(t)).length, 2);
    assertEquals(await t.option(a.pane, "@agent_state"), "idle");
    await t.tmux("set-option", "-p", "-t", a.pane, "@agent_ignore", "1");
    assertEquals((await ls(t)).map((r) => r.pane), [b.pane]);
    assertEquals(await t.option(a.pane, "@agent_state"), "");
    assertEquals(await t.option(a.pane, "@agent_ignore"), "1");
    await b.exit();
    assertEquals(await ls(t), []);
    assertEquals(await t.option(b.pane, "@agent_name"), "");
    assertEquals(await t.option(b.pane, "@agent_stamped_at"), "");
  },
);

tmuxTest("tma ls R12: two concurrent status runs leave consistent options", async (t) => {
  const panes = [];
  for (const agent of ["claude", "codex", "opencode"]) {
    const standIn = await t.standIn(agent);
    const screen = (await pick(agent, "working"))!;
    await standIn.draw(screen.capture.replace(/\n$/, ""), screen.title);
    panes.push(standIn.pane);
  }
  const [one, two] = await Promise.all([
    runTma(t, ["--debug-timing", "status"]),
    runTma(t, ["--debug-timing", "status"]),
  ]);
  assertEquals([one.code, two.code], [0, 0]);
  for (const pane of panes) {
    assertEquals(
      await t.option(pane, "@agent_state"),
      "working",
      `${pane}: ${await t.option(pane, "@agent_name")} ${one.stderr} ${two.stderr}`,
    );
    const since = Number(await t.option(pane, "@agent_since"));
    const stamped = Number(await t.option(pane, "@agent_stamped_at"));
    const evidence = Number(await t.option(pane, "@agent_evidence_at"));
    assert(stamped >= since && stamped >= evidence, `torn stamp on ${pane}`);
    assertEquals(await t.option(pane, "@tma_guard"), "");
  }
  const summary = (await t.tmux("show-options", "-wqv", "-t", panes[0], "@agent_summary"))
    .trim();
  assertEquals(summary, "working:1");
  const sessionSummary =
    (await t.tmux("show-options", "-qv", "-t", "main", "@agent_session_summary")).trim();
  assertEquals(sessionSummary, "working:3");
});

tmuxTest("tma ls C20, C22: status prints counts in tmux and json formats", async (t) => {
  const standIn = await t.standIn("claude");
  const screen = (await pick("claude", "blocked"))!;
  await standIn.draw(screen.capture.replace(/\n$/, ""), screen.title);
  const tmuxFormat = await runTma(t, ["status"]);
  assertEquals(
    tmuxFormat.stdout,
    "#[range=user|tma:blocked]#[fg=red]⚑1#[fg=default]#[norange]",
  );
  const json = await runTma(t, ["status", "--format", "json"]);
  assertEquals(JSON.parse(json.stdout), {
    schema: 1,
    counts: { blocked: 1, working: 0, done: 0, idle: 0, unknown: 0 },
  });
});

tmuxTest("tma ls D54: a quiet cycle captures nothing", async (t) => {
  const standIn = await t.standIn("claude");
  const screen = (await pick("claude", "idle"))!;
  await standIn.draw(screen.capture.replace(/\n$/, ""), screen.title);
  const first = await runTma(t, ["--debug-timing", "ls"]);
  assert(first.stderr.includes("capture 1"), first.stderr);
  // Let the window's activity second fall strictly behind the stamp.
  await new Promise((r) => setTimeout(r, 1100));
  await runTma(t, ["ls"]);
  const counter = await countingTmux(t.dir);
  const before = Date.now();
  const quiet = await runTma(t, ["--debug-timing", "ls"], {
    env: { TMA_TMUX_BIN: counter.bin },
  });
  assert(quiet.stderr.includes("capture 0,"), quiet.stderr);
  assert(quiet.stderr.includes("capture-skipped 1"), quiet.stderr);
  // D52, P35: the listing also leaves the poll mark, and nothing else runs.
  assertEquals(await counter.count(), 1);
  const mark = Number((await t.tmux("show-options", "-sv", "@tma_last_poll")).trim());
  assert(mark >= before && mark <= Date.now(), `@tma_last_poll ${mark}`);
});

tmuxTest(
  "tma status D52, X6: a quiet poll is one tmux call; the daemon's freshness rides the listing",
  async (t) => {
    const standIn = await t.standIn("claude");
    const screen = (await pick("claude", "idle"))!;
    await standIn.draw(screen.capture.replace(/\n$/, ""), screen.title);
    await runTma(t, ["status"]);
    // Let the window's activity second fall strictly behind the stamp.
    await new Promise((r) => setTimeout(r, 1100));
    await runTma(t, ["status"]);
    await new Promise((r) => setTimeout(r, 1000 - (Date.now() % 1000) + 5));
    const counter = await countingTmux(t.dir);
    const quiet = await runTma(t, ["--debug-timing", "status"], {
      env: { TMA_TMUX_BIN: counter.bin },
    });
    assert(quiet.stderr.includes("capture 0,"), quiet.stderr);
    // The tmux status format (the daemon's path, X6) without a daemon: the listing alone.
    assertEquals(await counter.count(), 1);
  },
);

tmuxTest(
  "tma ls D53: a second status cycle in the same wall-clock second reads the stamps as they are",
  async (t) => {
    const standIn = await t.standIn("claude");
    const screen = (await pick("claude", "working"))!;
    await standIn.draw(screen.capture.replace(/\n$/, ""), screen.title);
    await runTma(t, ["status"]);
    // Pretend another client's status line polled a moment ago.
    await t.tmux("set-option", "-s", "@tma_last_poll", String(Date.now()));
    const skipped = await runTma(t, ["--debug-timing", "status", "--format", "json"]);
    assert(skipped.stderr.includes("skipped"), skipped.stderr);
    assertEquals(JSON.parse(skipped.stdout).counts.working, 1);
  },
);

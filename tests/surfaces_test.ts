/**
 * The picker (C1, U29-U32) and the watch (C66-C68, U33-U35, P36) running
 * in a pane of a scratch server: typed at with `send-keys`, read with
 * `capture-pane`, with a real client attached where a jump or a menu needs
 * one.
 */
import { assert, assertEquals, assertMatch } from "./harness/assert.ts";
import { attachClient, clientPane, HAS_SCRIPT } from "./harness/client.ts";
import { screen } from "./harness/recorder.ts";
import { runTma, type ScratchTmux, type StandIn, tmaCommand, tmuxTest } from "./harness/tmux.ts";

/** Starts tma in a new window of `width` x `height` and waits for its first frame. */
async function startTma(
  t: ScratchTmux,
  args: string[],
  options: { width?: number; height?: number; ready?: RegExp; env?: Record<string, string> } = {},
): Promise<string> {
  const env = t.env();
  const command = tmaCommand(t, args);
  const pane = await t.newWindow(["sh", "-c", `${command}; sleep 30`], {
    width: options.width ?? 120,
    height: options.height ?? 30,
    env: {
      HOME: env.HOME,
      XDG_CONFIG_HOME: env.XDG_CONFIG_HOME,
      XDG_STATE_HOME: env.XDG_STATE_HOME,
      TMA_CONFIG: env.TMA_CONFIG,
      DENO_DIR: env.DENO_DIR,
      ...options.env,
    },
  });
  await waitScreen(t, pane, options.ready ?? /agents?\b/);
  return pane;
}

/** The watch's advertised pid, once it is there (never 0: kill(0) signals the group). */
async function watchPid(t: ScratchTmux, pane: string): Promise<number> {
  await t.waitFor(async () => Number(await t.option(pane, "@tma_watch_pid")) > 0, 10000);
  return Number(await t.option(pane, "@tma_watch_pid"));
}

async function shown(t: ScratchTmux, pane: string): Promise<string> {
  return await t.tmux("capture-pane", "-p", "-t", pane);
}

async function waitScreen(t: ScratchTmux, pane: string, pattern: RegExp): Promise<string> {
  let text = "";
  await t.waitFor(async () => pattern.test(text = await shown(t, pane)), 15000).catch(() => {
    throw new Error(`the screen never matched ${pattern}:\n${text}`);
  });
  return text;
}

/** The body lines of the list: those with a glyph first. */
function listed(text: string): string[] {
  return text.split("\n").filter((l) => /^[⚑●○✓?] /.test(l)).map((l) => l.split("│")[0]);
}

async function waitListed(t: ScratchTmux, pane: string, n: number): Promise<void> {
  let text = "";
  await t.waitFor(async () => listed(text = await shown(t, pane)).length === n, 10000).catch(() => {
    throw new Error(`expected ${n} rows listed:\n${text}`);
  });
}

interface Agents {
  blocked: StandIn;
  working: StandIn;
  idle: StandIn;
}

async function agents(t: ScratchTmux): Promise<Agents> {
  const blocked = await t.standIn("claude", { height: 40 });
  await blocked.draw(screen("claude_blocked_bash_w120").capture, "✳ Fix the 日本 parser 🤖");
  const working = await t.standIn("codex", { height: 40 });
  await working.draw(screen("codex_working_stream_w120").capture);
  const idle = await t.standIn("claude", { height: 40 });
  await idle.draw(screen("claude_idle_fresh_w120").capture, "✳ Claude Code");
  const ls = await runTma(t, ["ls"]);
  assertEquals(ls.code, 0, ls.stderr);
  return { blocked, working, idle };
}

tmuxTest(
  "tma picker U29, U30, U32: order, fuzzy filtering, ctrl-s, preview at 76+ only, esc",
  async (t) => {
    const a = await agents(t);
    await t.tmux("new-session", "-d", "-s", "other", "-x", "120", "-y", "40");
    await t.tmux("move-window", "-d", "-s", a.working.pane, "-t", "other:");
    const pane = await startTma(t, [], { width: 120, ready: /3 agents/ });
    let text = await waitScreen(t, pane, /⚑ claude/);
    const order = listed(text).map((l) => l.slice(0, 9));
    assertEquals(order, ["⚑ claude ", "● codex  ", "○ claude "], "blocked, working, idle");
    assert(text.includes("│"), "a preview at 120 columns");
    await waitScreen(t, pane, /Do you want to proceed\?/); // the preview: the highlighted pane
    assertMatch(text, /日本 parser 🤖/, "a wide title does not break the row");
    // Fuzzy: "othr" keeps only the pane in session other.
    await t.tmux("send-keys", "-t", pane, "-l", "other:");
    text = await waitScreen(t, pane, /> other:/);
    await waitListed(t, pane, 1);
    assertMatch(listed(await shown(t, pane))[0], /codex/);
    for (let i = 0; i < 6; i++) await t.tmux("send-keys", "-t", pane, "BSpace");
    await waitListed(t, pane, 3);
    // ctrl-s: the invoking session (main) only.
    await t.tmux("send-keys", "-t", pane, "C-s");
    text = await waitScreen(t, pane, /session main/);
    await waitListed(t, pane, 2);
    await t.tmux("send-keys", "-t", pane, "C-s");
    await waitScreen(t, pane, /all sessions/);
    // A pane that vanishes while shown is dropped at the next refresh.
    await t.tmux("kill-pane", "-t", a.working.pane);
    await waitListed(t, pane, 2);
    await t.tmux("send-keys", "-t", pane, "Escape");
    await t.waitFor(async () => !/3 agents/.test(await shown(t, pane)));
    // Below 76 columns nothing is previewed.
    const narrow = await startTma(t, [], { width: 75, ready: /2 agents/ });
    text = await waitScreen(t, narrow, /⚑ claude/);
    await new Promise((r) => setTimeout(r, 1500));
    assert(!(await shown(t, narrow)).includes("│"), await shown(t, narrow));
    // Far narrower than any layout: the flat list, no crash.
    const tiny = await startTma(t, [], { width: 24, height: 8, ready: /agents/ });
    await waitScreen(t, tiny, /⚑ claude/);
  },
);

tmuxTest(
  "tma picker U30, D60, A38: enter jumps the client and clears attention; tab opens the menu",
  async (t) => {
    const a = await agents(t);
    await t.tmux("set-option", "-p", "-t", a.idle.pane, "@agent_attention", "1");
    const client = await attachClient(t, "main");
    try {
      const pane = await startTma(t, [], { ready: /3 agents/ });
      await t.tmux("select-window", "-t", pane);
      await t.waitFor(async () => (await clientPane(t, client.name)) === pane);
      // Down twice: blocked, working, done (idle with attention).
      await t.tmux("send-keys", "-t", pane, "Down", "Down");
      await new Promise((r) => setTimeout(r, 300));
      await t.tmux("send-keys", "-t", pane, "Enter");
      await t.waitFor(async () => (await clientPane(t, client.name)) === a.idle.pane, 10000);
      assertEquals(await t.option(a.idle.pane, "@agent_attention"), "");
      // tab on the blocked pane opens its action menu on the client.
      const again = await startTma(t, [], { ready: /3 agents/ });
      await t.tmux("select-window", "-t", again);
      await t.waitFor(async () => (await clientPane(t, client.name)) === again);
      const opened = client.waitDrawn("Approve");
      await t.tmux("send-keys", "-t", again, "Tab");
      await opened;
      await t.waitFor(async () => !/3 agents/.test(await shown(t, again)), 10000);
    } finally {
      await client.close();
    }
  },
  { ignore: !HAS_SCRIPT },
);

tmuxTest(
  "tma watch U33, U34, P36: list plus preview, p swaps to the table with its gauge, g groups",
  async (t) => {
    const a = await agents(t);
    const now = Date.now();
    await t.tmux("set-option", "-p", "-t", a.blocked.pane, "@agent_context_pct", "63");
    await t.tmux("set-option", "-p", "-t", a.blocked.pane, "@agent_context_at", String(now));
    await t.tmux("set-option", "-p", "-t", a.blocked.pane, "@agent_model", "claude-opus-4");
    const pane = await startTma(t, ["watch"], { width: 160, ready: /tma watch/ });
    const pid = await watchPid(t, pane);
    assert(pid > 0, "the watch advertises its pid on its own pane");
    let text = await waitScreen(t, pane, /▸ \(no repo\)/);
    assert(text.includes("│"), "a preview beside the list");
    await t.tmux("send-keys", "-t", pane, "p");
    text = await waitScreen(t, pane, /CONTEXT/);
    assertMatch(text, /█████░░░\s+63%/);
    assertMatch(text, /claude-opus-4/);
    await t.tmux("send-keys", "-t", pane, "q");
    await t.waitFor(async () => (await t.option(pane, "@tma_watch_pid")) === "");
  },
);

tmuxTest(
  "tma watch P36: @tma_watch_pid is unset after SIGTERM, and the watch ends with its pane",
  async (t) => {
    await agents(t);
    const pane = await startTma(t, ["watch"], { ready: /tma watch/ });
    const pid = await watchPid(t, pane);
    Deno.kill(pid, "SIGTERM");
    await t.waitFor(async () => (await t.option(pane, "@tma_watch_pid")) === "");
    const second = await startTma(t, ["watch"], { ready: /tma watch/ });
    const pid2 = await watchPid(t, second);
    assert(pid2 > 0 && pid2 !== pid);
    await t.tmux("kill-pane", "-t", second);
    await t.waitFor(() => {
      try {
        Deno.kill(pid2, "SIGCONT");
        return Promise.resolve(false);
      } catch {
        return Promise.resolve(true);
      }
    });
    const left = await t.tmux("list-panes", "-a", "-F", "#{@tma_watch_pid}");
    assertEquals(left.trim().split("\n").filter((l) => l !== ""), [], "no pane advertises a pid");
  },
);

tmuxTest(
  "tma watch U17: a SIGUSR1 nudge refreshes it between ticks",
  async (t) => {
    const a = await agents(t);
    // A tick an hour long: only a nudge can refresh the screen.
    const pane = await startTma(t, ["watch"], {
      width: 100,
      ready: /tma watch/,
      env: { TMA_TEST_REFRESH_MS: "3600000" },
    });
    await waitScreen(t, pane, /⚑/);
    const pid = await watchPid(t, pane);
    // Let the start-up refresh (and any refresh it left pending) finish.
    await new Promise((r) => setTimeout(r, 2000));
    await t.tmux("set-option", "-p", "-t", a.idle.pane, "@agent_attention", "1");
    Deno.kill(pid, "SIGUSR1");
    await waitScreen(t, pane, /✓/);
    await new Promise((r) => setTimeout(r, 1500));
    await t.tmux("set-option", "-p", "-t", a.idle.pane, "-u", "@agent_attention");
    await new Promise((r) => setTimeout(r, 500));
    assert((await shown(t, pane)).includes("✓"), "no refresh without a nudge");
    Deno.kill(pid, "SIGUSR1");
    await t.waitFor(async () => !(await shown(t, pane)).includes("✓"));
  },
);

tmuxTest(
  "tma ls item 8: on a terminal a header, glyphs, ages and trimmed titles; NO_COLOR; none says so",
  async (t) => {
    const empty = await startTma(t, ["ls"], { ready: /no agent panes/ });
    assertMatch(await shown(t, empty), /no agent panes on this tmux server/);
    const a = await t.standIn("claude", { height: 40 });
    await a.draw(screen("claude_blocked_bash_w120").capture, "  ✳ padded title   ");
    const pane = await startTma(t, ["ls"], { ready: /PANE\s+AGENT\s+STATE/ });
    const text = await shown(t, pane);
    assertMatch(
      text,
      /⚑ %\d+\s+claude\s+blocked\/permission\s+\d+s\s+main:\d+\.0\s+.*✳ padded title$/m,
    );
    const coloured = await t.tmux("capture-pane", "-p", "-e", "-t", pane);
    assert(coloured.includes("\x1b[31m⚑"), "the blocked glyph in red");
    const plain = await startTma(t, ["ls"], { ready: /PANE/, env: { NO_COLOR: "1" } });
    const raw = await t.tmux("capture-pane", "-p", "-e", "-t", plain);
    assert(!raw.includes("\x1b[31m"), "NO_COLOR: no colour");
    const piped = await runTma(t, ["ls"]);
    assertEquals(piped.stdout.split("\n")[0].split("\t").length, 12, "piped: the C17 lines");
  },
);

tmuxTest(
  "tma picker C1, C6, U29: in a display-popup, Enter moves the client that opened it",
  async (t) => {
    const a = await agents(t);
    await t.tmux("new-session", "-d", "-s", "other", "-x", "120", "-y", "40");
    const first = await attachClient(t, "main");
    const second = await attachClient(t, "other");
    try {
      const env = t.env();
      const vars = ["HOME", "XDG_CONFIG_HOME", "TMA_CONFIG", "DENO_DIR"].map((k) =>
        `${k}='${env[k]}'`
      );
      await t.tmux(
        "bind-key",
        "-n",
        "F7",
        "display-popup",
        "-E",
        "-w",
        "80%",
        "-h",
        "60%",
        `env ${vars.join(" ")} ${tmaCommand(t, [])}`,
      );
      const opened = second.waitDrawn("3 agents");
      await second.type("\x1b[18~"); // F7 on the client of session other
      await opened;
      await new Promise((r) => setTimeout(r, 300));
      // The first row, the blocked pane: only this client can get there from session other.
      await second.type("\r");
      await t.waitFor(async () => (await clientPane(t, second.name)) === a.blocked.pane, 10000);
    } finally {
      await first.close();
      await second.close();
    }
  },
  { ignore: !HAS_SCRIPT },
);

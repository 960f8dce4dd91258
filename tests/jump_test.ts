/**
 * `tma jump` (C24-C33, C6, D60) on a scratch server with real clients
 * attached under pseudo-terminals: every mode moves the client across
 * sessions and windows, the trail is per client, attention clears on the
 * destination, and `select-window` runs only when the window changes.
 */
import { assert, assertEquals, assertMatch } from "./harness/assert.ts";
import { attachClient, type AttachedClient, clientPane, HAS_SCRIPT } from "./harness/client.ts";
import { screen } from "./harness/recorder.ts";
import { runTma, type ScratchTmux, type StandIn, tmuxTest } from "./harness/tmux.ts";
import {
  attentionOrder,
  blockedOrder,
  focusPlan,
  nextAfter,
  nextInSurfaceOrder,
  parseTrail,
  pickerOrder,
  pushTrail,
  trailBack,
  trailHome,
  trailOption,
} from "../src/core/jump.ts";
import { resolveClient, sessionIdOf } from "../src/core/client.ts";
import { RUN_PERMISSIONS } from "../src/core/permissions.ts";

const row = (
  pane: string,
  state: "idle" | "working" | "blocked" | "unknown",
  options: { attention?: boolean; since?: number; locator?: string } = {},
) => ({
  pane,
  state,
  attention: options.attention ?? false,
  since_ms: options.since ?? 1000,
  episode_ms: options.since ?? 1000,
  locator: options.locator ?? `main:${pane.slice(1)}.0`,
});

Deno.test("jump orders C24, C25, C26: blocked longest first, then done; next wraps", () => {
  const rows = [
    row("%1", "idle", { attention: true, since: 50 }),
    row("%2", "blocked", { since: 300 }),
    row("%3", "blocked", { since: 100 }),
    row("%4", "working"),
    row("%5", "idle"),
  ];
  assertEquals(attentionOrder(rows).map((r) => r.pane), ["%3", "%2", "%1"]);
  assertEquals(blockedOrder(rows)[0].pane, "%3");
  assertEquals(nextAfter(attentionOrder(rows), "%3")?.pane, "%2");
  assertEquals(nextAfter(attentionOrder(rows), "%1")?.pane, "%3", "wraps");
  assertEquals(nextAfter(attentionOrder(rows), "%9")?.pane, "%3", "starts at the first");
  assertEquals(nextAfter([], "%1"), null);
  assertEquals(nextInSurfaceOrder(rows, { pane: "%5", locator: "main:5.0" })?.pane, "%1");
  assertEquals(nextInSurfaceOrder(rows, { pane: "%0", locator: "main:2.5" })?.pane, "%3");
  assertEquals(pickerOrder(rows).map((r) => r.pane), ["%3", "%2", "%4", "%1", "%5"]);
});

Deno.test("jump trail C31: capped at 8, per client key, back skips gone panes, home empties", () => {
  let trail: string[] = [];
  for (let i = 0; i < 10; i++) trail = pushTrail(trail, `%${i}`);
  assertEquals(trail, ["%2", "%3", "%4", "%5", "%6", "%7", "%8", "%9"]);
  assertEquals(pushTrail(["%1"], "%1"), ["%1"], "a repeat of the top is not pushed");
  assertEquals(trailBack(["%1", "%2", "%3"], (p) => p !== "%3", "%9"), {
    target: "%2",
    trail: ["%1"],
  });
  assertEquals(trailBack(["%1"], () => true, "%1"), { target: null, trail: [] });
  assertEquals(trailHome(["%1", "%2"], (p) => p !== "%1"), { target: "%2", trail: [] });
  assertEquals(parseTrail("%1\n%2\n"), ["%1", "%2"]);
  assertMatch(trailOption("/dev/pts/3"), /^@tma_origin_dev_pts_3_[0-9a-f]{6}$/);
  assert(trailOption("/dev/pts/1") !== trailOption("_dev_pts_1"));
});

Deno.test("jump C33: select-window only when the window is not current", () => {
  const target = {
    pane: "%4",
    sessionName: "b",
    windowId: "@2",
    windowActive: true,
    active: false,
  };
  assertEquals(focusPlan("c", "a", target), {
    client: "c",
    target,
    switchClient: true,
    selectWindow: false,
    selectPane: true,
  });
  const there = focusPlan("c", "b", { ...target, active: true });
  assertEquals([there.switchClient, there.selectWindow, there.selectPane], [false, false, false]);
});

Deno.test("client resolution C6: explicit, the pane's client, $TMUX's session, the latest", () => {
  const clients = [
    {
      name: "/p/1",
      sessionName: "a",
      sessionId: "$0",
      pane: "%0",
      activitySec: 5,
      controlMode: false,
    },
    {
      name: "/p/2",
      sessionName: "b",
      sessionId: "$1",
      pane: "%3",
      activitySec: 9,
      controlMode: false,
    },
    {
      name: "ctl",
      sessionName: "a",
      sessionId: "$0",
      pane: "%0",
      activitySec: 99,
      controlMode: true,
    },
  ];
  assertEquals(resolveClient(clients, { explicit: "/p/1" })?.name, "/p/1");
  assertEquals(resolveClient(clients, { explicit: "/p/9" }), null);
  assertEquals(resolveClient(clients, { pane: "%3" })?.name, "/p/2");
  assertEquals(resolveClient(clients, { pane: "%7", paneSession: "a" })?.name, "/p/1");
  assertEquals(resolveClient(clients, { tmux: "/tmp/s,1,0" })?.name, "/p/1");
  assertEquals(
    resolveClient(clients, {})?.name,
    "/p/2",
    "the latest input, never a control client",
  );
  assertEquals(resolveClient([clients[2]], {}), null);
  assertEquals(sessionIdOf("/tmp/s,12,7"), "$7");
  assertEquals(sessionIdOf(undefined), null);
});

/** A scratch fleet: session `main` and session `other`, agents in both. */
interface Fleet {
  blockedOld: StandIn;
  blockedNew: StandIn;
  done: StandIn;
  working: StandIn;
}

async function fleet(t: ScratchTmux): Promise<Fleet> {
  await t.tmux("new-session", "-d", "-s", "other", "-x", "120", "-y", "40");
  const blockedOld = await t.standIn("claude", { height: 40 });
  await blockedOld.draw(screen("claude_blocked_bash_w120").capture);
  await runTma(t, ["ls"]);
  await new Promise((r) => setTimeout(r, 30));
  const blockedNew = await t.standIn("claude", { height: 40 });
  await blockedNew.draw(screen("claude_blocked_bash_w120").capture);
  const done = await t.standIn("claude", { height: 40 });
  await done.draw(screen("claude_idle_fresh_w120").capture, "✳ Claude Code");
  const working = await t.standIn("claude", { height: 40 });
  await working.draw(screen("claude_working_spinner_w120").capture);
  // The newer blocked pane and the working one live in session `other`.
  for (const standIn of [blockedNew, working]) {
    await t.tmux("move-window", "-s", standIn.pane, "-t", "other:");
  }
  const ls = await runTma(t, ["ls"]);
  assertEquals(ls.code, 0, ls.stderr);
  await t.tmux("set-option", "-p", "-t", done.pane, "@agent_attention", "1");
  return { blockedOld, blockedNew, done, working };
}

async function withClients(
  t: ScratchTmux,
  sessions: string[],
  fn: (clients: AttachedClient[]) => Promise<void>,
): Promise<void> {
  const clients: AttachedClient[] = [];
  try {
    for (const session of sessions) clients.push(await attachClient(t, session));
    await fn(clients);
  } finally {
    for (const client of clients) await client.close();
  }
}

async function jumpAs(t: ScratchTmux, client: AttachedClient, ...args: string[]) {
  const out = await runTma(t, ["jump", ...args, "--client", client.name]);
  assertEquals(out.code, 0, out.stderr);
  return out;
}

tmuxTest(
  "tma jump C24, C33, D60: --attention goes blocked-longest, blocked, then done, across sessions",
  async (t) => {
    const f = await fleet(t);
    await withClients(t, ["main"], async ([c]) => {
      await jumpAs(t, c, "--attention");
      assertEquals(await clientPane(t, c.name), f.blockedOld.pane);
      await jumpAs(t, c, "--attention");
      assertEquals(await clientPane(t, c.name), f.blockedNew.pane, "into session other");
      await jumpAs(t, c, "--attention");
      assertEquals(await clientPane(t, c.name), f.done.pane, "back into main");
      assertEquals(await t.option(f.done.pane, "@agent_attention"), "", "D60: attention cleared");
      await jumpAs(t, c, "--attention");
      assertEquals(await clientPane(t, c.name), f.blockedOld.pane, "wraps to the blocked again");
    });
  },
  { ignore: !HAS_SCRIPT },
);

tmuxTest(
  "tma jump C25, C26, C29, C32: --blocked, --next, --pane, and a selector that matches nothing",
  async (t) => {
    const f = await fleet(t);
    await withClients(t, ["other"], async ([c]) => {
      await jumpAs(t, c, "--blocked");
      assertEquals(await clientPane(t, c.name), f.blockedOld.pane);
      await jumpAs(t, c);
      assertEquals(await clientPane(t, c.name), f.done.pane, "--next is the default: main:2 next");
      assertEquals(await t.option(f.done.pane, "@agent_attention"), "1", "--next leaves attention");
      await jumpAs(t, c, "--pane", f.working.pane);
      assertEquals(await clientPane(t, c.name), f.working.pane);
      const none = await jumpAs(t, c, "--attention", "--agent", "codex");
      assertMatch(none.stderr, /nothing in scope is waiting/);
      assertEquals(await clientPane(t, c.name), f.working.pane, "did not move");
      const shell = (await t.tmux("display-message", "-p", "-t", "main:0", "#{pane_id}")).trim();
      const plain = await jumpAs(t, c, "--pane", shell);
      assertMatch(plain.stderr, /runs no agent/);
      const unknown = await runTma(t, ["jump", "--pane", "%999", "--client", c.name]);
      assertEquals(unknown.code, 3);
      assertMatch(unknown.stderr, /no pane %999/);
    });
  },
  { ignore: !HAS_SCRIPT },
);

tmuxTest(
  "tma jump C27, C28, C31: the trail goes back and home per client, with two clients attached",
  async (t) => {
    const f = await fleet(t);
    await withClients(t, ["main", "other"], async ([a, b]) => {
      const startA = await clientPane(t, a.name);
      const startB = await clientPane(t, b.name);
      await jumpAs(t, a, "--pane", f.blockedOld.pane);
      await jumpAs(t, a, "--pane", f.done.pane);
      await jumpAs(t, b, "--pane", f.working.pane);
      await jumpAs(t, a, "--back");
      assertEquals(await clientPane(t, a.name), f.blockedOld.pane);
      await jumpAs(t, b, "--back");
      assertEquals(await clientPane(t, b.name), startB, "b's trail is b's own");
      await jumpAs(t, a, "--pane", f.working.pane);
      await jumpAs(t, a, "--home");
      assertEquals(await clientPane(t, a.name), startA, "home is the oldest entry");
      const empty = await jumpAs(t, a, "--back");
      assertMatch(empty.stderr, /trail is empty/);
    });
  },
  { ignore: !HAS_SCRIPT },
);

tmuxTest(
  "tma jump C33: select-window is not run when the window is already current",
  async (t) => {
    const f = await fleet(t);
    await t.tmux("set-option", "-g", "@changed", "0");
    await t.tmux(
      "set-hook",
      "-g",
      "session-window-changed",
      "run-shell 'tmux -L " + t.socketName + ' set -g @changed "$(( $(tmux -L ' + t.socketName +
        " show -gv @changed) + 1 ))\"'",
    );
    // Split the done pane's window: two agents in one window.
    const split = (await t.tmux(
      "split-window",
      "-d",
      "-P",
      "-F",
      "#{pane_id}",
      "-t",
      f.done.pane,
    )).trim();
    await withClients(t, ["main"], async ([c]) => {
      await jumpAs(t, c, "--pane", f.done.pane);
      await t.waitFor(async () => (await t.tmux("show", "-gv", "@changed")).trim() === "1");
      await t.tmux("select-pane", "-t", split);
      await jumpAs(t, c, "--pane", f.done.pane);
      assertEquals(await clientPane(t, c.name), f.done.pane);
      await new Promise((r) => setTimeout(r, 300));
      assertEquals((await t.tmux("show", "-gv", "@changed")).trim(), "1", "no second change");
    });
  },
  { ignore: !HAS_SCRIPT },
);

tmuxTest(
  "tma jump C6: run-shell, a popup and a plain shell each move their own client",
  async (t) => {
    const f = await fleet(t);
    const mod = new URL("../mod.ts", import.meta.url).pathname;
    const env = t.env();
    const tma =
      `env HOME='${env.HOME}' XDG_CONFIG_HOME='${env.XDG_CONFIG_HOME}' DENO_DIR='${env.DENO_DIR}' ` +
      `TMA_CONFIG='${env.TMA_CONFIG}' '${Deno.execPath()}' run --quiet ${
        RUN_PERMISSIONS.join(" ")
      } '${mod}'`;
    await withClients(t, ["main", "other"], async ([a, b]) => {
      // Each destination is in the client's own session, so the other
      // client (on the other session) must not move at all.
      const startA = await clientPane(t, a.name);
      await t.tmux("bind-key", "-n", "F5", "run-shell", `${tma} jump --pane ${f.blockedNew.pane}`);
      await b.type("\x1b[15~"); // F5, typed on b: run-shell's $TMUX names b's session
      await t.waitFor(async () => (await clientPane(t, b.name)) === f.blockedNew.pane, 15000);
      assertEquals(await clientPane(t, a.name), startA, "a stayed");
      // A popup on a: $TMUX names a's session, and there is no $TMUX_PANE.
      await t.tmux(
        "bind-key",
        "-n",
        "F6",
        "display-popup",
        "-E",
        `${tma} jump --pane ${f.done.pane}`,
      );
      await a.type("\x1b[17~"); // F6, typed on a
      await t.waitFor(async () => (await clientPane(t, a.name)) === f.done.pane, 15000);
      assertEquals(await clientPane(t, b.name), f.blockedNew.pane, "b stayed");
      // A plain shell in a pane of session other: $TMUX_PANE names it, and b
      // is the client on that session.
      const shell =
        (await t.tmux("new-window", "-d", "-P", "-F", "#{pane_id}", "-t", "other:", "sh"))
          .trim();
      await t.tmux("send-keys", "-t", shell, `${tma} jump --pane ${f.working.pane}`, "Enter");
      await t.waitFor(async () => (await clientPane(t, b.name)) === f.working.pane, 15000);
      assertEquals(await clientPane(t, a.name), f.done.pane, "a stayed");
    });
  },
  { ignore: !HAS_SCRIPT },
);

tmuxTest(
  "tma jump --menu C30, U39: every agent but the invoking pane, digits 1-9; an entry jumps there",
  async (t) => {
    const f = await fleet(t);
    await withClients(t, ["main"], async ([c]) => {
      await jumpAs(t, c, "--pane", f.blockedOld.pane);
      const opened = c.waitDrawn("tma: jump");
      const out = await runTma(t, ["jump", "--menu", "--client", c.name], {
        env: { TMUX_PANE: f.blockedOld.pane },
      });
      assertEquals(out.code, 0, out.stderr);
      await opened;
      // Picker order without the invoking pane: blocked (newer), working, done.
      await c.type("3");
      await t.waitFor(async () => (await clientPane(t, c.name)) === f.done.pane, 10000);
      assertEquals(await t.option(f.done.pane, "@agent_attention"), "", "D60 through --pane");
    });
  },
  { ignore: !HAS_SCRIPT },
);

tmuxTest(
  "tma jump C6, C30: no attached client is one clear line and exit 2; an empty menu says no agents",
  async (t) => {
    const none = await runTma(t, ["jump", "--attention"]);
    assertEquals(none.code, 2);
    assertMatch(none.stderr, /^tma: no tmux client is attached to act for/);
    assertEquals(none.stderr.trim().split("\n").length, 1);
    const menu = await runTma(t, ["jump", "--menu"]);
    assertEquals(menu.code, 2, "the menu needs a client");
    await withClients(t, ["main"], async ([c]) => {
      const empty = await runTma(t, ["jump", "--menu", "--client", c.name]);
      assertEquals(empty.code, 0);
      assertMatch(empty.stderr, /no agents/);
      const ghost = await runTma(t, ["jump", "--next", "--client", "/dev/pts/nope"]);
      assertEquals(ghost.code, 2);
      assertMatch(ghost.stderr, /no attached client is named/);
    });
  },
  { ignore: !HAS_SCRIPT },
);

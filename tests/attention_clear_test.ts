/**
 * Attention clearing beyond navigation: by input in the cycle (D58), by the
 * opt-in `pane-focus-in` hook (D59, G19), and the attention-clear hook's
 * SIGUSR1 nudge to watchers (U17).
 */
import { assert, assertEquals, assertMatch } from "./harness/assert.ts";
import { attachClient, clientPane, HAS_SCRIPT } from "./harness/client.ts";
import { screen } from "./harness/recorder.ts";
import { runTma, tmuxTest } from "./harness/tmux.ts";
import { inputCleared } from "../src/core/input_clear.ts";
import { nudgeWatchers } from "../src/runtime/attention.ts";

const client = (pane: string, activitySec: number, controlMode = false) => ({
  name: "c",
  sessionName: "s",
  sessionId: "$0",
  pane,
  activitySec,
  controlMode,
});

Deno.test("input clear D58: an ordering of instants, the shown pane only, no control clients", () => {
  const raised = { pane: "%1", attention: true, since: 1_700_000_000_500, turnAt: null };
  assertEquals(inputCleared([client("%1", 1_700_000_001)], [raised]), ["%1"]);
  assertEquals(inputCleared([client("%1", 1_700_000_000)], [raised]), [], "same second: not later");
  assertEquals(inputCleared([client("%2", 1_700_000_009)], [raised]), [], "another pane");
  assertEquals(inputCleared([client("%1", 1_700_000_009, true)], [raised]), [], "control mode");
  const turned = { ...raised, turnAt: 1_700_000_005_000 };
  assertEquals(inputCleared([client("%1", 1_700_000_003)], [turned]), [], "turn_at is the raise");
});

tmuxTest(
  "tma ls D58: typing at the pane a client shows clears its done mark; a newer raise stays",
  async (t) => {
    const agent = await t.standIn("claude", { height: 40 });
    await agent.draw(screen("claude_idle_fresh_w120").capture, "✳ Claude Code");
    await runTma(t, ["ls"]);
    const attached = await attachClient(t, "main");
    try {
      await t.tmux("select-window", "-t", agent.pane);
      await t.waitFor(async () => (await clientPane(t, attached.name)) === agent.pane);
      // Raised now; an input a second later is an input after the raise.
      await t.tmux("set-option", "-p", "-t", agent.pane, "@agent_attention", "1");
      await t.tmux("set-option", "-p", "-t", agent.pane, "@agent_turn_at", String(Date.now()));
      let ls = await runTma(t, ["ls"]);
      assertMatch(ls.stdout, /\t1\t\t/, "still flagged: no input since the raise");
      await new Promise((r) => setTimeout(r, 1100));
      await attached.type("x");
      await new Promise((r) => setTimeout(r, 100));
      ls = await runTma(t, ["ls"]);
      assertEquals(await t.option(agent.pane, "@agent_attention"), "", ls.stderr);
      // A raise after the last input is not cleared.
      await t.tmux("set-option", "-p", "-t", agent.pane, "@agent_attention", "1");
      await t.tmux(
        "set-option",
        "-p",
        "-t",
        agent.pane,
        "@agent_turn_at",
        String(Date.now() + 5000),
      );
      await runTma(t, ["ls"]);
      assertEquals(await t.option(agent.pane, "@agent_attention"), "1");
    } finally {
      await attached.close();
    }
  },
  { ignore: !HAS_SCRIPT },
);

tmuxTest(
  "tma install-hooks D59, G19: [focus] events adds the pane-focus-in hook; it clears the arrival pane only",
  async (t) => {
    await Deno.mkdir(`${t.home}/.config/tma`, { recursive: true });
    await Deno.writeTextFile(`${t.home}/.config/tma/config.toml`, "[focus]\nevents = true\n");
    const out = await runTma(t, ["install-hooks", "claude", "--yes"]);
    assertEquals(out.code, 0, out.stderr);
    assertMatch(out.stdout, /install-keys/, "item 7: says the hooks do not survive a restart");
    assertMatch(await t.tmux("show-hooks", "-g", "pane-focus-in"), /clear-attention/);
    const check = await runTma(t, ["install-hooks", "--check", "claude"]);
    assertMatch(check.stdout, /pane-focus-in: present/);
    // Two flagged panes; the focus-in hook's kind clears only the arrival one.
    const a = await t.standIn("claude");
    const b = await t.standIn("claude");
    for (const s of [a, b]) await t.tmux("set-option", "-p", "-t", s.pane, "@agent_attention", "1");
    const cleared = await runTma(t, ["clear-attention", a.pane], {
      env: { TMA_HOOK_KIND: "pane-focus-in" },
    });
    assertEquals(cleared.code, 0);
    assertEquals(await t.option(a.pane, "@agent_attention"), "");
    assertEquals(await t.option(b.pane, "@agent_attention"), "1");
    // Turning the option off removes the hook again.
    await Deno.writeTextFile(`${t.home}/.config/tma/config.toml`, "");
    await runTma(t, ["install-hooks", "claude", "--yes"]);
    assert(!/clear-attention/.test(await t.tmux("show-hooks", "-g", "pane-focus-in")));
  },
);

tmuxTest(
  "tma clear-attention U17: nudges every advertised watcher with SIGUSR1, never a pid that is not one",
  async (t) => {
    const agent = await t.standIn("claude");
    // A stand-in watcher: a shell whose command line says watch, counting SIGUSR1.
    const count = `${t.dir}/nudges`;
    const watcher = new Deno.Command("sh", {
      args: ["-c", `trap 'echo x >> ${count}' USR1; while :; do sleep 0.05; done`, "watch"],
    }).spawn();
    const bystander = new Deno.Command("sh", {
      args: ["-c", `trap 'echo y >> ${count}' USR1; while :; do sleep 0.05; done`],
    }).spawn();
    try {
      await new Promise((r) => setTimeout(r, 200));
      await t.tmux("set-option", "-p", "-t", agent.pane, "@tma_watch_pid", String(watcher.pid));
      const main = (await t.tmux("display-message", "-p", "-t", "main:0", "#{pane_id}")).trim();
      await t.tmux("set-option", "-p", "-t", main, "@tma_watch_pid", String(bystander.pid));
      const out = await runTma(t, ["clear-attention", agent.pane], {
        env: { TMA_HOOK_KIND: "after-select-pane" },
      });
      assertEquals(out.code, 0);
      await t.waitFor(async () => (await Deno.readTextFile(count).catch(() => "")).includes("x"));
      await new Promise((r) => setTimeout(r, 200));
      assertEquals((await Deno.readTextFile(count)).trim(), "x", "only the watcher was nudged");
      await nudgeWatchers([0, -1]); // never the process group
    } finally {
      watcher.kill("SIGKILL");
      bystander.kill("SIGKILL");
      await watcher.status;
      await bystander.status;
    }
  },
);

/**
 * The daemon's hook-liveness demotion (U9, G26) and what doctor reads of a
 * running daemon (U14, U42, U43), on a scratch server: a pane whose hooks
 * went silent while it printed is captured and read from its screen again,
 * doctor says "demoted" from the marker the daemon publishes, and a hook
 * event resumes the pane.
 * @module
 */
import { assert, assertEquals, assertStringIncludes } from "./harness/assert.ts";
import { eventually, runtimeDirOf, startDaemon } from "./harness/daemon.ts";
import { runTma, type ScratchTmux, tmuxTest } from "./harness/tmux.ts";
import { parseScreenFile } from "../src/core/rules/screen_file.ts";
import { ENGINE_VERSION } from "../src/core/version.ts";

const SCREENS = new URL("../fixtures/screens/", import.meta.url);

async function screen(name: string): Promise<string> {
  return parseScreenFile(await Deno.readTextFile(new URL(name, SCREENS)), name).capture.replace(
    /\n$/,
    "",
  );
}

function tma(t: ScratchTmux, args: string[]) {
  return runTma(t, args, { env: { XDG_RUNTIME_DIR: runtimeDirOf(t) } });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

tmuxTest(
  "tma daemon U9, G26: demote_edges output bursts with no hook event, outside a fresh claim, demote the pane; doctor says demoted (U42, U14); a hook event resumes it",
  async (t) => {
    await Deno.mkdir(`${t.home}/.config/tma`, { recursive: true });
    await Deno.writeTextFile(
      `${t.home}/.config/tma/config.toml`,
      "[daemon]\nquiet_ms = 300\ndemote_edges = 3\n",
    );
    const agent = await t.standIn("claude");
    await agent.draw(await screen("claude_idle_fresh_w120.txt"));
    // A hook claim whose evidence a capture confirmed just now (D22), but whose
    // event is two minutes old: the fold holds it against contrary chrome.
    const now = Date.now();
    const stamped = await tma(t, [
      "debug",
      "stamp",
      agent.pane,
      "publish",
      "--agent",
      "claude",
      "--state",
      "idle",
      "--source",
      "hook",
    ]);
    assertEquals(stamped.code, 0, stamped.stderr);
    const hookAt = String(now - 120_000);
    await t.tmux("set-option", "-p", "-t", agent.pane, "@tma_hook_at", hookAt);
    const daemon = await startDaemon(t, { args: ["--sweep-ms", "600000"] });
    try {
      await sleep(1000);
      const working = [
        await screen("claude_working_spinner_w120.txt"),
        await screen("claude_working_background_w120.txt"),
      ];
      // Two bursts, each followed by quiet: below demote_edges, the hooks are trusted.
      for (let i = 0; i < 2; i++) {
        await agent.draw(working[i % 2]);
        await sleep(800);
      }
      assertEquals(await t.option(agent.pane, "@agent_state"), "idle", daemon.stderr());
      assertEquals(await t.option(agent.pane, "@tma_demoted"), "");
      // The third: demoted, captured at its quiet edge, the screen read past the hook claim.
      await agent.draw(working[0]);
      assert(
        await eventually(
          async () => (await t.option(agent.pane, "@agent_state")) === "working",
          5000,
        ),
        `not demoted: ${daemon.stderr()}`,
      );
      assertEquals(await t.option(agent.pane, "@agent_source"), "capture");
      assert(
        await eventually(async () => (await t.option(agent.pane, "@tma_demoted")) === hookAt, 3000),
        "the daemon publishes the demotion",
      );
      const doctor = JSON.parse((await tma(t, ["doctor", "--json"])).stdout);
      assertEquals(doctor.daemon.alive, true);
      assertEquals(doctor.daemon.version, ENGINE_VERSION);
      assertEquals(doctor.daemon.version_matches, true);
      const entry = doctor.agents.find((a: { pane: string }) => a.pane === agent.pane);
      assertEquals([entry.hook_demoted, entry.tier], [true, 1]);
      const human = await tma(t, ["doctor"]);
      assertStringIncludes(human.stdout, `daemon: running (`);
      assertStringIncludes(human.stdout, "  demoted: hooks silent while the pane printed");
      // Demoted, the pane is read at every quiet edge: back to idle chrome, back to idle
      // (once the working evidence is past the dwell, D21).
      await sleep(3000);
      await agent.draw(await screen("claude_idle_fresh_w120.txt"));
      assert(
        await eventually(async () => (await t.option(agent.pane, "@agent_state")) === "idle", 8000),
        "a demoted pane follows its screen",
      );
      // A hook event resumes it: doctor at once, the marker at the next cycle.
      const hook = await tma(t, [
        "debug",
        "stamp",
        agent.pane,
        "publish",
        "--state",
        "idle",
        "--source",
        "hook",
      ]);
      assertEquals(hook.code, 0, hook.stderr);
      const after = JSON.parse((await tma(t, ["doctor", "--json"])).stdout);
      assertEquals(
        after.agents.find((a: { pane: string }) => a.pane === agent.pane).hook_demoted,
        false,
      );
      await agent.draw(working[1]);
      assert(
        await eventually(async () => (await t.option(agent.pane, "@tma_demoted")) === "", 5000),
        "the marker is cleared once hooks resume",
      );
      // Trusted again: a fresh idle hook claim holds against working chrome.
      assertEquals(await t.option(agent.pane, "@agent_state"), "idle");
    } finally {
      await daemon.stop();
    }
    // With the daemon gone, no demotion holds (doctor works without it).
    await t.tmux("set-option", "-p", "-t", agent.pane, "@tma_demoted", "1");
    await t.tmux("set-option", "-p", "-t", agent.pane, "@tma_hook_at", "1");
    const without = JSON.parse((await tma(t, ["doctor", "--json"])).stdout);
    assertEquals(without.daemon.alive, false);
    assertEquals(without.agents[0].hook_demoted, false);
  },
  { width: 120 },
);

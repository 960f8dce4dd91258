/**
 * `tma mute` against a scratch server (C56-C59, P31, P51): the deadline
 * written for `--for` and until cleared, `--clear`, the selector muting
 * every match, the current pane by default, and the exit codes.
 * @module
 */
import { assert, assertEquals, assertStringIncludes } from "./harness/assert.ts";
import { registeredPane, tmaScript } from "./harness/hook.ts";
import { runTma, type ScratchTmux, tmuxTest } from "./harness/tmux.ts";

async function muted(t: ScratchTmux): Promise<Record<string, boolean>> {
  const doc = JSON.parse((await runTma(t, ["ls", "--json"])).stdout);
  return Object.fromEntries(
    doc.agents.map((r: { pane: string; muted: boolean }) => [r.pane, r.muted]),
  );
}

tmuxTest(
  "tma mute C57 C58 P31 P51: --for writes now plus the duration, no --for the sentinel, --clear removes",
  async (t) => {
    const bin = await tmaScript(t);
    const pane = await registeredPane(t, bin);
    const before = Date.now();
    const timed = await runTma(t, ["mute", "--pane", pane, "--for", "15m"]);
    assertEquals(timed.code, 0, timed.stderr);
    assertStringIncludes(timed.stdout, `muted ${pane} (claude,`);
    const until = Number(await t.option(pane, "@agent_mute_until"));
    assert(until >= before + 900_000 && until <= Date.now() + 900_000, String(until));
    assertEquals((await muted(t))[pane], true);
    assertEquals((await runTma(t, ["mute", "--pane", pane])).code, 0);
    assertEquals(await t.option(pane, "@agent_mute_until"), "99999999999999");
    const cleared = await runTma(t, ["mute", "--pane", pane, "--clear"]);
    assertEquals([cleared.code, cleared.stdout.startsWith(`unmuted ${pane}`)], [0, true]);
    assertEquals(await t.option(pane, "@agent_mute_until"), "");
    assertEquals((await muted(t))[pane], false);
  },
);

tmuxTest(
  "tma mute C56: the selector mutes every match; the current pane is the default",
  async (t) => {
    const bin = await tmaScript(t);
    const a = await registeredPane(t, bin);
    const b = await registeredPane(t, bin);
    const all = await runTma(t, ["mute", "--agent", "claude", "--for", "2h"]);
    assertEquals(all.code, 0, all.stderr);
    assertEquals(await muted(t), { [a]: true, [b]: true });
    const here = await runTma(t, ["mute", "--clear"], { env: { TMUX_PANE: b } });
    assertEquals(here.code, 0, here.stderr);
    assertEquals(await muted(t), { [a]: true, [b]: false });
  },
);

tmuxTest(
  "tma mute C57 C59: bad durations, --for with --clear and --pane with a selector are 2; no agent is 3",
  async (t) => {
    const bin = await tmaScript(t);
    const pane = await registeredPane(t, bin);
    const usage: [string[], string][] = [
      [["mute", "--pane", pane, "--for", "0"], "--for"],
      [["mute", "--pane", pane, "--for", "5x"], "--for"],
      [["mute", "--pane", pane, "--for", "1m", "--clear"], "--clear"],
      [["mute", "--pane", pane, "--session", "main"], "--pane"],
    ];
    for (const [args, says] of usage) {
      const ran = await runTma(t, args);
      assertEquals(ran.code, 2, args.join(" "));
      assertStringIncludes(ran.stderr, says);
    }
    const plain = await t.newWindow(["sh", "-c", "sleep 3600"]);
    const none = await runTma(t, ["mute", "--pane", plain]);
    assertEquals(none.code, 3);
    assertStringIncludes(none.stderr, `no agent in pane ${plain}`);
    assertEquals((await runTma(t, ["mute", "--agent", "codex"])).code, 3);
  },
);

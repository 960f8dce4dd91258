/**
 * `tma clear-attention` (C102, D57) against a scratch server: the arrival
 * pane always, the departed pane as `TMA_HOOK_KIND` says, nothing on a
 * session switch, and silence throughout.
 * @module
 */
import { assertEquals } from "./harness/assert.ts";
import { runTma, type ScratchTmux, tmuxTest } from "./harness/tmux.ts";

async function flag(scratch: ScratchTmux, ...panes: string[]): Promise<void> {
  for (const pane of panes) {
    await scratch.tmux("set-option", "-p", "-t", pane, "@agent_attention", "1");
  }
}

async function flagged(scratch: ScratchTmux, ...panes: string[]): Promise<boolean[]> {
  return await Promise.all(
    panes.map(async (p) => (await scratch.option(p, "@agent_attention")) === "1"),
  );
}

async function clear(scratch: ScratchTmux, pane: string, kind?: string): Promise<void> {
  const out = await runTma(scratch, ["clear-attention", pane], {
    env: kind ? { TMA_HOOK_KIND: kind } : {},
  });
  assertEquals([out.code, out.stdout, out.stderr], [0, "", ""]);
}

/** A window with two panes, `left` then `right`, and `right` active with `left` as the last pane. */
async function twoPanes(
  scratch: ScratchTmux,
): Promise<{ left: string; right: string; window: string }> {
  const left = await scratch.newWindow(["sleep", "3600"]);
  const right =
    (await scratch.tmux("split-window", "-P", "-F", "#{pane_id}", "-t", left, "sleep", "3600"))
      .trim();
  await scratch.tmux("select-pane", "-t", left);
  await scratch.tmux("select-pane", "-t", right);
  const window = (await scratch.tmux("display-message", "-p", "-t", left, "#{window_id}")).trim();
  return { left, right, window };
}

tmuxTest(
  "tma clear-attention C102: with no hook kind only the arrival pane is cleared",
  async (scratch) => {
    const { left, right } = await twoPanes(scratch);
    await flag(scratch, left, right);
    await clear(scratch, right);
    assertEquals(await flagged(scratch, left, right), [true, false]);
  },
);

tmuxTest(
  "tma clear-attention D57: after-select-pane clears the arrival and the pane just left",
  async (scratch) => {
    const { left, right } = await twoPanes(scratch);
    const elsewhere = await scratch.newWindow(["sleep", "3600"]);
    await flag(scratch, left, right, elsewhere);
    await clear(scratch, right, "after-select-pane");
    assertEquals(await flagged(scratch, left, right, elsewhere), [false, false, true]);
  },
);

tmuxTest(
  "tma clear-attention D57: session-window-changed clears the arrival and the last window's active pane",
  async (scratch) => {
    const { left, right, window } = await twoPanes(scratch);
    const arrival = await scratch.newWindow(["sleep", "3600"]);
    await scratch.tmux("select-window", "-t", window);
    const arrivalWindow =
      (await scratch.tmux("display-message", "-p", "-t", arrival, "#{window_id}")).trim();
    await scratch.tmux("select-window", "-t", arrivalWindow);
    await flag(scratch, left, right, arrival);
    await clear(scratch, arrival, "session-window-changed");
    // `right` was the active pane of the window just left; `left` was not looked at.
    assertEquals(await flagged(scratch, left, right, arrival), [true, false, false]);
  },
);

tmuxTest("tma clear-attention D57: a session switch clears nothing", async (scratch) => {
  const { left, right } = await twoPanes(scratch);
  await flag(scratch, left, right);
  await clear(scratch, right, "client-session-changed");
  assertEquals(await flagged(scratch, left, right), [true, true]);
});

tmuxTest(
  "tma clear-attention C102: an unknown pane or a missing server is a silent exit 0",
  async (scratch) => {
    await clear(scratch, "%999", "after-select-pane");
    const out = await runTma(scratch, [
      "--socket-name",
      `${scratch.socketName}-absent`,
      "clear-attention",
      "%1",
    ]);
    assertEquals([out.code, out.stdout, out.stderr], [0, "", ""]);
    const none = await runTma(scratch, ["clear-attention"]);
    assertEquals([none.code, none.stdout, none.stderr], [0, "", ""]);
  },
);

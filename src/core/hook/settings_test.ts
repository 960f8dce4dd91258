import { assertEquals, assertMatch } from "../../../tests/harness/assert.ts";
import { parseToml } from "../../deps/toml.ts";
import { DEFAULT_HOLD_MS, readHookSettings } from "./settings.ts";

const SOURCE = { path: "c.toml", parseToml };

Deno.test("readHookSettings() G30, G31: no config file gives the defaults", () => {
  const s = readHookSettings(null, SOURCE);
  assertEquals([s.replyLane, s.holdMs, s.tmuxBin, s.agents, s.problem], [
    true,
    DEFAULT_HOLD_MS,
    undefined,
    [],
    null,
  ]);
});

Deno.test("readHookSettings() G30, G31: the hooks keys are read", () => {
  const s = readHookSettings("[hooks]\nclaude_reply_lane = false\nhold_ms = 400\n", SOURCE);
  assertEquals([s.replyLane, s.holdMs, s.problem], [false, 400, null]);
});

Deno.test("readHookSettings() G21, G28: tmux bin and agent overrides are read", () => {
  const s = readHookSettings(
    '[tmux]\nbin = "/opt/tmux"\n[[agent]]\nname = "codex"\nprocess_names = ["codex-x"]\n' +
      '[[agent]]\nname = "pi"\nenabled = false\n',
    SOURCE,
  );
  assertEquals(s.tmuxBin, "/opt/tmux");
  assertEquals(s.agents, [
    { name: "codex", enabled: true, process_names: ["codex-x"] },
    { name: "pi", enabled: false, process_names: [] },
  ]);
});

Deno.test("readHookSettings() G31: a bad hold_ms is a problem naming the key; the lane turns off", () => {
  for (const bad of ["0", "-5", "1.5", '"25000"']) {
    const s = readHookSettings(`[hooks]\nhold_ms = ${bad}\n`, SOURCE);
    assertMatch(s.problem ?? "", /c\.toml: hooks\.hold_ms/);
    assertEquals([s.replyLane, s.holdMs], [false, DEFAULT_HOLD_MS]);
  }
});

Deno.test("bad TOML falls back to defaults with the reply lane off", () => {
  const s = readHookSettings("[hooks\n", SOURCE);
  assertMatch(s.problem ?? "", /invalid TOML/);
  assertEquals(s.replyLane, false);
});

Deno.test("keys the hook does not read are left to the full config schema", () => {
  const s = readHookSettings("[fold]\ndwell_secs = 3\n[whatever]\nx = 1\n", SOURCE);
  assertEquals(s.problem, null);
});

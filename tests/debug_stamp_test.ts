/**
 * `tma debug stamp` (C100): the internal harness that applies one guarded
 * stamp (publish, hold or remove) by hand, on a scratch server.
 */
import { assert, assertEquals, assertMatch } from "./harness/assert.ts";
import { runTma, type ScratchTmux, tmuxTest } from "./harness/tmux.ts";
import { agentOptions, quietPane } from "./harness/hook.ts";

function stamp(t: ScratchTmux, args: string[]) {
  return runTma(t, ["debug", "stamp", ...args]);
}

tmuxTest(
  "tma debug stamp C100: publish, hold and remove through the guarded writer; a stale guard is refused",
  async (t) => {
    const pane = await quietPane(t);
    const at = Date.now() - 5000;
    const published = await stamp(t, [
      pane,
      "publish",
      "--agent",
      "claude",
      "--state",
      "blocked",
      "--detail",
      "permission",
      "--source",
      "hook",
      "--attention",
      "--at",
      String(at),
      "--json",
    ]);
    assertEquals(published.code, 0, published.stderr);
    const doc = JSON.parse(published.stdout);
    assertEquals([doc.schema, doc.pane, doc.kind, doc.committed], [1, pane, "publish", true]);
    const options = await agentOptions(t, pane);
    assertEquals(options["@agent_name"], "claude");
    assertEquals(options["@agent_state"], "blocked");
    assertEquals(options["@agent_detail"], "permission");
    assertEquals(options["@agent_source"], "hook");
    assertEquals(options["@agent_attention"], "1");
    assertEquals(options["@agent_evidence_at"], String(at));
    assertEquals(options["@agent_since"], String(at));
    assertEquals(await t.option(pane, "@tma_hook_at"), String(at), "a hook stamp's event time");
    const stampedAt = options["@agent_stamped_at"];
    assert(Number(stampedAt) >= at, stampedAt);
    // A writer that read an older stamp loses, and changes nothing.
    const stale = await stamp(t, [
      pane,
      "publish",
      "--state",
      "idle",
      "--if-stamped-at",
      String(Number(stampedAt) - 1),
    ]);
    assertEquals(stale.code, 1, stale.stderr);
    assertMatch(stale.stdout, /refused by the guard/);
    assertEquals((await agentOptions(t, pane))["@agent_state"], "blocked");
    // A hold moves the stamp time and nothing else.
    const held = await stamp(t, [pane, "hold"]);
    assertEquals(held.code, 0, held.stderr);
    const after = await agentOptions(t, pane);
    assert(Number(after["@agent_stamped_at"]) > Number(stampedAt), "the stamp time moved");
    assertEquals({ ...after, "@agent_stamped_at": "" }, { ...options, "@agent_stamped_at": "" });
    // A remove clears every tma option.
    assertEquals((await stamp(t, [pane, "remove"])).code, 0);
    assertEquals(await agentOptions(t, pane), {});
    assertEquals(await t.option(pane, "@tma_hook_at"), "");
  },
);

tmuxTest("tma debug stamp C100: bad input is exit 2, a gone pane exit 3", async (t) => {
  const pane = await quietPane(t);
  assertEquals((await stamp(t, [pane])).code, 2);
  assertEquals((await stamp(t, [pane, "paint"])).code, 2);
  assertEquals((await stamp(t, [pane, "publish"])).code, 2, "no --state");
  const state = await stamp(t, [pane, "publish", "--state", "busy", "--agent", "claude"]);
  assertEquals(state.code, 2);
  assertMatch(state.stderr, /idle, working, blocked, unknown/);
  assertEquals((await stamp(t, [pane, "publish", "--state", "idle"])).code, 2, "no agent");
  assertEquals(
    (await stamp(t, [pane, "publish", "--state", "idle", "--agent", "x", "--at", "soon"])).code,
    2,
  );
  assertEquals(await agentOptions(t, pane), {}, "nothing written");
  const gone = await stamp(t, ["%999", "hold"]);
  assertEquals(gone.code, 3, gone.stderr);
});

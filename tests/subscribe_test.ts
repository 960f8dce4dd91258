/**
 * `tma subscribe --json` against a scratch server (C60-C65, P61): the
 * edges of a walked pane, a departure from the selection, snapshot mode
 * with and without `--changes-only`, the clean exits (a signal, the reader
 * going away), and the usage errors.
 * @module
 */
import { assert, assertEquals, assertStringIncludes } from "./harness/assert.ts";
import { fireFixture, registeredPane, tmaScript, writeConfig } from "./harness/hook.ts";
import { runProcess } from "./harness/process.ts";
import { runTma, type ScratchTmux, startTma, tmuxTest } from "./harness/tmux.ts";

/** The subscribe's JSON lines so far. */
function lines(text: string): Record<string, unknown>[] {
  return text.split("\n").filter((l) => l.trim() !== "").map((l) => JSON.parse(l));
}

/** Waits until the server has seen a poll after `since` (the subscriber's cycle ran). */
async function polledAfter(t: ScratchTmux, since: number): Promise<void> {
  await t.waitFor(async () => {
    const value = (await t.tmux("show-options", "-sqv", "@tma_last_poll")).trim();
    return Number(value) > since;
  }, 10_000);
}

tmuxTest(
  "tma subscribe --events C63 P61: idle, working, blocked, idle print exactly those edges; an attention clear is done -> idle; a title change nothing",
  async (t) => {
    await writeConfig(t, "[hooks]\nclaude_reply_lane = false\n");
    const bin = await tmaScript(t);
    const pane = await registeredPane(t, bin);
    const fire = (event: string) => fireFixture(t, { pane, bin }, event);
    const started = Date.now();
    const sub = startTma(t, ["subscribe", "--json", "--events"]);
    await polledAfter(t, started);
    const expectEdges = async (n: number) =>
      await t.waitFor(() => Promise.resolve(lines(sub.stdout()).length >= n), 10_000);
    await fire("UserPromptSubmit");
    await expectEdges(1);
    await fire("PermissionRequest");
    await expectEdges(2);
    await fire("Stop");
    await expectEdges(3);
    const beforeTitle = Date.now();
    await t.tmux("select-pane", "-t", pane, "-T", "a new title");
    await polledAfter(t, beforeTitle + 1000);
    const cleared = await runTma(t, ["clear-attention", pane]);
    assertEquals(cleared.code, 0);
    await expectEdges(4);
    await new Promise((r) => setTimeout(r, 1200));
    sub.kill("SIGTERM");
    const ran = await sub.done;
    assertEquals(ran.code, 0, ran.stderr);
    const edges = lines(ran.stdout);
    assertEquals(edges.map((e) => [e.from, e.to]), [
      ["idle", "working"],
      ["working", "blocked"],
      ["blocked", "done"],
      ["done", "idle"],
    ]);
    assertEquals(edges[1].detail, "permission");
    assert(edges.every((e) => e.pane === pane && e.agent === "claude" && e.schema === 1));
    assert(edges.every((e) => typeof e.at_ms === "number" && (e.at_ms as number) >= started));
  },
);

tmuxTest("tma subscribe --events C64: leaving the selection reads as a departure", async (t) => {
  await writeConfig(t, "[hooks]\nclaude_reply_lane = false\n");
  const bin = await tmaScript(t);
  const pane = await registeredPane(t, bin);
  const fire = (event: string) => fireFixture(t, { pane, bin }, event);
  await fire("UserPromptSubmit");
  const started = Date.now();
  const sub = startTma(t, ["subscribe", "--json", "--events", "--state", "working"]);
  await polledAfter(t, started);
  await fire("PermissionRequest");
  await t.waitFor(() => Promise.resolve(lines(sub.stdout()).length >= 1), 10_000);
  sub.kill("SIGINT");
  const ran = await sub.done;
  assertEquals(ran.code, 0);
  assertEquals(lines(ran.stdout).map((e) => [e.pane, e.from, e.to]), [[pane, "working", ""]]);
});

tmuxTest(
  "tma subscribe C60 C62: full ls documents per line; --changes-only sends one while nothing moves",
  async (t) => {
    const pane = await registeredPane(t, await tmaScript(t));
    const every = startTma(t, ["subscribe", "--json"]);
    const changes = startTma(t, ["subscribe", "--json", "--changes-only"]);
    await t.waitFor(() => Promise.resolve(lines(every.stdout()).length >= 3), 15_000);
    every.kill("SIGTERM");
    changes.kill("SIGTERM");
    const [all, changed] = await Promise.all([every.done, changes.done]);
    assertEquals([all.code, changed.code], [0, 0]);
    for (const doc of lines(all.stdout)) {
      assertEquals(Object.keys(doc), ["schema", "agents"]);
      assertEquals((doc.agents as { pane: string }[]).map((r) => r.pane), [pane]);
    }
    assertEquals(lines(changed.stdout).length, 1, changed.stdout);
  },
);

tmuxTest(
  "tma subscribe C65: `subscribe --json | head -1` returns as soon as head does",
  async (t) => {
    const bin = await tmaScript(t);
    const started = Date.now();
    const ran = await runProcess("sh", {
      args: [
        "-c",
        `'${bin}' --socket-name ${t.socketName} subscribe --json --interval 30 | head -1`,
      ],
      env: t.env(),
    });
    const took = Date.now() - started;
    assertEquals(ran.code, 0, ran.stderr);
    assertEquals(JSON.parse(ran.stdout), { schema: 1, agents: [] });
    // Far sooner than the next document (30 s away) would have told it.
    assert(took < 10_000, `took ${took} ms`);
  },
);

tmuxTest(
  "tma subscribe C60 C61: no --json, or an --interval below 1, is exit 2 naming the flag",
  async (t) => {
    const missing = await runTma(t, ["subscribe"]);
    assertEquals(missing.code, 2);
    assertStringIncludes(missing.stderr, "--json");
    const fast = await runTma(t, ["subscribe", "--json", "--interval", "0.5"]);
    assertEquals(fast.code, 2);
    assertStringIncludes(fast.stderr, "--interval");
  },
);

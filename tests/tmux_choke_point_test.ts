import { assert, assertEquals, assertRejects } from "./harness/assert.ts";
import { HAS_TMUX, tmuxTest } from "./harness/tmux.ts";
import { capturePanes } from "../src/tmux/capture.ts";
import { runTmux } from "../src/tmux/exec.ts";
import { TmuxNoServerError, TmuxNotInstalledError, TmuxTimeoutError } from "../src/tmux/errors.ts";
import { listPanes } from "../src/tmux/panes.ts";
import { snapshotProcesses } from "../src/tmux/ps.ts";
import { writeChains } from "../src/tmux/writer.ts";

tmuxTest("listPanes reads facts, options and a title containing the separator", async (t) => {
  const agent = await t.standIn("claude", { title: "odd <~|~> title", width: 90, height: 20 });
  await t.tmux("set-option", "-p", "-t", agent.pane, "@agent_state", "idle");
  const panes = await listPanes(t.server);
  const row = panes.find((p) => p.paneId === agent.pane)!;
  assertEquals(row.title, "odd <~|~> title");
  assertEquals(row.currentCommand, "claude");
  assertEquals(row.options["@agent_state"], "idle");
  assertEquals(row.width, 90);
  assertEquals(row.height, 20);
  assert(row.locator.startsWith("main:"));
  assert(row.panePid > 0);
});

tmuxTest(
  "capturePanes captures several panes in one call and survives a vanished pane",
  async (t) => {
    const a = await t.standIn("claude");
    const b = await t.standIn("codex");
    await a.draw("first screen\nline two");
    await b.draw("second screen");
    const screens = await capturePanes(t.server, [a.pane, "%999", b.pane]);
    assert(screens.get(a.pane)!.includes("line two"));
    assert(screens.get(b.pane)!.includes("second screen"));
    assertEquals(screens.has("%999"), false);
  },
);

tmuxTest(
  "src/tmux/ P2: a guarded chain commits or holds as a whole, and escapes format characters",
  async (t) => {
    const pane = (await t.tmux("display", "-p", "-t", "main", "#{pane_id}")).trim();
    const first = await writeChains(t.server, [{
      pane,
      guard: "#{==:#{@agent_stamped_at},}",
      writes: [
        { name: "@agent_state", value: "working" },
        { name: "@agent_model", value: "odd,#{value}}" },
        { name: "@agent_stamped_at", value: "1700000000000" },
      ],
    }]);
    assertEquals(first.get(pane), true);
    assertEquals(await t.option(pane, "@agent_model"), "odd,#{value}}");
    // The same guard now fails: the stamp moved on, so nothing is written.
    const second = await writeChains(t.server, [{
      pane,
      guard: "#{==:#{@agent_stamped_at},}",
      writes: [
        { name: "@agent_state", value: "idle" },
        { name: "@agent_stamped_at", value: "1700000000999" },
      ],
    }]);
    assertEquals(second.get(pane), false);
    assertEquals(await t.option(pane, "@agent_state"), "working");
    assertEquals(await t.option(pane, "@agent_stamped_at"), "1700000000000");
    assertEquals(await t.option(pane, "@tma_guard"), "");
  },
);

tmuxTest("writeChains writes window rollups and unsets options", async (t) => {
  const pane = (await t.tmux("display", "-p", "-t", "main", "#{pane_id}")).trim();
  await writeChains(t.server, [{
    pane,
    writes: [
      { name: "@agent_summary", value: "working:1", scope: "window" },
      { name: "@agent_state", value: "idle" },
    ],
  }]);
  assertEquals(
    (await t.tmux("show-options", "-wqv", "-t", pane, "@agent_summary")).trim(),
    "working:1",
  );
  await writeChains(t.server, [{ pane, writes: [{ name: "@agent_state", value: null }] }]);
  assertEquals(await t.option(pane, "@agent_state"), "");
});

tmuxTest("snapshotProcesses sees a stand-in agent under its own name", async (t) => {
  const agent = await t.standIn("claude");
  const pid = Number((await t.tmux("display", "-p", "-t", agent.pane, "#{pane_pid}")).trim());
  const rows = await snapshotProcesses();
  const row = rows.find((r) => r.pid === pid)!;
  assertEquals(row.comm, "claude");
  assert(row.args.includes("claude"));
  assertEquals(row.pgid, row.tpgid);
});

Deno.test("src/tmux/ D62: an unresponsive tmux is a timeout error, never a hang", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const fake = `${dir}/slow-tmux`;
    await Deno.writeTextFile(fake, "#!/bin/sh\nexec sleep 30\n");
    await Deno.chmod(fake, 0o755);
    await assertRejects(
      () => runTmux({ bin: fake, socketName: "x" }, ["list-panes"], { timeoutMs: 200 }),
      TmuxTimeoutError,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("src/tmux/ C10: a tmux binary that does not resolve reports tmux not installed", async () => {
  const error = await assertRejects(
    () => runTmux({ bin: "/nonexistent/tmux" }, ["list-panes"]),
    TmuxNotInstalledError,
  );
  assert(error.message.includes("TMA_TMUX_BIN"));
  assertEquals(error.exitCode, 10);
});

Deno.test({
  name: "runTmux() C3: a missing server is its own error",
  ignore: !HAS_TMUX,
  fn: async () => {
    await assertRejects(
      () =>
        runTmux({ bin: "tmux", socketName: `tma-test-absent-${crypto.randomUUID()}` }, [
          "list-panes",
          "-a",
        ]),
      TmuxNoServerError,
    );
  },
});

tmuxTest(
  "src/tmux/ R25: values tmux would parse (a lone ;, a trailing ;, quotes, $HOME, #) are written as text",
  async (t) => {
    const pane = (await t.tmux("display", "-p", "-t", "main", "#{pane_id}")).trim();
    const values = [";", "end;", `it's "q" $HOME #x`, "a\\b"];
    for (const [i, value] of values.entries()) {
      await writeChains(t.server, [{ pane, writes: [{ name: `@tma_probe_${i}`, value }] }]);
      await writeChains(t.server, [{
        pane,
        guard: "#{==:1,1}",
        writes: [{ name: `@tma_guarded_${i}`, value }],
      }]);
      assertEquals(await t.option(pane, `@tma_probe_${i}`), value);
      assertEquals(await t.option(pane, `@tma_guarded_${i}`), value);
    }
  },
);

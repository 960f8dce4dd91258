/**
 * `tma init` (C74, C75) on a scratch HOME with stand-in agent executables on
 * PATH: `--yes` wires each found agent, binds the keys, prints the
 * status-line line and a doctor report; a second run changes no byte;
 * without a terminal and without `--yes` it declines, exits 1 and changes
 * nothing.
 * @module
 */
import { assert, assertEquals, assertStringIncludes } from "./harness/assert.ts";
import { runTma, type ScratchTmux, tmuxTest } from "./harness/tmux.ts";
import { eventually, runtimeDirOf, scratchPaths } from "./harness/daemon.ts";
import { liveDaemon } from "../src/runtime/daemon_link.ts";
import { lookupNames } from "../src/install/discover.ts";
import { STATUS_RIGHT_LINE } from "../src/cli/commands/init.ts";

/** Executables named like agents (and a bare `node`, which identifies nothing). */
async function agentBins(t: ScratchTmux, names: string[]): Promise<string> {
  const dir = `${t.dir}/agent-bin`;
  await Deno.mkdir(dir, { recursive: true });
  for (const name of names) {
    await Deno.writeTextFile(`${dir}/${name}`, "#!/bin/sh\nexit 0\n");
    await Deno.chmod(`${dir}/${name}`, 0o755);
  }
  return dir;
}

/** Every file under the scratch HOME with its bytes, and the server's hooks. */
async function homeState(t: ScratchTmux): Promise<string> {
  const parts: string[] = [await t.tmux("show-hooks", "-g")];
  const walk = async (dir: string): Promise<void> => {
    for await (const entry of Deno.readDir(dir)) {
      const path = `${dir}/${entry.name}`;
      if (entry.isDirectory) await walk(path);
      else parts.push(path, await Deno.readTextFile(path).catch(() => "(unreadable)"));
    }
  };
  await walk(t.home);
  return parts.sort().join("\n");
}

Deno.test("init C74: agents are looked up by name and process_names, never generic runtimes", () => {
  assertEquals(lookupNames("codex", ["codex", "node"]), ["codex"]);
  assertEquals(lookupNames("cursor", ["cursor-agent", "agent"]), ["cursor", "cursor-agent"]);
  assertEquals(lookupNames("opencode", ["opencode.exe", "opencode"]), ["opencode", "opencode.exe"]);
});

tmuxTest(
  "init C74, C75: --yes wires each found agent, binds keys, prints the line and doctor; a second run changes no byte",
  async (t) => {
    const dir = await agentBins(t, ["claude", "opencode", "node"]);
    const env = { PATH: `${dir}:${Deno.env.get("PATH")}`, TMA_BIN: `${dir}/claude` };
    const first = await runTma(t, ["init", "--yes", "--no-daemon"], { env });
    assertEquals(first.code, 0, first.stdout + first.stderr);
    assertStringIncludes(first.stdout, `found claude (${dir}/claude)`);
    assertStringIncludes(first.stdout, `found opencode (${dir}/opencode)`);
    assert(!/found (codex|gemini|pi|cursor)/.test(first.stdout), "node is no agent");
    assertStringIncludes(first.stdout, "-- tma install-hooks claude");
    assertStringIncludes(first.stdout, `+++ ${t.home}/.claude/settings.json`);
    assertStringIncludes(first.stdout, STATUS_RIGHT_LINE);
    assertStringIncludes(first.stdout, "-- tma install-keys");
    assertStringIncludes(first.stdout, "== 6/6 doctor\ntmux: ");
    assertStringIncludes(first.stdout, "hooks: claude, opencode");
    assertStringIncludes(first.stdout, "tma init: done");
    const settings = JSON.parse(await Deno.readTextFile(`${t.home}/.claude/settings.json`));
    assert(settings.hooks.Stop, "claude wired");
    assert(await Deno.stat(`${t.home}/.config/opencode/plugin/tma.js`).catch(() => null));
    assertStringIncludes(
      await Deno.readTextFile(`${t.home}/.config/tmux/tmux.conf`),
      "# tma keys",
    );
    assertEquals(
      (await t.tmux("show-options", "-gv", "status-right")).includes("tma"),
      false,
      "status-right is never edited",
    );

    const before = await homeState(t);
    const second = await runTma(t, ["init", "--yes", "--no-daemon"], { env });
    assertEquals(second.code, 0, second.stdout + second.stderr);
    assertEquals(await homeState(t), before, "a second run changes no byte");
    assertStringIncludes(second.stdout, "claude already wired; nothing to change");
    assertStringIncludes(second.stdout, "keys current (");

    // Once status-right runs tma, init says so instead of printing the line.
    await t.tmux("set-option", "-g", "status-right", "#(tma status) %H:%M");
    const third = await runTma(t, ["init", "--yes", "--no-daemon"], { env });
    assertStringIncludes(third.stdout, "status-right already runs tma status");
    assertEquals(third.stdout.includes(STATUS_RIGHT_LINE), false);
  },
);

tmuxTest(
  "init C75: without a terminal and without --yes every step declines, exit 1, nothing changed",
  async (t) => {
    const dir = await agentBins(t, ["claude", "codex"]);
    const env = { PATH: `${dir}:${Deno.env.get("PATH")}` };
    const before = await homeState(t);
    const ran = await runTma(t, ["init"], { env });
    assertEquals(ran.code, 1, ran.stdout + ran.stderr);
    assertEquals(await homeState(t), before, "nothing written");
    assertStringIncludes(
      ran.stdout,
      "not done: install-hooks claude, install-hooks codex, install-keys failed or declined",
    );
    assertStringIncludes(ran.stderr, "not a terminal, so nothing was written");
  },
);

tmuxTest(
  "init C75: --daemon starts this server's daemon through tma daemon --ensure; with --no-daemon it is a usage error",
  async (t) => {
    const dir = await agentBins(t, []);
    const runtime = runtimeDirOf(t);
    const ran = await runTma(t, ["init", "--yes", "--daemon"], {
      env: { PATH: `${dir}:/usr/bin:/bin`, XDG_RUNTIME_DIR: runtime },
    });
    const paths = await scratchPaths(t);
    const live = await liveDaemon(paths);
    try {
      assertStringIncludes(ran.stdout, "daemon running (tma daemon --ensure)");
      assert(live !== null, `a daemon answers after init --daemon:\n${ran.stdout}${ran.stderr}`);
      assert(!ran.stdout.includes("not done: daemon"), ran.stdout);
    } finally {
      if (live !== null) Deno.kill(live.pid, "SIGTERM");
      await eventually(async () => (await liveDaemon(paths)) === null, 5000);
    }
    const both = await runTma(t, ["init", "--daemon", "--no-daemon"]);
    assertEquals(both.code, 2);
  },
);

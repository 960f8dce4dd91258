/**
 * Issue 13 items 5-10 and 12 (R19, I3, I4, I7): install-hooks on the files
 * an unlucky user has. A hand-edited tma entry survives uninstall and is
 * reported, with the wrapper kept; bytes that are not UTF-8 are refused,
 * never replaced; a backup is only ever the user's original; containers the
 * user had come back; two installs at once keep both agents' bookkeeping; a
 * read-only file is refused; and nothing installed names a tma binary or a
 * checkout.
 * @module
 */
import { assert, assertEquals, assertStringIncludes } from "./harness/assert.ts";
import { runTma, type ScratchTmux, tmuxTest } from "./harness/tmux.ts";

async function seed(home: string, rel: string, content: string | Uint8Array): Promise<string> {
  const path = `${home}/${rel}`;
  await Deno.mkdir(path.slice(0, path.lastIndexOf("/")), { recursive: true });
  if (typeof content === "string") await Deno.writeTextFile(path, content);
  else await Deno.writeFile(path, content);
  return path;
}

function install(t: ScratchTmux, args: string[]) {
  return runTma(t, ["install-hooks", ...args], { env: { TMA_BIN: `${t.home}/bin/tma` } });
}

/** Every `*.tma-backup` under a folder, relative to it. */
async function backups(dir: string, prefix = ""): Promise<string[]> {
  const out: string[] = [];
  for await (const entry of Deno.readDir(`${dir}${prefix}`)) {
    const rel = `${prefix}/${entry.name}`;
    if (entry.isDirectory && rel !== "/.cache") out.push(...await backups(dir, rel));
    else if (entry.name.endsWith(".tma-backup")) out.push(rel);
  }
  return out.sort();
}

tmuxTest(
  "install-hooks R19: uninstall after a hand edit reports what it left and keeps the wrapper",
  async (t) => {
    const settings = `${t.home}/.claude/settings.json`;
    assertEquals((await install(t, ["claude", "--yes"])).code, 0);
    const wrapper = `${t.home}/.local/bin/tma-hook`;
    const text = await Deno.readTextFile(settings);
    const edited = text.replace(
      `"${wrapper} claude Stop"`,
      `"TMA_DEBUG_LOG=/tmp/x ${wrapper} claude Stop"`,
    );
    assert(edited !== text, "the Stop entry was found to edit");
    await Deno.writeTextFile(settings, edited);
    const removed = await install(t, ["claude", "--uninstall", "--yes"]);
    assertEquals(removed.code, 1, removed.stdout);
    assertStringIncludes(removed.stderr, `${settings}:`);
    assertStringIncludes(removed.stderr, "TMA_DEBUG_LOG=/tmp/x");
    assertStringIncludes(removed.stderr, `kept ${wrapper}`);
    // The edited entry still calls the wrapper, so the wrapper is still there.
    assertStringIncludes(await Deno.readTextFile(settings), "TMA_DEBUG_LOG=/tmp/x");
    assert((await Deno.stat(wrapper)).isFile, "the wrapper was removed under a live reference");
    // Once the user removes the line, the next uninstall takes the wrapper too.
    const json = JSON.parse(await Deno.readTextFile(settings));
    delete json.hooks;
    await Deno.writeTextFile(settings, JSON.stringify(json));
    assertEquals((await install(t, ["claude", "--uninstall", "--yes"])).code, 0);
    assertEquals(await Deno.stat(wrapper).then(() => true, () => false), false);
  },
);

tmuxTest(
  "install-hooks R19: a file that is not UTF-8 is refused and keeps every byte",
  async (t) => {
    // A Latin-1 "é" (0xE9) in a string and in a TOML comment.
    const enc = (s: string) => new TextEncoder().encode(s);
    const latin1 = (before: string, after: string) =>
      new Uint8Array([...enc(before), 0xe9, ...enc(after)]);
    const json = latin1('{\n  "model": "caf', '"\n}\n');
    const toml = latin1("# caf", ' config\nmodel = "o3"\n');
    const settings = await seed(t.home, ".claude/settings.json", json);
    const config = await seed(t.home, ".codex/config.toml", toml);
    for (
      const [agent, path, bytes] of [["claude", settings, json], ["codex", config, toml]] as const
    ) {
      const ran = await install(t, [agent, "--yes"]);
      assertEquals(ran.code, 1, ran.stdout);
      assertStringIncludes(ran.stderr, `${path} is not valid UTF-8`);
      assertStringIncludes(ran.stderr, "offset");
      assertEquals(await Deno.readFile(path), bytes);
      assertEquals(await Deno.stat(`${path}.tma-backup`).then(() => true, () => false), false);
    }
  },
);

tmuxTest("install-hooks R19: a backup is only ever the user's original", async (t) => {
  // On an empty home nothing is the user's: no backup at install or uninstall.
  for (const agent of ["claude", "gemini", "codex", "cursor"]) {
    assertEquals((await install(t, [agent, "--yes"])).code, 0, agent);
  }
  assertEquals((await install(t, ["--all", "--uninstall", "--yes"])).code, 0);
  assertEquals(await backups(t.home), []);
  // The user's file later: install backs up exactly it, whatever came before.
  const original = '{\n  "model": "opus"\n}\n';
  const settings = await seed(t.home, ".claude/settings.json", original);
  await seed(t.home, ".claude/settings.json.tma-backup", "stale, from long ago\n");
  assertEquals((await install(t, ["claude", "--yes"])).code, 0);
  assertEquals(await Deno.readTextFile(`${settings}.tma-backup`), original);
  // A rerun on tma's own output takes no new backup.
  assertEquals((await install(t, ["claude", "--yes", "--no-statusline"])).code, 0);
  assertEquals(await Deno.readTextFile(`${settings}.tma-backup`), original);
});

tmuxTest(
  "install-hooks R19: empty containers the user had come back after uninstall",
  async (t) => {
    const cases = [
      ["claude", ".claude/settings.json", '{\n  "hooks": {}\n}\n'],
      ["cursor", ".cursor/hooks.json", '{"version": 1, "hooks": {}}\n'],
      ["gemini", ".gemini/settings.json", '{"hooks": {}, "theme": "dark"}\n'],
    ] as const;
    for (const [agent, rel, text] of cases) {
      const path = await seed(t.home, rel, text);
      assertEquals((await install(t, [agent, "--yes", "--no-statusline"])).code, 0, agent);
      assert((await Deno.readTextFile(path)) !== text, `${agent} was wired`);
      assertEquals((await install(t, [agent, "--uninstall", "--yes"])).code, 0, agent);
      assertEquals(await Deno.readTextFile(path), text, `${rel} restored byte for byte`);
    }
  },
);

tmuxTest("install-hooks R19: two installs at once keep both agents' bookkeeping", async (t) => {
  const state = `${t.home}/.config/tma/statusline-state.toml`;
  for (let round = 0; round < 3; round++) {
    await Deno.remove(state).catch(() => undefined);
    const [claude, cursor] = await Promise.all([
      install(t, ["claude", "--yes"]),
      install(t, ["cursor", "--yes"]),
    ]);
    assertEquals([claude.code, cursor.code], [0, 0], claude.stderr + cursor.stderr);
    const text = await Deno.readTextFile(state);
    assertStringIncludes(text, 'claude = "installed"', `round ${round}`);
    assertStringIncludes(text, 'cursor = "installed"', `round ${round}`);
  }
});

tmuxTest("install-hooks R19: a read-only settings file is refused, untouched", async (t) => {
  const text = '{\n  "model": "opus"\n}\n';
  const path = await seed(t.home, ".claude/settings.json", text);
  await Deno.chmod(path, 0o444);
  const ran = await install(t, ["claude", "--yes"]);
  assertEquals(ran.code, 1, ran.stdout);
  assertStringIncludes(ran.stderr, `${path} is read-only (mode 0444)`);
  assertStringIncludes(ran.stderr, "chmod u+w");
  assertEquals(await Deno.readTextFile(path), text);
  assertEquals((await Deno.stat(path)).mode! & 0o777, 0o444);
  assertEquals(
    await Deno.stat(`${t.home}/.local/bin/tma-hook`).then(() => true, () => false),
    false,
  );
});

tmuxTest(
  "install-hooks I4, I7: installed wiring names the wrapper or tma on PATH, never a checkout",
  async (t) => {
    assertEquals((await install(t, ["claude", "--yes"])).code, 0);
    const settings = await Deno.readTextFile(`${t.home}/.claude/settings.json`);
    const hooks = await t.tmux("show-hooks", "-g");
    const mod = new URL("../mod.ts", import.meta.url).pathname;
    for (const [what, text] of [["settings.json", settings], ["the tmux hooks", hooks]] as const) {
      assert(!text.includes(Deno.execPath()), `${what} embed the deno binary: ${text}`);
      assert(!text.includes(mod), `${what} embed the checkout's mod.ts`);
      assert(!text.includes(`${t.home}/bin/tma`), `${what} embed the tma found at install`);
    }
    // No statusLine of the user's: the shim asks the wrapper for tma's own line.
    assertStringIncludes(
      JSON.parse(settings).statusLine.command,
      `${t.home}/.local/bin/tma-hook claude statusline`,
    );
    assertStringIncludes(hooks, "TMA_BIN:-tma");
  },
);

/**
 * `install-hooks` flags (C77, C79-C83, I2, I7): usage errors, `--all`,
 * the statusline choice, path overrides, `--wrapper-ref`, a clobbered or
 * stale shim, and Codex's refusal of a foreign `notify`.
 * @module
 */
import { assert, assertEquals, assertStringIncludes } from "./harness/assert.ts";
import { runTma, type ScratchTmux, tmuxTest } from "./harness/tmux.ts";

function tma(scratch: ScratchTmux, args: string[], env: Record<string, string> = {}) {
  return runTma(scratch, ["install-hooks", ...args], { env });
}

async function read(path: string): Promise<string | null> {
  return await Deno.readTextFile(path).catch(() => null);
}

async function write(path: string, text: string): Promise<void> {
  await Deno.mkdir(path.slice(0, path.lastIndexOf("/")), { recursive: true });
  await Deno.writeTextFile(path, text);
}

const SETTINGS =
  '{\n  "model": "opus",\n  "statusLine": { "type": "command", "command": "~/sl.sh", "padding": 1 }\n}\n';

tmuxTest("tma install-hooks C79: usage errors exit 2 and name the problem", async (t) => {
  for (
    const [args, part] of [
      [["--all", "claude"], "--all"],
      [[], "name an agent"],
      [["bogus"], 'unknown agent "bogus"'],
      [["claude", "--check", "--uninstall"], "--check and --uninstall"],
      [["claude", "--statusline", "--no-statusline"], "--statusline and --no-statusline"],
      [["claude", "--wrapper-ref", "relative"], "--wrapper-ref"],
    ] as [string[], string][]
  ) {
    const result = await tma(t, args);
    assertEquals(result.code, 2, `${args.join(" ")}: ${result.stderr}`);
    assertStringIncludes(result.stderr, part);
  }
});

tmuxTest(
  "tma install-hooks C79: --all repoints every wired agent and never wires a new one; --all --uninstall unwires them",
  async (t) => {
    const home = t.home;
    await write(`${home}/.claude/settings.json`, SETTINGS);
    assertEquals((await tma(t, ["claude", "--yes"])).code, 0);
    assertEquals((await tma(t, ["pi", "--yes"])).code, 0);
    const moved = `${home}/tools/tma-hook`;
    const result = await tma(t, ["--all", "--yes"], { TMA_WRAPPER_PATH: moved });
    assertEquals(result.code, 0, result.stderr);
    assertStringIncludes(
      (await read(`${home}/.claude/settings.json`))!,
      `"${moved} claude Stop"`,
    );
    assertStringIncludes(
      (await read(`${home}/.pi/agent/extensions/tma.js`))!,
      `const WRAPPER = "${moved}";`,
    );
    assertEquals(await read(`${home}/.codex/config.toml`), null);
    assertEquals(await read(`${home}/.gemini/settings.json`), null);
    const check = await tma(t, ["--all", "--check"], { TMA_WRAPPER_PATH: moved });
    assertEquals(check.code, 0, check.stdout);
    assertEquals(check.stdout.includes("codex"), false);

    const removed = await tma(t, ["--all", "--uninstall", "--yes"], { TMA_WRAPPER_PATH: moved });
    assertEquals(removed.code, 0, removed.stderr);
    assertEquals(await read(`${home}/.claude/settings.json`), SETTINGS);
    assertEquals(await read(`${home}/.pi/agent/extensions/tma.js`), null);
    assertEquals(await read(moved), null);
    const none = await tma(t, ["--all", "--yes"]);
    assertEquals(none.code, 1);
    assertStringIncludes(none.stdout, "no agent carries tma wiring");
  },
);

tmuxTest(
  "tma install-hooks C80: --no-statusline leaves statusLine alone and is remembered; --statusline reverses it",
  async (t) => {
    const settings = `${t.home}/.claude/settings.json`;
    const state = `${t.home}/.config/tma/statusline-state.toml`;
    await write(settings, SETTINGS);
    assertEquals((await tma(t, ["claude", "--yes", "--no-statusline"])).code, 0);
    const optedOut = (await read(settings))!;
    assertStringIncludes(
      optedOut,
      '"statusLine": { "type": "command", "command": "~/sl.sh", "padding": 1 }',
    );
    assertStringIncludes((await read(state))!, 'claude = "opted-out"');
    assertEquals((await tma(t, ["claude", "--check"])).code, 0);
    // A later plain run, and --all, honour the recorded choice.
    assertStringIncludes((await tma(t, ["claude", "--yes"])).stdout, "nothing to change");
    assertStringIncludes((await tma(t, ["--all", "--yes"])).stdout, "nothing to change");
    assertEquals((await tma(t, ["claude", "--check", "--statusline"])).code, 1);

    const wrapped = await tma(t, ["claude", "--yes", "--statusline"]);
    assertEquals(wrapped.code, 0);
    // The diff says what the shim does to the footer and how to keep it out (I7).
    assertStringIncludes(wrapped.stdout, "--no-statusline leaves statusLine alone");
    assertStringIncludes((await read(settings))!, ": tma-statusline-shim claude");
    assertStringIncludes((await read(state))!, 'claude = "installed"');
    assertEquals((await tma(t, ["claude", "--yes", "--no-statusline"])).code, 0);
    assertEquals(await read(settings), optedOut);

    // Uninstall keeps the opt-out, so a reinstall still honours it.
    assertEquals((await tma(t, ["claude", "--uninstall", "--yes"])).code, 0);
    assertEquals(await read(settings), SETTINGS);
    assertStringIncludes((await read(state))!, 'claude = "opted-out"');
  },
);

tmuxTest(
  "tma install-hooks I7: an overwritten statusLine reads clobbered, a moved wrapper stale; install re-wraps",
  async (t) => {
    const settings = `${t.home}/.claude/settings.json`;
    await write(settings, SETTINGS);
    const a = { TMA_WRAPPER_PATH: `${t.home}/a/tma-hook` };
    assertEquals((await tma(t, ["claude", "--yes"], a)).code, 0);
    const stale = await tma(t, ["claude", "--check"], { TMA_WRAPPER_PATH: `${t.home}/b/tma-hook` });
    assertEquals(stale.code, 1);
    assertStringIncludes(stale.stdout, "statusline shim stale");

    const text = (await read(settings))!;
    const doc = JSON.parse(text);
    await Deno.writeTextFile(
      settings,
      text.replace(JSON.stringify(doc.statusLine.command), '"~/new.sh"'),
    );
    const clobbered = await tma(t, ["claude", "--check"], a);
    assertEquals(clobbered.code, 1);
    assertStringIncludes(clobbered.stdout, "statusline shim clobbered");
    assertEquals((await tma(t, ["claude", "--yes"], a)).code, 0);
    const rewrapped = JSON.parse((await read(settings))!).statusLine.command as string;
    assert(
      rewrapped.startsWith(": tma-statusline-shim claude;") &&
        rewrapped.endsWith("\n~/new.sh\n}"),
    );
  },
);

tmuxTest(
  "tma install-hooks C82: a path flag beats its environment variable; --config-dir holds the bookkeeping",
  async (t) => {
    const home = t.home;
    const byEnv = `${home}/env/settings.json`;
    const byFlag = `${home}/flag/settings.json`;
    const result = await tma(
      t,
      [
        "claude",
        "--yes",
        "--settings",
        byFlag,
        "--config-dir",
        `${home}/state`,
        "--wrapper-path",
        `${home}/w/tma-hook`,
      ],
      { TMA_CLAUDE_SETTINGS: byEnv, TMA_CONFIG_DIR: `${home}/nowhere` },
    );
    assertEquals(result.code, 0, result.stderr);
    assertStringIncludes((await read(byFlag))!, `"${home}/w/tma-hook claude Stop"`);
    assertEquals(await read(byEnv), null);
    assert((await read(`${home}/state/statusline-state.toml`)) !== null);
    assert((await read(`${home}/state/hooks-state-${t.socketName}.toml`)) !== null);
    assertEquals(await read(`${home}/nowhere/statusline-state.toml`), null);

    const env = {
      TMA_CURSOR_HOOKS: `${home}/c/hooks.json`,
      TMA_CURSOR_CLI_CONFIG: `${home}/c/cli.json`,
      TMA_CODEX_CONFIG: `${home}/x/config.toml`,
      TMA_CODEX_HOOKS: `${home}/x/hooks.json`,
      TMA_GEMINI_SETTINGS: `${home}/g/settings.json`,
      TMA_OPENCODE_PLUGIN: `${home}/o/tma.js`,
      TMA_PI_EXTENSION: `${home}/p/tma.js`,
    };
    for (const agent of ["cursor", "codex", "gemini", "opencode", "pi"]) {
      assertEquals((await tma(t, [agent, "--yes"], env)).code, 0, agent);
    }
    for (const path of Object.values(env)) assert((await read(path)) !== null, path);
    const pi = `${home}/p2/tma.js`;
    assertEquals((await tma(t, ["pi", "--yes", "--pi-extension", pi], env)).code, 0);
    assert((await read(pi)) !== null);
  },
);

tmuxTest(
  "tma install-hooks C83, G20: --wrapper-ref bare writes tma-hook, and refuses when it is not on PATH",
  async (t) => {
    const settings = `${t.home}/.claude/settings.json`;
    const refused = await tma(t, ["claude", "--yes", "--wrapper-ref", "bare"]);
    assertEquals(refused.code, 1);
    assertStringIncludes(refused.stderr, "not on PATH");
    assertEquals(await read(settings), null);

    const path = `${t.home}/.local/bin:${Deno.env.get("PATH")}`;
    const bare = await tma(t, ["claude", "--yes", "--wrapper-ref", "bare"], { PATH: path });
    assertEquals(bare.code, 0, bare.stderr);
    assertStringIncludes((await read(settings))!, '"command": "tma-hook claude Stop"');
    // The default (absolute) now sees the entries as stale; config can choose bare.
    const check = await tma(t, ["claude", "--check"], { PATH: path });
    assertEquals(check.code, 1);
    assertStringIncludes(check.stdout, "stale");
    await write(`${t.home}/.config/tma/config.toml`, '[install]\nwrapper_ref = "bare"\n');
    assertEquals((await tma(t, ["claude", "--check"], { PATH: path })).code, 0);
  },
);

tmuxTest(
  "tma install-hooks I23, R19: Codex's own notify is never replaced; nothing is written",
  async (t) => {
    const config = '# mine\nnotify = ["notify-send", "Codex"]\nmodel = "gpt-5"\n';
    await write(`${t.home}/.codex/config.toml`, config);
    const result = await tma(t, ["codex", "--yes"]);
    assertEquals(result.code, 1);
    assertStringIncludes(
      result.stderr,
      `${t.home}/.codex/config.toml: top-level notify is already set`,
    );
    assertEquals(await read(`${t.home}/.codex/config.toml`), config);
    assertEquals(await read(`${t.home}/.codex/hooks.json`), null);
    assertEquals(await read(`${t.home}/.local/bin/tma-hook`), null);
    // Uninstall leaves a foreign notify alone too.
    assertEquals((await tma(t, ["codex", "--uninstall", "--yes"])).code, 0);
    assertEquals(await read(`${t.home}/.codex/config.toml`), config);
  },
);

tmuxTest(
  "tma install-hooks I51: cli-config.json is created for the shim and removed again; an opt-out never creates it",
  async (t) => {
    const cli = `${t.home}/.cursor/cli-config.json`;
    assertEquals((await tma(t, ["cursor", "--yes", "--no-statusline"])).code, 0);
    assertEquals(await read(cli), null);
    assertEquals((await tma(t, ["cursor", "--yes", "--statusline"])).code, 0);
    assertStringIncludes(
      JSON.parse((await read(cli))!).statusLine.command,
      ": tma-statusline-shim cursor;",
    );
    assertEquals((await tma(t, ["cursor", "--uninstall", "--yes"])).code, 0);
    assertEquals(await read(cli), null);
    assertEquals(await read(`${t.home}/.cursor/hooks.json`), null);
    assertEquals((await tma(t, ["cursor", "--uninstall", "--yes"])).code, 0);
    assertEquals(await read(cli), null);
  },
);

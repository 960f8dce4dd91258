/**
 * `tma install-hooks AGENT` end to end, one test per agent (C76-C78, I3,
 * R19): a scratch HOME that already holds a realistic user config; the diff
 * shown and a non-terminal declining; the write; a second run that changes
 * no byte; `--check`; an uninstall back to the original bytes; a corrupt
 * file refused and left untouched.
 * @module
 */
import { assert, assertEquals, assertStringIncludes } from "./harness/assert.ts";
import { runTma, type ScratchTmux, tmuxTest } from "./harness/tmux.ts";
import { BUNDLED_INTEGRATIONS } from "../src/assets/bundled.ts";

/** A realistic user file, by path relative to HOME. */
type Seeds = Record<string, string>;

async function seed(home: string, files: Seeds): Promise<void> {
  for (const [rel, text] of Object.entries(files)) {
    const path = `${home}/${rel}`;
    await Deno.mkdir(path.slice(0, path.lastIndexOf("/")), { recursive: true });
    await Deno.writeTextFile(path, text);
  }
}

async function read(path: string): Promise<string | null> {
  return await Deno.readTextFile(path).catch(() => null);
}

/** Every file under `dir`, relative path → text (backups and tma state excluded). */
async function snapshot(dir: string, prefix = ""): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for await (const entry of Deno.readDir(`${dir}${prefix}`)) {
    const rel = `${prefix}/${entry.name}`;
    if (entry.isDirectory) {
      if (rel === "/.cache") continue;
      Object.assign(out, await snapshot(dir, rel));
    } else if (entry.isFile) {
      out[rel] = await Deno.readTextFile(`${dir}${rel}`);
    }
  }
  return out;
}

interface AgentCase {
  agent: string;
  seeds: Seeds;
  /** Files install creates, relative to HOME. */
  creates: string[];
  /** Checks on the installed files. */
  verify(home: string, scratch: ScratchTmux): Promise<void>;
  /** A file to corrupt, and the corrupt text (for the refusal check). */
  corrupt: { rel: string; text: string; line?: number };
  /** Caveat text install must print. */
  caveat?: string;
}

async function roundTrip(scratch: ScratchTmux, c: AgentCase): Promise<void> {
  const home = scratch.home;
  await seed(home, c.seeds);
  const original = await snapshot(home);
  const tma = (args: string[], env: Record<string, string> = {}) =>
    runTma(scratch, ["install-hooks", ...args], { env: { TMA_BIN: `${home}/bin/tma`, ...env } });

  // A non-terminal without --yes shows the diff and declines: nothing written.
  const declined = await tma([c.agent]);
  assertEquals(declined.code, 1, declined.stderr);
  assertStringIncludes(declined.stderr, "not a terminal");
  for (const rel of c.creates) assertStringIncludes(declined.stdout, `+++ ${home}/${rel}`);
  assertStringIncludes(declined.stdout, `+++ ${home}/.local/bin/tma-hook`);
  assert(/^\+.*tma-hook/m.test(declined.stdout), "the diff shows tma's entries");
  assertEquals(await snapshot(home), original);

  const installed = await tma([c.agent, "--yes"]);
  assertEquals(installed.code, 0, installed.stderr);
  if (c.caveat) assertStringIncludes(installed.stdout, c.caveat);
  const wrapper = `${home}/.local/bin/tma-hook`;
  assertEquals(await read(wrapper), BUNDLED_INTEGRATIONS["tma-hook"]);
  assertEquals((await Deno.stat(wrapper)).mode! & 0o111, 0o111);
  for (const rel of c.creates) assert((await read(`${home}/${rel}`)) !== null, `${rel} written`);
  for (const [rel, text] of Object.entries(c.seeds)) {
    const backup = await read(`${home}/${rel}.tma-backup`);
    if (backup !== null) assertEquals(backup, text, `${rel}.tma-backup holds the original`);
  }
  await c.verify(home, scratch);

  // A second run changes no byte.
  const wired = await snapshot(home);
  const again = await tma([c.agent, "--yes"]);
  assertEquals(again.code, 0, again.stderr);
  assertStringIncludes(again.stdout, "nothing to change");
  assertEquals(await snapshot(home), wired);

  const check = await tma([c.agent, "--check"]);
  assertEquals(check.code, 0, check.stdout);
  assertStringIncludes(check.stdout, `${c.agent}: wired`);
  assertStringIncludes(check.stdout, "tmux: after-select-pane: present");
  const bare = await tma(["--check"]);
  assertEquals(bare.code, 0, bare.stdout);

  const removed = await tma([c.agent, "--uninstall", "--yes"]);
  assertEquals(removed.code, 0, removed.stderr);
  const after = await snapshot(home);
  for (const [rel, text] of Object.entries(c.seeds)) {
    assertEquals(after[`/${rel}`], text, `${rel} restored byte for byte`);
  }
  for (const rel of c.creates) {
    if (!(rel in c.seeds)) assertEquals(after[`/${rel}`], undefined, `${rel} removed`);
  }
  assertEquals(after["/.local/bin/tma-hook"], undefined, "the last uninstall removes the wrapper");
  assertEquals(
    (await scratch.tmux("show-hooks", "-g", "after-select-pane")).includes("clear-attention"),
    false,
  );
  const unwired = await tma([c.agent, "--check"]);
  assertEquals(unwired.code, 1);

  // A corrupt settings file is refused with its path and left untouched.
  await seed(home, { [c.corrupt.rel]: c.corrupt.text });
  const refused = await tma([c.agent, "--yes"]);
  assertEquals(refused.code, 1, refused.stdout);
  assertStringIncludes(refused.stderr, `${home}/${c.corrupt.rel}`);
  if (c.corrupt.line) {
    assertStringIncludes(refused.stderr, `${home}/${c.corrupt.rel}:${c.corrupt.line}:`);
  }
  assertEquals(await read(`${home}/${c.corrupt.rel}`), c.corrupt.text);
  assertEquals(await read(wrapper), null, "a refused install writes nothing");
}

function test(c: AgentCase): void {
  tmuxTest(
    `tma install-hooks C76-C78, I3, R19: install-hooks ${c.agent} round-trips a real user config`,
    (scratch) => roundTrip(scratch, c),
  );
}

/** Runs a shell command the way an agent runs a statusLine command. */
async function runStatusline(
  home: string,
  command: string,
  payload: string,
): Promise<{ rendered: string; forwarded: string }> {
  const child = new Deno.Command("sh", {
    args: ["-c", command],
    // The shim reaches tma through the wrapper, which finds it when it fires;
    // the foreground mode hands the recorder the payload itself (the queue's
    // drainer is tested in hook_queue_test.ts).
    env: {
      HOME: home,
      PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
      TMUX_PANE: "%5",
      TMA_BIN: `${home}/bin/tma`,
      TMA_HOOK_FOREGROUND: "1",
      XDG_RUNTIME_DIR: `${home}/run`,
    },
    clearEnv: true,
    stdin: "piped",
    stdout: "piped",
  }).spawn();
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode(payload));
  await writer.close();
  const rendered = new TextDecoder().decode((await child.output()).stdout);
  let forwarded: string | null = null;
  for (let i = 0; i < 400 && forwarded === null; i++) {
    forwarded = await read(`${home}/forwarded`);
    if (forwarded === null) await new Promise((r) => setTimeout(r, 25));
  }
  return { rendered, forwarded: forwarded ?? "" };
}

/** A stand-in `tma` (TMA_BIN) that records what the shim forwards. */
const RECORDER = `#!/bin/sh
{ printf '%s\\n' "$*"; cat; } > "$HOME/forwarded.tmp" && mv "$HOME/forwarded.tmp" "$HOME/forwarded"
`;

const CLAUDE_SETTINGS = `{
  // Claude Code settings, edited by hand.
  "model": "opus",
  "permissions": {
    "allow": ["Bash(git status:*)", "Read"],
    "deny": []
  },
  "hooks": {
    "PreToolUse": [
      {
        "matcher": "Bash",
        "hooks": [
          { "type": "command", "command": "~/bin/bash-guard.sh", "timeout": 5 }
        ]
      }
    ],
    "Stop": [
      {
        "hooks": [{ "type": "command", "command": "notify-send 'Claude is done'" }]
      }
    ]
  },
  "statusLine": { "type": "command", "command": "~/.claude/statusline.sh", "padding": 0 },
  "env": { "DISABLE_TELEMETRY": "1" } // keep this
}
`;

test({
  agent: "claude",
  seeds: {
    ".claude/settings.json": CLAUDE_SETTINGS,
    ".claude/statusline.sh": '#!/bin/sh\nsed \'s/.*"model":"\\([a-z]*\\)".*/[\\1]/\'\n',
    "bin/tma": RECORDER,
  },
  creates: [".claude/settings.json"],
  caveat: undefined,
  async verify(home) {
    await Deno.chmod(`${home}/.claude/statusline.sh`, 0o755);
    await Deno.chmod(`${home}/bin/tma`, 0o755);
    const text = (await read(`${home}/.claude/settings.json`))!;
    assertStringIncludes(text, "// Claude Code settings, edited by hand.");
    assertStringIncludes(text, '"env": { "DISABLE_TELEMETRY": "1" } // keep this');
    assertStringIncludes(text, '"command": "~/bin/bash-guard.sh", "timeout": 5');
    const doc = JSON.parse(text.replace(/\/\/.*$/gm, ""));
    for (
      const event of [
        "SessionStart",
        "SessionEnd",
        "UserPromptSubmit",
        "PreToolUse",
        "PostToolUse",
        "PermissionRequest",
        "Notification",
        "Stop",
        "SubagentStart",
        "SubagentStop",
      ]
    ) {
      const groups = doc.hooks[event] as {
        matcher?: string;
        hooks: { command: string; async?: boolean }[];
      }[];
      const mine = groups.filter((g) =>
        g.hooks[0].command === `${home}/.local/bin/tma-hook claude ${event}`
      );
      assertEquals(mine.length, 1, event);
      assertEquals(mine[0].matcher, undefined);
      // X10: Claude runs every event in the background but the answering PermissionRequest.
      assertEquals(
        mine[0].hooks[0].async,
        event === "PermissionRequest" ? undefined : true,
        event,
      );
    }
    assertEquals(doc.statusLine.padding, 0);
    const { rendered, forwarded } = await runStatusline(
      home,
      doc.statusLine.command,
      '{"model":"opus"}',
    );
    assertEquals(rendered, "[opus]");
    assertEquals(
      forwarded,
      'event --agent claude --kind context --pane %5 --payload -\n{"model":"opus"}',
    );
    assertStringIncludes(
      (await read(`${home}/.config/tma/statusline-state.toml`))!,
      'claude = "installed"',
    );
  },
  corrupt: {
    rel: ".claude/settings.json",
    text: '{\n  "model": "opus",\n  "hooks": {\n}\n',
    line: 5,
  },
});

const CODEX_CONFIG = `# Codex CLI configuration
model = "gpt-5-codex" # the default model
approval_policy = "on-request"
check_for_update_on_startup = false

[tui]
notifications = true

# Local docs server.
[mcp_servers.docs]
command = "npx"
args = ["-y", "docs-mcp"]

[projects."/home/me/src/app"]
trust_level = "trusted"
`;

const CODEX_HOOKS = `{
  "hooks": {
    "PreToolUse": [
      {
        "hooks": [
          {
            "type": "command",
            "command": "/home/me/bin/audit-codex",
            "timeout": 3
          }
        ]
      }
    ]
  }
}
`;

test({
  agent: "codex",
  seeds: { ".codex/config.toml": CODEX_CONFIG, ".codex/hooks.json": CODEX_HOOKS },
  creates: [".codex/config.toml", ".codex/hooks.json"],
  caveat: "/hooks",
  async verify(home) {
    const config = (await read(`${home}/.codex/config.toml`))!;
    assertEquals(
      config,
      CODEX_CONFIG.replace(
        "check_for_update_on_startup = false\n",
        `check_for_update_on_startup = false\nnotify = ["${home}/.local/bin/tma-hook", "codex", "notify"]\n`,
      ),
    );
    const hooks = JSON.parse((await read(`${home}/.codex/hooks.json`))!);
    assertEquals(hooks.hooks.PreToolUse[0].hooks[0].command, "/home/me/bin/audit-codex");
    for (
      const event of ["SessionStart", "UserPromptSubmit", "PermissionRequest", "Stop", "SessionEnd"]
    ) {
      const command = hooks.hooks[event].at(-1).hooks[0].command;
      assertEquals(typeof command, "string", "Codex needs string commands, not argv arrays");
      assertEquals(command, `${home}/.local/bin/tma-hook codex ${event}`);
    }
  },
  corrupt: { rel: ".codex/config.toml", text: 'model = "x"\nnotify = [\n', line: 3 },
});

const GEMINI_SETTINGS = `{
  // Gemini CLI user settings
  "general": { "enableAutoUpdate": false },
  "security": { "auth": { "selectedType": "gemini-api-key" } },
  "hooks": {
    "BeforeTool": [
      {
        "matcher": "run_shell_command",
        "hooks": [
          { "type": "command", "name": "shell-audit", "command": "~/bin/audit.sh" }
        ]
      }
    ]
  },
  "ui": { "theme": "GitHub" }
}
`;

test({
  agent: "gemini",
  seeds: { ".gemini/settings.json": GEMINI_SETTINGS },
  creates: [".gemini/settings.json"],
  caveat: "trusted",
  async verify(home) {
    const text = (await read(`${home}/.gemini/settings.json`))!;
    assertStringIncludes(text, "// Gemini CLI user settings");
    const doc = JSON.parse(text.replace(/\/\/.*$/gm, ""));
    assertEquals(doc.hooks.BeforeTool[0].hooks[0].name, "shell-audit");
    for (
      const event of [
        "SessionStart",
        "BeforeAgent",
        "BeforeTool",
        "AfterTool",
        "AfterAgent",
        "Notification",
        "SessionEnd",
      ]
    ) {
      assertEquals(
        doc.hooks[event].at(-1).hooks[0].command,
        `${home}/.local/bin/tma-hook gemini ${event}`,
      );
    }
    assertEquals(doc.hooks.BeforeModel, undefined);
  },
  corrupt: { rel: ".gemini/settings.json", text: '{ "ui": { "theme": } }\n', line: 1 },
});

const CURSOR_HOOKS = `{
  "version": 1,
  "hooks": {
    "afterFileEdit": [
      { "command": "./hooks/format.sh" }
    ],
    "stop": [
      { "command": "./hooks/audit.sh" }
    ]
  }
}
`;

const CURSOR_CLI = `{
  "permissions": { "allow": ["Shell(ls)"], "deny": [] },
  "editor": { "vimMode": true },
  "statusLine": {
    "type": "command",
    "command": "~/.cursor/statusline.sh",
    "padding": 2
  }
}
`;

test({
  agent: "cursor",
  seeds: {
    ".cursor/hooks.json": CURSOR_HOOKS,
    ".cursor/cli-config.json": CURSOR_CLI,
    ".cursor/statusline.sh": "#!/bin/sh\necho cursor-line\n",
    "bin/tma": RECORDER,
  },
  creates: [".cursor/hooks.json", ".cursor/cli-config.json"],
  async verify(home) {
    await Deno.chmod(`${home}/.cursor/statusline.sh`, 0o755);
    await Deno.chmod(`${home}/bin/tma`, 0o755);
    const hooks = JSON.parse((await read(`${home}/.cursor/hooks.json`))!);
    assertEquals(hooks.version, 1);
    assertEquals(hooks.hooks.afterFileEdit, [{ command: "./hooks/format.sh" }]);
    assertEquals(hooks.hooks.stop, [
      { command: "./hooks/audit.sh" },
      { command: `${home}/.local/bin/tma-hook cursor stop` },
    ]);
    for (
      const event of [
        "sessionStart",
        "beforeSubmitPrompt",
        "preToolUse",
        "postToolUse",
        "postToolUseFailure",
        "sessionEnd",
      ]
    ) {
      assertEquals(hooks.hooks[event], [{
        command: `${home}/.local/bin/tma-hook cursor ${event}`,
      }]);
    }
    const cliText = (await read(`${home}/.cursor/cli-config.json`))!;
    assertStringIncludes(cliText, '"padding": 2\n  }\n}');
    const cli = JSON.parse(cliText);
    const { rendered, forwarded } = await runStatusline(
      home,
      cli.statusLine.command,
      '{"context_window":{}}',
    );
    assertEquals(rendered, "cursor-line\n");
    assertEquals(
      forwarded,
      'event --agent cursor --kind context --pane %5 --payload -\n{"context_window":{}}',
    );
  },
  corrupt: { rel: ".cursor/hooks.json", text: '{ "version": 1, "hooks": { "stop": [ } }', line: 1 },
});

const OPENCODE_JSON = `{
  "$schema": "https://opencode.ai/config.json",
  "autoupdate": false,
  "permission": { "bash": "ask" }
}
`;

test({
  agent: "opencode",
  seeds: {
    ".config/opencode/opencode.json": OPENCODE_JSON,
    ".config/opencode/plugin/notify.js": "export const Notify = async () => ({});\n",
  },
  creates: [".config/opencode/plugin/tma.js"],
  async verify(home) {
    const plugin = (await read(`${home}/.config/opencode/plugin/tma.js`))!;
    assert(plugin.startsWith("// tma:managed-file opencode-plugin"));
    assertStringIncludes(
      plugin,
      `const WRAPPER = ${JSON.stringify(`${home}/.local/bin/tma-hook`)};`,
    );
    assertEquals(plugin.includes("@@TMA_WRAPPER@@"), false);
  },
  corrupt: {
    rel: ".config/opencode/plugin/tma.js",
    text:
      "// my own plugin that happens to be named tma.js\nexport const Mine = async () => ({});\n",
  },
});

test({
  agent: "pi",
  seeds: {
    ".pi/agent/settings.json": '{\n  "defaultProvider": "mock"\n}\n',
    ".pi/agent/extensions/confirm-gate.ts": "export default function (pi: unknown) {}\n",
  },
  creates: [".pi/agent/extensions/tma.js"],
  async verify(home) {
    const ext = (await read(`${home}/.pi/agent/extensions/tma.js`))!;
    assert(ext.startsWith("// tma:managed-file pi-extension"));
    assertStringIncludes(ext, `const WRAPPER = ${JSON.stringify(`${home}/.local/bin/tma-hook`)};`);
  },
  corrupt: {
    rel: ".pi/agent/extensions/tma.js",
    text: "export default function (pi) { /* hand-written */ }\n",
  },
});

/**
 * The CLI shell as a user meets it (C2-C10): version and help, usage errors
 * (exit 2 naming the flag), and the one-line failures for a missing tmux
 * binary (exit 10), a missing server (exit 11) and a malformed config
 * (exit 1). Each case runs `mod.ts` as a child with the documented
 * permissions and a scratch HOME.
 * @module
 */
import { assert, assertEquals, assertMatch, assertStringIncludes } from "./harness/assert.ts";
import { HAS_TMUX } from "./harness/tmux.ts";
import { RUN_PERMISSIONS } from "../src/core/permissions.ts";
import { COMMANDS } from "../src/cli/commands.ts";
import { ENGINE_VERSION } from "../src/core/version.ts";

const MOD = new URL("../mod.ts", import.meta.url).pathname;
const PERMISSIONS = RUN_PERMISSIONS;

/** Deno's cache folder, kept for the child when its HOME moves to a scratch folder. */
const DENO_DIR: string = Deno.env.get("DENO_DIR") ?? await (async () => {
  const out = await new Deno.Command(Deno.execPath(), { args: ["info", "--json"] }).output();
  return JSON.parse(new TextDecoder().decode(out.stdout)).denoDir as string;
})();

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs tma with `args`, in an environment that keeps the parent's (certificates,
 * PATH) minus every tmux and tma variable, with HOME and XDG in a scratch folder.
 */
async function tma(args: string[], extraEnv: Record<string, string> = {}): Promise<Run> {
  const home = await Deno.makeTempDir({ prefix: "tma-cli-home-" });
  try {
    const env = Object.fromEntries(
      Object.entries(Deno.env.toObject()).filter(([name]) => !/^(TMUX|TMA_)/.test(name)),
    );
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["run", "--quiet", ...PERMISSIONS, MOD, ...args],
      env: {
        ...env,
        DENO_DIR,
        HOME: home,
        XDG_CONFIG_HOME: `${home}/.config`,
        XDG_STATE_HOME: `${home}/.local/state`,
        ...extraEnv,
      },
      clearEnv: true,
      cwd: home,
      stdin: "null",
    }).output();
    const decoder = new TextDecoder();
    return {
      code: out.code,
      stdout: decoder.decode(out.stdout),
      stderr: decoder.decode(out.stderr),
    };
  } finally {
    await Deno.remove(home, { recursive: true }).catch(() => undefined);
  }
}

/** Asserts that stderr is exactly one non-empty line, and returns it. */
function oneLine(run: Run): string {
  const lines = run.stderr.split("\n").filter((line) => line.trim() !== "");
  assertEquals(lines.length, 1, `expected one stderr line, got:\n${run.stderr}`);
  return lines[0];
}

Deno.test("tma C8: --version, -V and tma version print tma <version>", async () => {
  for (const args of [["--version"], ["-V"], ["version"]]) {
    const run = await tma(args);
    assertEquals(run.code, 0, run.stderr);
    assertEquals(run.stdout, `tma ${ENGINE_VERSION}\n`, args.join(" "));
  }
});

Deno.test("tma C8: --help lists every visible command and exits 0", async () => {
  const run = await tma(["--help"]);
  assertEquals(run.code, 0, run.stderr);
  assertMatch(run.stdout, /usage: tma /);
  for (const command of COMMANDS.filter((c) => !c.hidden)) {
    assertStringIncludes(run.stdout, `  ${command.name} `);
  }
});

Deno.test("tma C8: <command> --help exits 0 for every command of the table", async () => {
  for (const command of COMMANDS) {
    const run = await tma([command.name, "--help"]);
    assertEquals(run.code, 0, `tma ${command.name} --help: ${run.stderr}`);
    assertStringIncludes(run.stdout, `tma ${command.name}`);
  }
});

Deno.test("an unknown flag exits 2 and names the flag", async () => {
  for (const args of [["--frobnicate"], ["ls", "--frobnicate"]]) {
    const run = await tma(args);
    assertEquals(run.code, 2, args.join(" "));
    assertStringIncludes(oneLine(run), "--frobnicate");
  }
});

Deno.test("an unknown command exits 2 and names it", async () => {
  const run = await tma(["frobnicate"]);
  assertEquals(run.code, 2);
  assertStringIncludes(oneLine(run), "frobnicate");
});

Deno.test("tma C4: --socket-name with --socket-path is a usage error (exit 2)", async () => {
  const run = await tma(["--socket-name", "a", "--socket-path", "/tmp/b", "ls"]);
  assertEquals(run.code, 2);
  const line = oneLine(run);
  assertStringIncludes(line, "--socket-name");
  assertStringIncludes(line, "--socket-path");
});

Deno.test("tma C10: a missing tmux binary is one clear line and exit 10", async () => {
  const run = await tma(["--no-config", "ls"], { TMA_TMUX_BIN: "/nonexistent/tmux" });
  assertEquals(run.code, 10, run.stderr);
  assertStringIncludes(oneLine(run), "/nonexistent/tmux");
  assertEquals(run.stdout, "");
});

Deno.test({
  name: "tma C3: no server on the socket is one line and exit 11",
  ignore: !HAS_TMUX,
  fn: async () => {
    // A fresh name no server listens on; nothing is started, and the kill
    // below only guards against a server that appeared anyway.
    const socket = `tma-test-${crypto.randomUUID().slice(0, 8)}`;
    try {
      const run = await tma(["--no-config", "--socket-name", socket, "ls"]);
      assertEquals(run.code, 11, run.stderr);
      assertStringIncludes(oneLine(run), socket);
      assertEquals(run.stdout, "");
    } finally {
      await new Deno.Command("tmux", {
        args: ["-L", socket, "kill-server"],
        stdout: "null",
        stderr: "null",
      }).output().catch(() => undefined);
    }
  },
});

Deno.test("tma C5: a malformed config is one line naming the file and the key, exit 1", async () => {
  const dir = await Deno.makeTempDir({ prefix: "tma-cli-config-" });
  try {
    const file = `${dir}/config.toml`;
    await Deno.writeTextFile(file, "[tmux]\nbin = 5\n");
    const run = await tma(["--config", file, "ls"]);
    assertEquals(run.code, 1, run.stderr);
    const line = oneLine(run);
    assertStringIncludes(line, file);
    assert(/\bbin\b/.test(line), `the message should name the key [tmux] bin: ${line}`);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

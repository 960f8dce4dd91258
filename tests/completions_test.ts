/**
 * `tma completions` (C94): every script is generated from the command table
 * (a flag added there cannot be missing here), leaves internal and hidden
 * verbs out, and loads in its real shell: bash through its own `complete -p`
 * and completion function, fish through `complete -C`, zsh through its
 * completion system at an interactive prompt in a scratch tmux pane.
 * @module
 */
import { assert, assertEquals, assertStringIncludes } from "./harness/assert.ts";
import { runProcess } from "./harness/process.ts";
import { runTma, type ScratchTmux, tmuxTest } from "./harness/tmux.ts";
import { COMMANDS, GLOBAL_FLAGS } from "../src/cli/commands.ts";
import { completionModel } from "../src/cli/commands/completions.ts";
import { completionScript, SHELLS } from "../src/core/completions.ts";
import { AGENT_NAMES } from "../src/install/agents.ts";

const TABLE = { commands: COMMANDS, globals: GLOBAL_FLAGS };

/** Whether `word` stands alone in `text` (not inside another word or flag). */
function wordIn(text: string, word: string): boolean {
  return new RegExp(`(^|[\\s'"(|\\[&=])${word}([\\s'")|\\]=:]|$)`, "m").test(text);
}

function has(program: string): boolean {
  return new Deno.Command("sh", {
    args: ["-c", `command -v '${program}'`],
    stdout: "null",
    stderr: "null",
  }).outputSync().success;
}

/** The completion shells `.ci/run` installs: their absence fails the suite, never skips it. */
function requireShell(name: string): boolean {
  if (has(name)) return true;
  if (Deno.env.get("TMA_REQUIRE_SHELLS") === "1") {
    throw new Error(`${name} is required but missing`);
  }
  return false;
}

/** Writes one shell's script into a scratch folder, which is also the shell's HOME. */
async function script(shell: string): Promise<{ path: string; env: Record<string, string> }> {
  const dir = await Deno.makeTempDir({ prefix: "tma-completions-" });
  const path = `${dir}/tma.${shell}`;
  await Deno.writeTextFile(path, completionScript(shell as "bash", completionModel(TABLE)));
  return { path, env: { PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin", HOME: dir, TERM: "dumb" } };
}

Deno.test("completions C94: every visible command and flag of the table is in every script", () => {
  const model = completionModel(TABLE);
  const visible = COMMANDS.filter((c) => !c.hidden && !c.internal);
  assertEquals(model.commands.map((c) => c.name), visible.map((c) => c.name));
  for (const shell of SHELLS) {
    const text = completionScript(shell, model);
    for (const command of visible) {
      assert(wordIn(text, command.name), `${shell}: ${command.name}`);
      for (const flag of command.flags.filter((f) => !f.hidden)) {
        assert(
          text.includes(`--${flag.name}`) || text.includes(`-l ${flag.name} `),
          `${shell}: ${command.name} --${flag.name}`,
        );
        for (const choice of flag.choices ?? []) assertStringIncludes(text, choice);
      }
    }
    for (const flag of GLOBAL_FLAGS) {
      assert(text.includes(`--${flag.name}`) || text.includes(`-l ${flag.name} `), flag.name);
    }
    for (const internal of ["event", "clear-attention"]) {
      assertEquals(wordIn(text, internal), false, `${shell} leaves ${internal} out`);
    }
  }
});

Deno.test("completions C94: the table's fixed value sets are the real ones", () => {
  const find = (name: string) => COMMANDS.find((c) => c.name === name)!;
  assertEquals(find("install-hooks").args, [...AGENT_NAMES]);
  assertEquals(find("completions").args, [...SHELLS]);
});

tmuxTest("completions C94: an unknown shell is exit 2 naming the valid set", async (t) => {
  const ran = await runTma(t, ["completions", "tcsh"]);
  assertEquals(ran.code, 2);
  assertStringIncludes(
    ran.stderr,
    'unknown shell "tcsh": one of bash, zsh, fish, elvish, powershell',
  );
  const none = await runTma(t, ["completions"]);
  assertEquals(none.code, 2);
  const bash = await runTma(t, ["completions", "bash"]);
  assertEquals(bash.code, 0);
  assertEquals(bash.stdout, completionScript("bash", completionModel(TABLE)));
});

Deno.test({
  name: "completions C94: bash loads it (complete -p) and completes subcommands, flags and values",
  ignore: !requireShell("bash"),
  fn: async () => {
    const { path, env } = await script("bash");
    const cases: [string, string][] = [
      ["tma in", "install-hooks install-keys init"],
      ["tma ls --j", "--json"],
      ["tma status --format ", "tmux plain json prom"],
      ["tma -L work doc", "doctor"],
      ["tma install-hooks c", "claude codex cursor"],
      ["tma ev", ""],
    ];
    const program = [
      `source '${path}'`,
      "complete -p tma",
      ...cases.map(([line]) =>
        `COMP_WORDS=(${line.split(" ").map((w) => `'${w}'`).join(" ")}); ` +
        "COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); COMPREPLY=(); _tma_complete; " +
        'echo "${COMPREPLY[*]}"'
      ),
    ].join("\n");
    const ran = await runProcess("bash", { args: ["--norc", "-c", program], env });
    assertEquals(ran.code, 0, ran.stderr);
    const lines = ran.stdout.split("\n");
    assertEquals(lines[0], "complete -F _tma_complete tma");
    assertEquals(lines.slice(1, 1 + cases.length), cases.map(([, want]) => want));
  },
});

Deno.test({
  name: "completions C94: fish loads it and completes subcommands, flags and values",
  ignore: !requireShell("fish"),
  fn: async () => {
    const { path, env } = await script("fish");
    const ask = async (line: string) => {
      const ran = await runProcess("fish", {
        args: ["--no-config", "-c", `source '${path}'; complete -C '${line}'`],
        env,
      });
      assertEquals(ran.code, 0, ran.stderr);
      return ran.stdout.split("\n").filter((l) => l !== "").map((l) => l.split("\t")[0]);
    };
    assertEquals(await ask("tma do"), ["doctor"]);
    assertEquals(await ask("tma ls --j"), ["--json"]);
    assertEquals((await ask("tma status --format ")).sort(), ["json", "plain", "prom", "tmux"]);
    assertEquals(await ask("tma install-hooks c"), ["claude", "codex", "cursor"]);
    assertEquals(await ask("tma ev"), []);
  },
});

/** An interactive shell in a scratch pane: type a line and Tab, wait for what it draws. */
async function shellPane(t: ScratchTmux, shell: string, argv: string[]) {
  const pane = await t.newWindow(["env", "-i", `HOME=${t.home}`, "TERM=xterm-256color", ...argv]);
  const screen = async () => await t.tmux("capture-pane", "-p", "-t", pane);
  return {
    /** Types `line` (after clearing the input) and presses `key`. */
    type: async (line: string, key: "Tab" | "Enter") => {
      await t.tmux("send-keys", "-t", pane, "C-u", line, key);
    },
    /** Waits until the pane shows `what`. */
    shows: async (what: string | RegExp, ms = 15_000) => {
      const seen = (text: string) =>
        typeof what === "string" ? text.includes(what) : what.test(text);
      try {
        await t.waitFor(async () => seen(await screen()), ms);
      } catch {
        throw new Error(`${shell} never showed ${what}; the pane:\n${await screen()}`);
      }
    },
  };
}

tmuxTest(
  "completions C94: zsh's completion system completes a subcommand, a flag and a value set",
  async (t) => {
    const { path } = await script("zsh");
    const zsh = await shellPane(t, "zsh", ["PS1=%% ", "zsh", "-f"]);
    await zsh.type(
      `autoload -U compinit && compinit -u -D && source '${path}' && echo load""ed`,
      "Enter",
    );
    // compinit scans every completion function: seconds on a loaded machine.
    await zsh.shows("\nloaded", 60_000);
    await zsh.type("tma ls --j", "Tab");
    await zsh.shows("% tma ls --json");
    await zsh.type("tma doc", "Tab");
    await zsh.shows("% tma doctor");
    await zsh.type("tma status --format ", "Tab");
    await zsh.shows(/json\s+plain\s+prom\s+tmux/);
  },
  { ignore: !requireShell("zsh") },
);

tmuxTest(
  "completions C94: elvish's completer completes a subcommand and a flag",
  async (t) => {
    const { path } = await script("elvish");
    const elvish = await shellPane(t, "elvish", ["elvish", "-norc"]);
    await elvish.type(`eval (slurp < '${path}'); echo load''ed`, "Enter");
    await elvish.shows("\nloaded");
    await elvish.type("tma ls --j", "Tab");
    await elvish.shows("tma ls --json");
    await elvish.type("tma doc", "Tab");
    await elvish.shows("tma doctor");
  },
  { ignore: !requireShell("elvish") },
);

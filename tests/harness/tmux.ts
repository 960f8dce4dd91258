/**
 * The integration-test harness: `tmuxTest()` runs a test on a scratch tmux
 * server (`-L tma-test-<random>`, `-f /dev/null`) with a scratch HOME, skips
 * it without tmux (fails instead under `TMA_REQUIRE_TMUX=1`) and always kills
 * the server; stand-in agents start under an agent's process name. Tests
 * never touch the user's tmux server, tmux config or home (R22).
 *
 * ```ts
 * tmuxTest("listPanes() D52: one call lists every pane", async (t) => {
 *   const agent = await t.standIn("claude");
 *   await t.tmux("display", "-p", "-t", agent.pane, "#{pane_id}");
 * });
 * ```
 * @module
 */
import { stripAnsi } from "../../src/core/ansi.ts";
import { RUN_PERMISSIONS } from "../../src/core/permissions.ts";
import type { TmuxServer } from "../../src/tmux/exec.ts";
import { type Ran, runProcess } from "./process.ts";

const STANDIN = new URL("./standin.sh", import.meta.url).pathname;

/** Variables a child deno needs to reach its cache and the registry. */
const PASS_THROUGH = [
  "SSL_CERT_FILE",
  "SSL_CERT_DIR",
  "DENO_CERT",
  "DENO_TLS_CA_STORE",
  "NODE_EXTRA_CA_CERTS",
  "HTTPS_PROXY",
  "HTTP_PROXY",
  "NO_PROXY",
  "https_proxy",
  "http_proxy",
  "no_proxy",
];

let cachedDenoDir: string | undefined;

/**
 * This process's Deno cache folder. A child `deno run` under a test's
 * scratch HOME would otherwise start with an empty cache and fetch every npm
 * package again (slow, and a network dependency no test should have).
 *
 * ```ts
 * denoDir(); // "/root/.cache/deno"
 * ```
 */
export function denoDir(): string {
  cachedDenoDir ??= Deno.env.get("DENO_DIR") || (() => {
    const info = new Deno.Command(Deno.execPath(), { args: ["info", "--json"], stderr: "null" })
      .outputSync();
    return JSON.parse(new TextDecoder().decode(info.stdout)).denoDir as string;
  })();
  return cachedDenoDir;
}

/** Whether tmux is installed; tests skip without it unless TMA_REQUIRE_TMUX=1 (G35). */
export const HAS_TMUX: boolean = (() => {
  try {
    return new Deno.Command("tmux", { args: ["-V"], stdout: "null", stderr: "null" }).outputSync()
      .success;
  } catch {
    if (Deno.env.get("TMA_REQUIRE_TMUX") === "1") throw new Error("tmux is required but missing");
    return false;
  }
})();

/** A stand-in agent running in a pane. */
export interface StandIn {
  pane: string;
  /** Draws a screen (plain text or ANSI) and optionally sets the title. */
  draw(screen: string, title?: string): Promise<void>;
  /** Sets the pane title. */
  title(text: string): Promise<void>;
  /** Ends the stand-in (the pane's shell stays). */
  exit(): Promise<void>;
}

/** A scratch tmux server for one test. */
export class ScratchTmux {
  readonly socketName: string;
  readonly dir: string;
  readonly home: string;
  readonly server: TmuxServer;
  #counter = 0;

  private constructor(dir: string) {
    this.dir = dir;
    this.home = `${dir}/home`;
    this.socketName = `tma-test-${crypto.randomUUID().slice(0, 8)}`;
    this.server = { bin: "tmux", socketName: this.socketName };
  }

  /** Starts the server with one session `main` of the given size. */
  static async start(options: { width?: number; height?: number } = {}): Promise<ScratchTmux> {
    const dir = await Deno.makeTempDir({ prefix: "tma-test-" });
    const scratch = new ScratchTmux(dir);
    await Deno.mkdir(scratch.home, { recursive: true });
    await scratch.tmux(
      "new-session",
      "-d",
      "-s",
      "main",
      "-x",
      String(options.width ?? 120),
      "-y",
      String(options.height ?? 40),
      "-c",
      dir,
    );
    return scratch;
  }

  /** The environment a tma child process of this test gets. */
  env(extra: Record<string, string> = {}): Record<string, string> {
    // The child deno keeps the real module cache and certificate settings:
    // only tma's view of HOME is scratch.
    const passThrough = Object.fromEntries(
      PASS_THROUGH.flatMap((name) => {
        const value = Deno.env.get(name);
        return value === undefined ? [] : [[name, value]];
      }),
    );
    return {
      ...passThrough,
      DENO_DIR: denoDir(),
      PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
      HOME: this.home,
      XDG_CONFIG_HOME: `${this.home}/.config`,
      XDG_STATE_HOME: `${this.home}/.local/state`,
      TMA_CONFIG: `${this.home}/.config/tma/config.toml`,
      // The daemon's files, the spool and the drainer's claim (U3, X10) stay scratch too.
      XDG_RUNTIME_DIR: `${this.dir}/run`,
      TERM: "xterm-256color",
      ...extra,
    };
  }

  /** Runs a tmux command on this server and returns stdout. */
  async tmux(...args: string[]): Promise<string> {
    const out = await new Deno.Command("tmux", {
      args: ["-L", this.socketName, "-f", "/dev/null", ...args],
      // The server's environment is what its run-shell children (a menu entry, a
      // key binding) run tma with: this process's Deno cache, not the scratch HOME's.
      env: { HOME: this.home, TMUX: "", DENO_DIR: denoDir() },
      stdin: "null",
    }).output();
    const text = new TextDecoder().decode(out.stdout);
    if (!out.success) {
      throw new Error(`tmux ${args.join(" ")}: ${new TextDecoder().decode(out.stderr)}`);
    }
    return text;
  }

  /** Opens a new window running `command` (argv) and returns its pane id. */
  async newWindow(
    command: string[],
    options: { width?: number; height?: number; env?: Record<string, string>; cwd?: string } = {},
  ): Promise<string> {
    const envArgs = Object.entries(options.env ?? {}).flatMap(([k, v]) => ["-e", `${k}=${v}`]);
    const pane = (await this.tmux(
      "new-window",
      "-d",
      "-P",
      "-F",
      "#{pane_id}",
      "-t",
      "main",
      "-c",
      options.cwd ?? this.dir,
      ...envArgs,
      "--",
      ...command,
    )).trim();
    if (options.width || options.height) {
      await this.tmux(
        "resize-window",
        "-t",
        pane,
        "-x",
        String(options.width ?? 120),
        "-y",
        String(options.height ?? 40),
      );
    }
    return pane;
  }

  /**
   * Starts a stand-in agent named `name`: the stand-in script run by a shell
   * whose process and `pane_current_command` carry that name.
   */
  async standIn(
    name: string,
    options: { width?: number; height?: number; title?: string; cwd?: string } = {},
  ): Promise<StandIn> {
    const id = this.#counter++;
    const binDir = `${this.dir}/bin-${id}`;
    await Deno.mkdir(binDir);
    // A symlink to the shell named like the agent: the kernel takes the
    // process name (comm) from it, and tmux the command name (argv[0]).
    await Deno.symlink("/bin/sh", `${binDir}/${name}`);
    const fifo = `${this.dir}/control-${id}`;
    await new Deno.Command("mkfifo", { args: [fifo] }).output();
    const pane = await this.newWindow(
      ["sh", "-c", `exec '${binDir}/${name}' '${STANDIN}' '${fifo}'`],
      options,
    );
    const send = async (line: string) => {
      const file = await Deno.open(fifo, { write: true });
      await file.write(new TextEncoder().encode(`${line}\n`));
      file.close();
    };
    const standIn: StandIn = {
      pane,
      draw: async (screen, title) => {
        const file = `${this.dir}/screen-${id}-${crypto.randomUUID().slice(0, 6)}`;
        await Deno.writeTextFile(file, screen);
        if (title !== undefined) await send(`title ${title}`);
        await send(`draw ${file}`);
        await this.settle(pane, screen);
        // The stand-in's clear pushed the old screen into the scrollback; a
        // real agent redraws in place, so drop it.
        await this.tmux("clear-history", "-t", pane);
      },
      title: async (text) => {
        await send(`title ${text}`);
        await this.waitFor(async () =>
          (await this.tmux("display", "-p", "-t", pane, "#{pane_title}")).trim() === text
        );
      },
      exit: async () => {
        await send("exit");
        await this.waitFor(async () => {
          const cmd = (await this.tmux("display", "-p", "-t", pane, "#{pane_current_command}"))
            .trim();
          return cmd !== name;
        });
      },
    };
    if (options.title !== undefined) await standIn.title(options.title);
    await this.waitFor(async () =>
      (await this.tmux("display", "-p", "-t", pane, "#{pane_current_command}")).trim() === name
    );
    return standIn;
  }

  /** Waits until the pane shows the last non-blank line of `screen`. */
  async settle(pane: string, screen: string): Promise<void> {
    const plain = stripAnsi(screen);
    const last = plain.split("\n").map((l) => l.trimEnd()).filter((l) => l.trim() !== "").pop();
    if (!last) return;
    await this.waitFor(async () =>
      (await this.tmux("capture-pane", "-p", "-t", pane)).includes(last)
    );
  }

  /** Polls `check` every 25 ms for up to 5 s. */
  async waitFor(check: () => Promise<boolean>, timeoutMs = 5000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      if (await check()) return;
      await new Promise((r) => setTimeout(r, 25));
    }
    throw new Error("timed out waiting for the scratch tmux server");
  }

  /** Reads one pane option. */
  async option(pane: string, name: string): Promise<string> {
    return (await this.tmux("show-options", "-pqv", "-t", pane, name)).replace(/\n$/, "");
  }

  /** Kills the server and removes the scratch folder. */
  async kill(): Promise<void> {
    await new Deno.Command("tmux", {
      args: ["-L", this.socketName, "kill-server"],
      stdout: "null",
      stderr: "null",
    }).output().catch(() => undefined);
    await Deno.remove(this.dir, { recursive: true }).catch(() => undefined);
  }
}

/**
 * Runs `fn` with a scratch server and always kills it.
 *
 * ```ts
 * await withScratchTmux(async (t) => { await t.tmux("list-panes"); });
 * ```
 */
export async function withScratchTmux<T>(
  fn: (scratch: ScratchTmux) => Promise<T>,
  options: { width?: number; height?: number } = {},
): Promise<T> {
  const scratch = await ScratchTmux.start(options);
  try {
    return await fn(scratch);
  } finally {
    await scratch.kill();
  }
}

/** Options of `tmuxTest`. */
export interface TmuxTestOptions {
  /** The size of the scratch server's first window. */
  width?: number;
  height?: number;
  /** Skips the test for a reason of its own as well (a tool or fixture it needs is absent). */
  ignore?: boolean;
}

/**
 * Registers an integration test that runs `fn` on its own scratch server
 * with a scratch HOME. Without tmux it is skipped, unless
 * `TMA_REQUIRE_TMUX=1` makes the missing tmux an error; the server is killed
 * and the scratch folder removed however `fn` ends. Name it by subject and
 * row: `"tma event D46: a subagent's events do not move the parent's state"`.
 *
 * ```ts
 * tmuxTest("capturePanes() D52: one call for every pane", async (t) => {
 *   const agent = await t.standIn("claude");
 *   await agent.draw("hello");
 * }, { width: 100 });
 * ```
 */
export function tmuxTest(
  name: string,
  fn: (scratch: ScratchTmux) => Promise<void>,
  options: TmuxTestOptions = {},
): void {
  Deno.test({
    name,
    ignore: !HAS_TMUX || options.ignore === true,
    fn: () => withScratchTmux(fn, { width: options.width, height: options.height }),
  });
}

/** Runs the tma CLI (`mod.ts`) as a child process against a scratch server. */
export async function runTma(
  scratch: ScratchTmux,
  args: string[],
  options: { stdin?: string; env?: Record<string, string>; deadlineMs?: number } = {},
): Promise<Ran> {
  const mod = new URL("../../mod.ts", import.meta.url).pathname;
  return await runProcess(Deno.execPath(), {
    args: ["run", "--quiet", ...RUN_PERMISSIONS, mod, "--socket-name", scratch.socketName, ...args],
    env: scratch.env(options.env),
    stdin: options.stdin,
    deadlineMs: options.deadlineMs,
  });
}

/** A tma child left running (`wait`, `subscribe`): its output so far, a signal, its end. */
export interface RunningTma {
  pid: number;
  /** What it printed on stdout so far. */
  stdout(): string;
  stderr(): string;
  kill(signal?: Deno.Signal): void;
  /** Its exit code and whole output, once it ends. */
  done: Promise<Ran>;
}

/** Starts the tma CLI against a scratch server and returns without waiting for it. */
export function startTma(
  scratch: ScratchTmux,
  args: string[],
  options: { env?: Record<string, string> } = {},
): RunningTma {
  const mod = new URL("../../mod.ts", import.meta.url).pathname;
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "--quiet", ...RUN_PERMISSIONS, mod, "--socket-name", scratch.socketName, ...args],
    env: scratch.env(options.env),
    clearEnv: true,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  let out = "";
  let err = "";
  const read = async (stream: ReadableStream<Uint8Array>, add: (text: string) => void) => {
    const decoder = new TextDecoder();
    for await (const chunk of stream) add(decoder.decode(chunk, { stream: true }));
  };
  const reading = Promise.all([
    read(child.stdout, (text) => (out += text)),
    read(child.stderr, (text) => (err += text)),
  ]);
  return {
    pid: child.pid,
    stdout: () => out,
    stderr: () => err,
    kill: (signal = "SIGTERM") => {
      try {
        child.kill(signal);
      } catch {
        // Already ended.
      }
    },
    done: (async () => {
      const status = await child.status;
      await reading;
      return { code: status.code, stdout: out, stderr: err };
    })(),
  };
}

/**
 * A tmux wrapper that counts its invocations (pass its `bin` as
 * `TMA_TMUX_BIN`); `count()` reads and resets the tally.
 */
export async function countingTmux(
  dir: string,
): Promise<{ bin: string; count(): Promise<number> }> {
  const log = `${dir}/tmux-calls.log`;
  const bin = `${dir}/tmux-counting`;
  const real = new TextDecoder().decode(
    (await new Deno.Command("sh", { args: ["-c", "command -v tmux"] }).output()).stdout,
  ).trim();
  await Deno.writeTextFile(bin, `#!/bin/sh\necho x >> '${log}'\nexec '${real}' "$@"\n`);
  await Deno.chmod(bin, 0o755);
  return {
    bin,
    count: async () => {
      try {
        const n = (await Deno.readTextFile(log)).split("\n").filter((l) => l !== "").length;
        await Deno.remove(log);
        return n;
      } catch {
        return 0;
      }
    },
  };
}

/**
 * The shell command line that runs the tma CLI against a scratch server
 * (for a pane or a pseudo-terminal, where `runTma` cannot go).
 *
 * ```ts
 * declare const t: ScratchTmux;
 * await t.newWindow(["sh", "-c", tmaCommand(t, ["watch"])]);
 * ```
 */
export function tmaCommand(scratch: ScratchTmux, args: string[]): string {
  const mod = new URL("../../mod.ts", import.meta.url).pathname;
  return [
    Deno.execPath(),
    "run",
    "--quiet",
    ...RUN_PERMISSIONS,
    mod,
    "--socket-name",
    scratch.socketName,
    ...args,
  ]
    .map((a) => `'${a.replaceAll("'", `'\\''`)}'`).join(" ");
}

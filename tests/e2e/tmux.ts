/**
 * A private tmux server for the real-agent suite: `tmux -L tma-e2e-<random> -f /dev/null`.
 *
 * The server is started from a scrubbed environment, so its panes inherit nothing from the
 * caller (no real HOME, no XDG folders, no TMUX of an outer session). Everything the suite does to
 * a pane (start, type, capture, read its facts, walk its processes) goes through this class.
 * `kill()` must always run, in a `finally`.
 *
 * ```ts
 * import { ScratchTmux } from "./tmux.ts";
 * const tmux = await ScratchTmux.start({ env: { PATH: "/usr/bin:/bin", HOME: "/tmp/h" } });
 * try {
 *   const pane = await tmux.newPane({ name: "a", width: 100, height: 40, cwd: "/tmp", env: {} });
 *   console.log(await tmux.capture(pane));
 * } finally {
 *   await tmux.kill();
 * }
 * ```
 * @module
 */

/** Facts of a pane, as tmux reports them. */
export interface PaneFacts {
  /** The pane title (set by the program through OSC 0/2, or the hostname). */
  title: string;
  /** `pane_current_command`: the name of the foreground process. */
  command: string;
  /** `pane_pid`: the process tmux started in the pane (our shell). */
  pid: number;
  /** `pane_height` in rows. */
  height: number;
  /** `pane_width` in columns. */
  width: number;
  /** Whether the pane shows the alternate screen. */
  alternate: boolean;
  /** Whether the pane's process has exited (with remain-on-exit on). */
  dead: boolean;
}

/** One row of `ps`. */
export interface ProcessRow {
  pid: number;
  ppid: number;
  pgid: number;
  tpgid: number;
  comm: string;
  args: string;
}

/** Options of {@link ScratchTmux.newPane}. */
export interface NewPaneOptions {
  /** The session name. */
  name: string;
  /** Columns. */
  width: number;
  /** Rows. */
  height: number;
  /** The working folder of the pane. */
  cwd: string;
  /** Variables set for the pane on top of the server's environment. */
  env: Record<string, string>;
  /** The command the pane runs; an interactive bash without rc files when absent. */
  command?: string[];
}

const decoder = new TextDecoder();

/** Quotes one word for the shell command line tmux hands to `sh -c`. */
export function shellQuote(word: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
}

/** Runs a program with a scrubbed environment and returns its stdout; throws on failure. */
async function exec(
  cmd: string[],
  options: { env: Record<string, string>; allowFailure?: boolean },
): Promise<string> {
  const output = await new Deno.Command(cmd[0], {
    args: cmd.slice(1),
    env: options.env,
    clearEnv: true,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
    signal: AbortSignal.timeout(20_000),
  }).output();
  if (!output.success && !options.allowFailure) {
    throw new Error(`${cmd.join(" ")} failed (${output.code}): ${decoder.decode(output.stderr)}`);
  }
  return decoder.decode(output.stdout);
}

/** Lists every process (one `ps`), for walking pane descendants. */
export async function listProcesses(env: Record<string, string>): Promise<ProcessRow[]> {
  const text = await exec(["ps", "-e", "-o", "pid=,ppid=,pgid=,tpgid=,comm=,args="], { env });
  const rows: ProcessRow[] = [];
  for (const line of text.split("\n")) {
    const match = /^\s*(\d+)\s+(\d+)\s+(\d+)\s+(-?\d+)\s+(\S+)\s*(.*)$/.exec(line);
    if (!match) continue;
    rows.push({
      pid: Number(match[1]),
      ppid: Number(match[2]),
      pgid: Number(match[3]),
      tpgid: Number(match[4]),
      comm: match[5],
      args: match[6],
    });
  }
  return rows;
}

/** `root` and all its descendants, parents before children. */
export function descendants(rows: ProcessRow[], root: number): ProcessRow[] {
  const out: ProcessRow[] = [];
  const visit = (pid: number, depth: number) => {
    if (depth > 64) return;
    const row = rows.find((r) => r.pid === pid);
    if (row) out.push(row);
    for (const child of rows.filter((r) => r.ppid === pid && r.pid !== pid)) {
      visit(child.pid, depth + 1);
    }
  };
  visit(root, 0);
  return out;
}

/** A private tmux server. */
export class ScratchTmux {
  /** The `-L` socket name. */
  readonly socket: string;
  readonly #env: Record<string, string>;
  #killed = false;

  private constructor(socket: string, env: Record<string, string>) {
    this.socket = socket;
    this.#env = env;
  }

  /**
   * Starts a server holding one idle session (so it outlives the agents' sessions).
   * `env` becomes the server's global environment: pass only what every pane may see.
   */
  static async start(options: { env: Record<string, string> }): Promise<ScratchTmux> {
    const socket = `tma-e2e-${crypto.randomUUID().slice(0, 8)}`;
    const tmux = new ScratchTmux(socket, options.env);
    await tmux.run(["new-session", "-d", "-s", "hold", "-x", "80", "-y", "24", "cat"]);
    return tmux;
  }

  /** Runs one tmux command against this server and returns its stdout. */
  async run(args: string[], allowFailure = false): Promise<string> {
    if (this.#killed) throw new Error(`tmux -L ${this.socket} was already killed`);
    return await exec(["tmux", "-L", this.socket, "-f", "/dev/null", ...args], {
      env: this.#env,
      allowFailure,
    });
  }

  /** Starts a detached session of the given size; returns its pane id (`%N`). */
  async newPane(options: NewPaneOptions): Promise<string> {
    const envArgs = Object.entries(options.env).flatMap(([k, v]) => ["-e", `${k}=${v}`]);
    const command = options.command ?? ["bash", "--noprofile", "--norc", "-i"];
    const out = await this.run([
      "new-session",
      "-d",
      "-P",
      "-F",
      "#{pane_id}",
      "-s",
      options.name,
      "-x",
      String(options.width),
      "-y",
      String(options.height),
      "-c",
      options.cwd,
      ...envArgs,
      command.map(shellQuote).join(" "),
    ]);
    const pane = out.trim();
    // Keep a pane whose program exits, so its last screen can still be read.
    await this.run(["set-option", "-p", "-t", pane, "remain-on-exit", "on"]);
    return pane;
  }

  /** The screen as tma captures it (D26): the viewport plus 50 lines above, ANSI kept. */
  async capture(pane: string): Promise<string> {
    return await this.run(["capture-pane", "-p", "-e", "-S", "-50", "-t", pane]);
  }

  /** The screen without escapes or scrollback, for waiting on text. */
  async screenText(pane: string): Promise<string> {
    return await this.run(["capture-pane", "-p", "-t", pane]);
  }

  /** Title, foreground command, pid, size and screen mode of a pane. */
  async facts(pane: string): Promise<PaneFacts> {
    const sep = "\u001f";
    const format = [
      "#{pane_title}",
      "#{pane_current_command}",
      "#{pane_pid}",
      "#{pane_height}",
      "#{pane_width}",
      "#{alternate_on}",
      "#{pane_dead}",
    ].join(sep);
    const out = await this.run(["display-message", "-p", "-t", pane, format]);
    const [title, command, pid, height, width, alternate, dead] = out.replace(/\n$/, "")
      .split(sep);
    return {
      title,
      command,
      pid: Number(pid),
      height: Number(height),
      width: Number(width),
      alternate: alternate === "1",
      dead: dead === "1",
    };
  }

  /** Sends key names (`Enter`, `Escape`, `Up`, `C-c`, …). */
  async keys(pane: string, ...keys: string[]): Promise<void> {
    await this.run(["send-keys", "-t", pane, ...keys]);
  }

  /** Types text literally (no key-name lookup). */
  async type(pane: string, text: string): Promise<void> {
    await this.run(["send-keys", "-t", pane, "-l", text]);
  }

  /** The pane's process and all its descendants. */
  async processTree(pane: string): Promise<ProcessRow[]> {
    const { pid } = await this.facts(pane);
    return descendants(await listProcesses(this.#env), pid);
  }

  /** Pids of every pane process and its descendants, across all sessions. */
  async allPaneProcesses(): Promise<number[]> {
    const out = await this.run(["list-panes", "-a", "-F", "#{pane_pid}"], true);
    const rows = await listProcesses(this.#env);
    return out.split("\n").filter(Boolean).flatMap((pid) =>
      descendants(rows, Number(pid)).map((r) => r.pid)
    );
  }

  /** Kills the server. Safe to call twice. */
  async kill(): Promise<void> {
    if (this.#killed) return;
    const socketPath = (await this.run(["display-message", "-p", "#{socket_path}"], true)).trim();
    await this.run(["kill-server"], true);
    this.#killed = true;
    // tmux 3.3a leaves the socket file of a killed server behind.
    if (socketPath.includes(this.socket)) await Deno.remove(socketPath).catch(() => {});
  }
}

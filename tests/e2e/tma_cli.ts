/**
 * tma itself, as the end-to-end suite runs it: `deno run <the documented permissions> mod.ts
 * --socket-name <scratch server> …` with a scratch HOME and XDG folders, so its config, state and
 * hook install land inside the run's scratch folder. Also writes a `tma` launcher script there,
 * which the hook wrapper (`tma-hook`) finds through `TMA_BIN`.
 *
 * ```ts
 * import { TmaCli } from "./tma_cli.ts";
 * const tma = await TmaCli.create({ dir: run.dir, home: run.home, socket: tmux.socket });
 * const seen = await tma.pollRow("%1", (row) => row?.state === "idle", { timeoutMs: 60_000 });
 * ```
 * @module
 */

import { RUN_PERMISSIONS } from "../../src/core/permissions.ts";
import { REPO_ROOT } from "./pins.ts";
import { sleep } from "./pane.ts";
import { shellQuote } from "./tmux.ts";

/** tma's permissions, from the one list in `src/core/permissions.ts` (never `-A`). */
export function tmaPermissions(): string[] {
  return [...RUN_PERMISSIONS];
}

/** The fields of a `tma ls --json` row the suite reads (the row has more). */
export interface LsRow {
  pane: string;
  agent: string;
  state: string;
  detail: string | null;
  attention: boolean;
  done: boolean;
  [key: string]: unknown;
}

/** What one tma invocation gave. */
export interface TmaResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** The result object of `tma act --json` (the fields the suite reads). */
export interface ActResult {
  outcome: string;
  reason: string | null;
  exit_code: number;
  [key: string]: unknown;
}

/** A poll that ended: the last row seen, whether the predicate held, and when. */
export interface PollResult {
  /** The predicate held before the bound. */
  ok: boolean;
  /** The last row read (undefined when `tma ls` listed no row for the pane). */
  row: LsRow | undefined;
  /** `Date.now()` when the `tma ls` that satisfied the predicate returned. */
  at: number;
  /** Seconds from the start of the poll to `at`. */
  seconds: number;
  /** How many `tma ls` calls the poll made. */
  calls: number;
  /** The calls that failed (a `ps` that timed out on a loaded machine), and the last message. */
  failures: number;
  lastFailure?: string;
}

/** Options of {@link TmaCli.create}. */
export interface TmaCliOptions {
  /** The run's scratch folder (the launcher script goes into `<dir>/bin`). */
  dir: string;
  /** The scratch HOME. */
  home: string;
  /** The scratch tmux server's `-L` name. */
  socket: string;
  /** More variables (CODEX_HOME, TMPDIR…). */
  extraEnv?: Record<string, string>;
}

/** tma bound to one scratch server and one scratch HOME. */
export class TmaCli {
  /** The environment every tma call (and the agent's pane) gets. */
  readonly env: Record<string, string>;
  /** The launcher script the hook wrapper calls (`TMA_BIN`). */
  readonly bin: string;
  /** The scratch server's `-L` name. */
  readonly socket: string;

  private constructor(env: Record<string, string>, bin: string, socket: string) {
    this.env = env;
    this.bin = bin;
    this.socket = socket;
  }

  /** Writes the launcher script and returns the runner. */
  static async create(options: TmaCliOptions): Promise<TmaCli> {
    const home = options.home;
    const env: Record<string, string> = {
      HOME: home,
      XDG_CONFIG_HOME: `${home}/.config`,
      XDG_STATE_HOME: `${home}/.local/state`,
      XDG_DATA_HOME: `${home}/.local/share`,
      XDG_CACHE_HOME: `${home}/.cache`,
      PATH: Deno.env.get("PATH") ?? "/usr/local/bin:/usr/bin:/bin",
      LANG: "C.UTF-8",
      NO_COLOR: "1",
      // The modules tma imports are already in this machine's Deno cache; a scratch cache
      // would fetch them from the registry on every run.
      DENO_DIR: denoDir(),
      ...options.extraEnv,
    };
    const bin = `${options.dir}/bin/tma`;
    await Deno.mkdir(`${options.dir}/bin`, { recursive: true });
    const argv = [Deno.execPath(), ...denoRunArgs()].map(shellQuote).join(" ");
    await Deno.writeTextFile(
      bin,
      `#!/bin/sh\n# tma e2e launcher: the checkout's mod.ts under tma's own permissions.\n` +
        `DENO_DIR=${shellQuote(env.DENO_DIR)} exec ${argv} "$@"\n`,
    );
    await Deno.chmod(bin, 0o755);
    env.TMA_BIN = bin;
    env.TMA_HOOK_SOCKET = options.socket;
    return new TmaCli(env, bin, options.socket);
  }

  /** Runs `tma --socket-name <socket> <args>`; never throws on a non-zero exit. */
  async run(args: string[]): Promise<TmaResult> {
    const out = await new Deno.Command(Deno.execPath(), {
      args: [...denoRunArgs(), "--socket-name", this.socket, ...args],
      env: this.env,
      clearEnv: true,
      cwd: REPO_ROOT,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
      signal: AbortSignal.timeout(60_000),
    }).output();
    const decoder = new TextDecoder();
    return {
      code: out.code,
      stdout: decoder.decode(out.stdout),
      stderr: decoder.decode(out.stderr),
    };
  }

  /** `tma ls --json --pane <pane>`: the pane's row, or undefined when tma lists none. */
  async row(pane: string): Promise<LsRow | undefined> {
    const result = await this.run(["ls", "--json", "--pane", pane]);
    if (result.code !== 0) {
      throw new Error(`tma ls --json --pane ${pane} exited ${result.code}: ${result.stderr}`);
    }
    const doc = JSON.parse(result.stdout) as { agents: LsRow[] };
    return doc.agents.find((r) => r.pane === pane);
  }

  /** `tma act <name> --pane <pane> --json [more…]`: the exit code and the result object. */
  async act(
    name: string,
    pane: string,
    more: string[] = [],
  ): Promise<{ code: number; result: ActResult | undefined; stderr: string }> {
    const out = await this.run(["act", name, "--pane", pane, "--json", ...more]);
    let result: ActResult | undefined;
    try {
      result = JSON.parse(out.stdout) as ActResult;
    } catch {
      result = undefined;
    }
    return { code: out.code, result, stderr: out.stderr };
  }

  /**
   * Polls `tma ls` until `want` holds for the pane's row or `timeoutMs` passes. Calls run back to
   * back (each is a full detection cycle in a fresh process).
   */
  async pollRow(
    pane: string,
    want: (row: LsRow | undefined) => boolean,
    options: { timeoutMs: number; signal?: AbortSignal },
  ): Promise<PollResult> {
    const start = Date.now();
    const deadline = start + options.timeoutMs;
    let row: LsRow | undefined;
    let calls = 0;
    let failures = 0;
    let lastFailure: string | undefined;
    while (Date.now() < deadline && !options.signal?.aborted) {
      calls++;
      try {
        row = await this.row(pane);
      } catch (error) {
        // One failed listing (tma's own deadline on a `ps` that a loaded machine kept waiting)
        // says nothing about the pane: count it and look again.
        failures++;
        lastFailure = error instanceof Error ? error.message : String(error);
        await sleep(100);
        continue;
      }
      const at = Date.now();
      if (want(row)) {
        return { ok: true, row, at, seconds: (at - start) / 1000, calls, failures, lastFailure };
      }
      await sleep(100);
    }
    const at = Date.now();
    return { ok: false, row, at, seconds: (at - start) / 1000, calls, failures, lastFailure };
  }
}

function denoDir(): string {
  const set = Deno.env.get("DENO_DIR");
  if (set) return set;
  const home = Deno.env.get("HOME") ?? "/root";
  return `${home}/.cache/deno`;
}

function denoRunArgs(): string[] {
  return [
    "run",
    "--quiet",
    "--no-prompt",
    ...tmaPermissions(),
    "--config",
    `${REPO_ROOT}/deno.json`,
    `${REPO_ROOT}/mod.ts`,
  ];
}

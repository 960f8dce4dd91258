/**
 * A tma daemon for an integration test: started in the foreground on the
 * scratch server, with a scratch runtime folder, its stderr kept; always
 * killed by the test.
 *
 * ```ts
 * import type { ScratchTmux } from "./tmux.ts";
 * declare const t: ScratchTmux;
 * const daemon = await startDaemon(t);
 * await daemon.stop();
 * ```
 * @module
 */
import { RUN_PERMISSIONS } from "../../src/core/permissions.ts";
import { type DaemonPaths, daemonPaths, liveDaemon } from "../../src/runtime/daemon_link.ts";
import type { ScratchTmux } from "./tmux.ts";

const MOD = new URL("../../mod.ts", import.meta.url).pathname;

/** A running test daemon. */
export interface TestDaemon {
  pid: number;
  paths: DaemonPaths;
  /** Its stderr so far. */
  stderr(): string;
  /** Resolves with its exit code. */
  exited: Promise<number>;
  /** Sends a signal. */
  signal(signal: Deno.Signal): void;
  /** SIGTERM, then SIGKILL if it lingers; waits for the end. */
  stop(): Promise<void>;
}

/** The scratch runtime folder of a test (`$XDG_RUNTIME_DIR`). */
export function runtimeDirOf(scratch: ScratchTmux): string {
  return `${scratch.dir}/run`;
}

/** The environment a tma child of a daemon test gets. */
export function daemonEnv(scratch: ScratchTmux, extra: Record<string, string> = {}) {
  return scratch.env({ XDG_RUNTIME_DIR: runtimeDirOf(scratch), ...extra });
}

/** The daemon files of the scratch server. */
export async function scratchPaths(scratch: ScratchTmux): Promise<DaemonPaths> {
  const socketPath = (await scratch.tmux("display", "-p", "#{socket_path}")).trim();
  return daemonPaths(
    (name) => name === "XDG_RUNTIME_DIR" ? runtimeDirOf(scratch) : undefined,
    socketPath,
  );
}

/** Starts `tma daemon` and waits until its socket answers. */
export async function startDaemon(
  scratch: ScratchTmux,
  options: { args?: string[]; env?: Record<string, string>; wait?: boolean } = {},
): Promise<TestDaemon> {
  await Deno.mkdir(runtimeDirOf(scratch), { recursive: true });
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--quiet",
      ...RUN_PERMISSIONS,
      MOD,
      "--socket-name",
      scratch.socketName,
      "daemon",
      ...(options.args ?? []),
    ],
    env: daemonEnv(scratch, options.env),
    clearEnv: true,
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).spawn();
  let text = "";
  const reading = (async () => {
    const decoder = new TextDecoder();
    for await (const chunk of child.stderr) text += decoder.decode(chunk, { stream: true });
  })();
  const exited = child.status.then(async (s) => {
    await reading.catch(() => undefined);
    return s.code;
  });
  const paths = await scratchPaths(scratch);
  const daemon: TestDaemon = {
    pid: child.pid,
    paths,
    stderr: () => text,
    exited,
    signal: (signal) => {
      try {
        child.kill(signal);
      } catch {
        // Already gone.
      }
    },
    stop: async () => {
      daemon.signal("SIGTERM");
      const timer = setTimeout(() => daemon.signal("SIGKILL"), 3000);
      await exited;
      clearTimeout(timer);
    },
  };
  if (options.wait === false) return daemon;
  const deadline = Date.now() + 15_000;
  let ended = false;
  exited.then(() => ended = true);
  while (Date.now() < deadline && !ended) {
    const live = await liveDaemon(paths);
    if (live?.pid === child.pid) return daemon;
    await new Promise((r) => setTimeout(r, 50));
  }
  await daemon.stop();
  throw new Error(`the test daemon did not start: ${text}`);
}

/** Polls `check` every 25 ms until true, for up to `ms`. */
export async function eventually(check: () => Promise<boolean>, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, 25));
  }
  return await check();
}

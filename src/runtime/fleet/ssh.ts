/**
 * The one module that starts a transport process (ssh, or the wrapper a
 * `[[host]]` names) to reach another host (X9). Every run has a hard
 * deadline, past which the process is killed (SIGKILL) and the run reads as
 * timed out; a process still running when tma exits is killed too (the
 * `unload` event, which `Deno.exit` fires), so no ssh outlives the command
 * that started it. The argv is built by `src/core/fleet/transport.ts`.
 *
 * Children stay in tma's process group, so a Ctrl-C at the terminal reaches
 * them as it reaches tma. Deadlines use `AbortSignal.timeout`, as the tmux
 * spawner does.
 * @module
 */

/** How one run ended. */
export type TransportRun =
  | { kind: "exited"; code: number; stdout: string; stderr: string }
  | { kind: "timeout"; stderr: string }
  | { kind: "failed"; message: string };

/** Options of one run. */
export interface RunOptions {
  /** The hard deadline of the whole run. */
  timeoutMs: number;
  /** `inherit` passes the child's output straight through (`act --host`); default piped. */
  output?: "piped" | "inherit";
}

/** The children running now, killed at exit. */
const running = new Set<Deno.ChildProcess>();
let unloadHooked = false;

function killChild(child: Deno.ChildProcess): void {
  try {
    child.kill("SIGKILL");
  } catch {
    // Already gone.
  }
}

function hookUnload(): void {
  if (unloadHooked) return;
  unloadHooked = true;
  globalThis.addEventListener("unload", () => {
    for (const child of running) killChild(child);
  });
}

/** How many transport processes this tma is running (for tests and the bench). */
export function runningTransports(): number {
  return running.size;
}

/** Kills every running transport (a surface quitting). */
export function killTransports(): void {
  for (const child of running) killChild(child);
}

async function readAll(stream: ReadableStream<Uint8Array> | null): Promise<string> {
  if (stream === null) return "";
  const chunks: Uint8Array[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  const size = chunks.reduce((n, c) => n + c.length, 0);
  const all = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    all.set(chunk, at);
    at += chunk.length;
  }
  return new TextDecoder().decode(all);
}

/**
 * Runs `argv` to its end or its deadline. stdin is closed. A program that
 * cannot start (no ssh installed) ends as `failed` with the reason.
 *
 * ```ts
 * const run = await runTransport(["ssh", "-T", "build", "tma", "ls", "--json"], { timeoutMs: 10_000 });
 * if (run.kind === "exited" && run.code === 0) console.log(run.stdout);
 * ```
 */
export async function runTransport(
  argv: readonly string[],
  options: RunOptions,
): Promise<TransportRun> {
  const [program, ...args] = argv;
  const piped = (options.output ?? "piped") === "piped";
  let child: Deno.ChildProcess;
  try {
    child = new Deno.Command(program, {
      args,
      stdin: "null",
      stdout: piped ? "piped" : "inherit",
      stderr: piped ? "piped" : "inherit",
    }).spawn();
  } catch (error) {
    const why = error instanceof Deno.errors.NotFound
      ? `${program} is not installed (or not on PATH)`
      : error instanceof Error
      ? error.message
      : String(error);
    return { kind: "failed", message: why };
  }
  hookUnload();
  running.add(child);
  const deadline = AbortSignal.timeout(options.timeoutMs);
  let timedOut = false;
  const onTimeout = () => {
    timedOut = true;
    killChild(child);
  };
  deadline.addEventListener("abort", onTimeout, { once: true });
  try {
    const reads = Promise.all([
      piped ? readAll(child.stdout) : Promise.resolve(""),
      piped ? readAll(child.stderr) : Promise.resolve(""),
    ]);
    const status = await child.status;
    // A child of a killed ssh (a ProxyCommand) may hold its stderr open: read on briefly, no more.
    const grace = AbortSignal.timeout(timedOut ? 200 : 2000);
    const outputs = await Promise.race([
      reads,
      new Promise<null>((resolve) => grace.addEventListener("abort", () => resolve(null))),
    ]);
    reads.catch(() => undefined);
    const [stdout, stderr] = outputs ?? ["", ""];
    if (timedOut) return { kind: "timeout", stderr };
    return { kind: "exited", code: status.code, stdout, stderr };
  } finally {
    deadline.removeEventListener("abort", onTimeout);
    running.delete(child);
  }
}

/**
 * Spawns one child with a deadline: the shared mechanics of every tmux, `ps`
 * and `git` call, so a hung child is killed instead of hanging tma (R11).
 * The deadline kills the child and every process under it: a hung
 * `TMA_TMUX_BIN` wrapper script would otherwise leave its own children
 * behind at every poll.
 *
 * The child stays in tma's own session. Asking Deno for a new one
 * (`detached: true`) makes it fork the whole Deno process instead of
 * spawning with `posix_spawn`, which cost each tmux call of a status poll or
 * a hook 1-3 ms of CPU here, and 10-20 ms of wall time on a loaded machine
 * (issue 14). The tree is found by parent pid instead, and only when a
 * deadline passes.
 * @module
 */

/** The decoded output of a finished child. */
export interface ChildOutput {
  code: number;
  stdout: string;
  stderr: string;
}

/** Options of `spawnWithDeadline`. */
export interface SpawnOptions {
  timeoutMs: number;
  env?: Record<string, string>;
  /** Text written to the child's stdin (closed otherwise). */
  stdin?: string;
}

/**
 * Runs `command` with `args`, stdin closed unless `options.stdin` is given.
 * Resolves "timeout" (after a SIGKILL to the child and everything under it)
 * when the deadline passes; rethrows spawn errors such as NotFound.
 */
export async function spawnWithDeadline(
  command: string,
  args: readonly string[],
  options: SpawnOptions,
): Promise<ChildOutput | "timeout"> {
  const child = new Deno.Command(command, {
    args: [...args],
    stdin: options.stdin === undefined ? "null" : "piped",
    stdout: "piped",
    stderr: "piped",
    env: options.env,
  }).spawn();
  // AbortSignal.timeout rather than setTimeout: in Deno 2.9 the first
  // setTimeout of a process loads the Node timers layer, 10-30 ms that every
  // status-line poll and every hook would pay (D64). Its timer cannot be
  // cancelled and keeps the event loop alive until it fires, which costs
  // nothing here: the CLI ends with Deno.exit.
  const deadline = AbortSignal.timeout(options.timeoutMs);
  const timedOut = new Promise<"timeout">((resolve) => {
    deadline.addEventListener("abort", () => resolve("timeout"), { once: true });
  });
  const finished = (async () => {
    if (options.stdin !== undefined) {
      const writer = child.stdin.getWriter();
      // A child that exits early closes its stdin; its status tells the rest.
      await writer.write(new TextEncoder().encode(options.stdin)).catch(() => undefined);
      await writer.close().catch(() => undefined);
    }
    return await child.output();
  })();
  const result = await Promise.race([finished, timedOut]);
  if (result === "timeout") {
    finished.catch(() => undefined);
    await killTree(child.pid);
    await child.status.catch(() => undefined);
    return "timeout";
  }
  const decoder = new TextDecoder();
  return {
    code: result.code,
    stdout: decoder.decode(result.stdout),
    stderr: decoder.decode(result.stderr),
  };
}

/**
 * SIGKILL to `pid` and every process under it. The child is stopped first,
 * so it starts nothing new while one `ps` lists who descends from it; then
 * all of them are killed, the child last (until then its children keep
 * their parent pid, which is how they were found).
 */
export async function killTree(pid: number): Promise<void> {
  signal(pid, "SIGSTOP");
  for (const descendant of descendantPids(await parentPids(), pid)) signal(descendant, "SIGKILL");
  signal(pid, "SIGKILL");
}

/** Each process's parent, from one `ps`; empty when `ps` fails (the child is still killed). */
async function parentPids(): Promise<Map<number, number>> {
  const parents = new Map<number, number>();
  try {
    const out = await new Deno.Command("ps", {
      args: ["-A", "-o", "pid=", "-o", "ppid="],
      env: { LC_ALL: "C" },
      stdin: "null",
      stdout: "piped",
      stderr: "null",
      signal: AbortSignal.timeout(KILL_WALK_TIMEOUT_MS),
    }).output();
    for (const line of new TextDecoder().decode(out.stdout).split("\n")) {
      const [pid, ppid] = line.trim().split(/\s+/).map(Number);
      if (Number.isSafeInteger(pid) && Number.isSafeInteger(ppid)) parents.set(pid, ppid);
    }
  } catch {
    // No ps, or it hung too.
  }
  return parents;
}

/** How long the kill's own `ps` may take. */
const KILL_WALK_TIMEOUT_MS = 2000;

/** The pids under `root` in a pid-to-parent map. */
export function descendantPids(parents: ReadonlyMap<number, number>, root: number): number[] {
  const children = new Map<number, number[]>();
  for (const [pid, ppid] of parents) {
    children.set(ppid, [...(children.get(ppid) ?? []), pid]);
  }
  const out: number[] = [];
  const queue = [...(children.get(root) ?? [])];
  while (queue.length > 0) {
    const next = queue.shift()!;
    if (next === root || out.includes(next)) continue;
    out.push(next);
    queue.push(...(children.get(next) ?? []));
  }
  return out;
}

function signal(pid: number, name: Deno.Signal): void {
  try {
    Deno.kill(pid, name);
  } catch {
    // Already gone.
  }
}

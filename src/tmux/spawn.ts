/**
 * Spawns one child with a deadline: the shared mechanics of every tmux, `ps`
 * and `git` call, so a hung child is killed instead of hanging tma (R11).
 * The child leads its own process group, and the deadline kills the whole
 * group: a hung `TMA_TMUX_BIN` wrapper script would otherwise leave its own
 * children behind at every poll.
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
 * Resolves "timeout" (after a SIGKILL to the child's whole process group)
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
    // A new session, so the child leads a process group that the deadline
    // can kill whole (setsid costs nothing measurable per spawn).
    detached: true,
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
    killGroup(child);
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
 * SIGKILL to the child's process group (it leads one, see above), and to the
 * child itself should the group be gone already.
 */
export function killGroup(child: Deno.ChildProcess): void {
  for (const pid of [-child.pid, child.pid]) {
    try {
      Deno.kill(pid, "SIGKILL");
    } catch {
      // Exited between the deadline and the kill.
    }
  }
}

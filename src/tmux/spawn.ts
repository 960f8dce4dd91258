/**
 * Spawns one child with a deadline: the shared mechanics of every tmux and
 * `ps` call, so a hung child is killed instead of hanging tma (R11).
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
 * Runs `command` with `args`, stdin closed unless `options.stdin` is given. Resolves "timeout" (after a
 * SIGKILL) when the deadline passes; rethrows spawn errors such as NotFound.
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
    try {
      child.kill("SIGKILL");
    } catch {
      // It exited between the deadline and the kill.
    }
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

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
  if (options.stdin !== undefined) {
    const writer = child.stdin.getWriter();
    // A child that exits early closes its stdin; its status tells the rest.
    await writer.write(new TextEncoder().encode(options.stdin)).catch(() => undefined);
    await writer.close().catch(() => undefined);
  }
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<"timeout">((resolve) => {
    timer = setTimeout(() => resolve("timeout"), options.timeoutMs);
  });
  const result = await Promise.race([child.output(), deadline]);
  clearTimeout(timer);
  if (result === "timeout") {
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

/**
 * Child processes for the tests: run a program with exactly the environment
 * given (nothing inherited), its stdin written and closed, and read back its
 * exit code and output.
 *
 * ```ts
 * const ran = await runProcess("sh", { args: ["-c", "cat"], env: { PATH: "/usr/bin:/bin" }, stdin: "hi" });
 * ran.stdout; // "hi"
 * ```
 * @module
 */

/** What a finished child process left behind. */
export interface Ran {
  code: number;
  stdout: string;
  stderr: string;
  /** The run outlived `deadlineMs` and was killed. */
  timedOut?: boolean;
}

/** Options of `runProcess`. */
export interface RunProcessOptions {
  args: readonly string[];
  /** The child's whole environment. */
  env: Record<string, string>;
  /** Written to the child's stdin, which is then closed; without it stdin is `/dev/null`. */
  stdin?: string;
  /**
   * Kills the child's whole process group this long after the start; the
   * result then has `timedOut` set (for the tests that prove nothing hangs).
   */
  deadlineMs?: number;
}

/** Runs `program` to its end and returns its exit code and decoded output. */
export async function runProcess(program: string, options: RunProcessOptions): Promise<Ran> {
  const child = new Deno.Command(program, {
    args: [...options.args],
    env: options.env,
    clearEnv: true,
    stdin: options.stdin === undefined ? "null" : "piped",
    stdout: "piped",
    stderr: "piped",
    // Its own process group, so a deadline takes down what it started too.
    detached: options.deadlineMs !== undefined,
  }).spawn();
  let timedOut = false;
  const timer = options.deadlineMs === undefined ? undefined : setTimeout(() => {
    timedOut = true;
    try {
      Deno.kill(-child.pid, "SIGKILL");
    } catch {
      // Already gone.
    }
  }, options.deadlineMs);
  try {
    if (options.stdin !== undefined) {
      const writer = child.stdin.getWriter();
      await writer.write(new TextEncoder().encode(options.stdin)).catch(() => undefined);
      await writer.close().catch(() => undefined);
    }
    const out = await child.output();
    const decoder = new TextDecoder();
    return {
      code: out.code,
      stdout: decoder.decode(out.stdout),
      stderr: decoder.decode(out.stderr),
      ...(timedOut ? { timedOut } : {}),
    };
  } finally {
    clearTimeout(timer);
  }
}

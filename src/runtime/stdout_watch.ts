/**
 * Noticing that a stream's reader went away without writing to it, so
 * `tma subscribe --json | head -1` ends as soon as `head` does, not at the
 * next document (C65).
 *
 * A process learns that the read end of its stdout pipe closed only when
 * it writes, and Deno has no way to poll a descriptor. GNU `tail -f` does
 * poll its own stdout and exits once the pipe's reader is gone, so a
 * `tail -f /dev/null` that shares our stdout is the watcher: when it exits,
 * so should we. `--pid` makes it end with us, however we end, so it never
 * holds the pipe open after we are gone. Where `tail` cannot do this (BSD
 * `tail`), the stream still ends at its next write.
 *
 * ```ts
 * const watch = watchStdoutReader(() => console.error("reader gone"));
 * // ... stream ...
 * watch.close();
 * ```
 * @module
 */

/** A running watch. */
export interface StdoutWatch {
  /** Stops watching (kills the watcher). */
  close(): void;
}

/** How often the watcher checks its output, in seconds. */
const CHECK_SECS = "0.2";

/**
 * Calls `onGone` once stdout's reader has gone away. Does nothing on a
 * terminal. (Whether stdout is a pipe cannot be asked without
 * `--allow-all`; on a file the watcher simply never fires.)
 */
export function watchStdoutReader(onGone: () => void): StdoutWatch {
  if (Deno.stdout.isTerminal()) return { close() {} };
  let child: Deno.ChildProcess;
  try {
    child = new Deno.Command("tail", {
      args: ["-s", CHECK_SECS, "-f", `--pid=${Deno.pid}`, "/dev/null"],
      stdin: "null",
      stdout: "inherit",
      stderr: "null",
    }).spawn();
  } catch {
    return { close() {} };
  }
  let closed = false;
  // GNU tail ends by SIGPIPE when the reader is gone; any other end (a tail
  // without --pid refusing its flags) says nothing about the reader.
  child.status.then((status) => {
    if (!closed && status.signal === "SIGPIPE") onGone();
  }, () => undefined);
  child.unref();
  return {
    close() {
      closed = true;
      try {
        child.kill("SIGKILL");
      } catch {
        // Already gone.
      }
    },
  };
}

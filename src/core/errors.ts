/**
 * The base of every error tma reports to a user: one line that says what
 * happened and where, and the exit code the CLI ends with.
 * @module
 */

/** Exit codes shared by every command (C42, C55). */
export const EXIT = {
  ok: 0,
  runtime: 1,
  usage: 2,
  vanished: 3,
  refused: 4,
  locked: 5,
  timeout: 124,
} as const;

/** An error with a user-facing one-line message and an exit code. */
export class TmaError extends Error {
  /** The process exit code this error ends a command with. */
  readonly exitCode: number;

  constructor(message: string, exitCode: number = EXIT.runtime) {
    super(message);
    this.name = "TmaError";
    this.exitCode = exitCode;
  }
}

/** A bad flag or argument: exit 2, and the message names the flag. */
export class UsageError extends TmaError {
  constructor(message: string) {
    super(message, EXIT.usage);
    this.name = "UsageError";
  }
}

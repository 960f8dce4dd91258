/**
 * Errors of the tmux choke point. Each names the server and what to do, and
 * carries a distinct exit code so scripts can tell them apart.
 * @module
 */
import { TmaError } from "../core/errors.ts";

/** The tmux binary could not be started (C10, G21). Exit 10. */
export class TmuxNotInstalledError extends TmaError {
  constructor(bin: string) {
    super(
      `tmux not installed: cannot run "${bin}" (set TMA_TMUX_BIN or [tmux] bin in config.toml, or install tmux)`,
      10,
    );
    this.name = "TmuxNotInstalledError";
  }
}

/** No tmux server answers on the selected socket. Exit 11. */
export class TmuxNoServerError extends TmaError {
  constructor(server: string, detail: string) {
    super(
      `no tmux server on ${server}: ${detail} (start tmux, or pick another server with ` +
        "-L NAME, -S PATH or TMA_SOCKET_PATH)",
      11,
    );
    this.name = "TmuxNoServerError";
  }
}

/** A tmux command did not finish within its timeout (D62, R11). Exit 12. */
export class TmuxTimeoutError extends TmaError {
  constructor(server: string, command: string, ms: number) {
    super(`tmux on ${server} did not answer "${command}" within ${ms} ms`, 12);
    this.name = "TmuxTimeoutError";
  }
}

/** tmux ran and reported an error. Exit 1. */
export class TmuxCommandError extends TmaError {
  readonly stderr: string;
  constructor(server: string, command: string, stderr: string) {
    super(`tmux on ${server} failed "${command}": ${stderr.trim() || "unknown error"}`);
    this.name = "TmuxCommandError";
    this.stderr = stderr;
  }
}

/**
 * A client/server protocol mismatch: the client binary is not the server's
 * version (C10). Exit 13.
 */
export class TmuxVersionMismatchError extends TmaError {
  constructor(bin: string, detail: string) {
    super(
      `tmux binary "${bin}" cannot talk to this server (${detail.trim()}); point [tmux] bin or TMA_TMUX_BIN at the tmux that started the server`,
      13,
    );
    this.name = "TmuxVersionMismatchError";
  }
}

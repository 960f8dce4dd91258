/**
 * Server selection: which tmux binary, and which server (C3, C4, C10, G21).
 * @module
 */
import { UsageError } from "../core/errors.ts";
import type { TmuxServer } from "./exec.ts";

/** What the selection is made from; the caller passes env and config in. */
export interface ServerSelection {
  socketName?: string;
  socketPath?: string;
  /** `TMA_SOCKET_PATH`, used only when neither flag is given. */
  envSocketPath?: string;
  /** `TMA_TMUX_BIN`, which beats the config. */
  envBin?: string;
  /** `[tmux] bin` from config.toml. */
  configBin?: string;
}

/**
 * Resolves the server a command targets.
 *
 * ```ts
 * resolveServer({ socketName: "work" }); // { bin: "tmux", socketName: "work" }
 * ```
 */
export function resolveServer(selection: ServerSelection): TmuxServer {
  if (selection.socketName && selection.socketPath) {
    throw new UsageError("--socket-name and --socket-path select different servers: pass one");
  }
  const bin = selection.envBin || selection.configBin || "tmux";
  if (selection.socketPath) return { bin, socketPath: selection.socketPath };
  if (selection.socketName) return { bin, socketName: selection.socketName };
  if (selection.envSocketPath) return { bin, socketPath: selection.envSocketPath };
  return { bin };
}

/** The global flags that pick a server (C3, C4). */
export interface ServerFlags {
  socketName?: string;
  socketPath?: string;
}

/** Where `serverFromGlobals` reads the rest of the selection. */
export interface ServerSources {
  /** The environment, for `TMA_SOCKET_PATH` and `TMA_TMUX_BIN`. */
  env(name: string): string | undefined;
  /** `[tmux] bin` from config.toml, when the caller read it. */
  configBin?: string;
}

/**
 * Resolves the server a command targets from its global flags, the
 * environment and the config's `[tmux] bin`: the one spelling of that
 * selection for every command and hook.
 *
 * ```ts
 * serverFromGlobals({ socketName: "work" }, { env: () => undefined }); // { bin: "tmux", socketName: "work" }
 * ```
 */
export function serverFromGlobals(globals: ServerFlags, sources: ServerSources): TmuxServer {
  return resolveServer({
    socketName: globals.socketName,
    socketPath: globals.socketPath,
    envSocketPath: sources.env("TMA_SOCKET_PATH"),
    envBin: sources.env("TMA_TMUX_BIN"),
    configBin: sources.configBin,
  });
}

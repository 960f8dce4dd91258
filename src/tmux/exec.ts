/**
 * Runs tmux. This module and `ps.ts` are the only places tma spawns `tmux` or
 * `ps`: every other layer goes through the functions of `src/tmux/`.
 *
 * Every call uses `Deno.Command` directly (dax costs tens of milliseconds to
 * import, which the hook budget cannot afford, and its timeout does not kill
 * a process group), through `spawnWithDeadline`.
 * @module
 */
import {
  TmuxCommandError,
  TmuxNoServerError,
  TmuxNotInstalledError,
  TmuxTimeoutError,
  TmuxVersionMismatchError,
} from "./errors.ts";
import { spawnWithDeadline } from "./spawn.ts";

/** Which tmux binary and which server a command goes to (C3, C4, C10). */
export interface TmuxServer {
  /** The tmux binary: a PATH name or a path. */
  bin: string;
  /** `-L` socket name. */
  socketName?: string;
  /** `-S` socket path. */
  socketPath?: string;
}

/** The per-command timeout: an unresponsive server is an error, never a hang (D62). */
export const TMUX_TIMEOUT_MS = 3000;

/**
 * `-u`: without a UTF-8 locale in the environment (a status-line job, cron,
 * a hook) tmux replaces every non-ASCII character of its output with `_`,
 * and titles, glyph anchors and screens would no longer match.
 */
const UTF8_FLAG = "-u";

/** The output of one tmux invocation. */
export interface TmuxResult {
  stdout: string;
  stderr: string;
  code: number;
}

/** Options of one tmux invocation. */
export interface RunOptions {
  timeoutMs?: number;
  /** Return a non-zero exit as a result instead of throwing. */
  allowFailure?: boolean;
}

/** The server-selecting arguments that go before every tmux command (C9). */
export function serverArgs(server: TmuxServer): string[] {
  if (server.socketPath) return ["-S", server.socketPath];
  if (server.socketName) return ["-L", server.socketName];
  return [];
}

/** A short human name for a server, for error messages. */
export function describeServer(server: TmuxServer): string {
  if (server.socketPath) return `socket path ${server.socketPath}`;
  if (server.socketName) return `socket name ${server.socketName}`;
  return "the default socket";
}

const NO_SERVER = /no server running|error connecting to|No such file or directory|server exited/;
const PROTOCOL = /protocol version mismatch|server version is too old|open terminal failed/;

/**
 * Runs one tmux command line (which may chain several commands with `;`
 * arguments) and returns its output; throws a typed error on failure.
 *
 * ```ts
 * const { stdout } = await runTmux({ bin: "tmux", socketName: "x" }, ["list-sessions"]);
 * ```
 */
export async function runTmux(
  server: TmuxServer,
  args: readonly string[],
  options: RunOptions = {},
): Promise<TmuxResult> {
  const timeoutMs = options.timeoutMs ?? TMUX_TIMEOUT_MS;
  const argv = [UTF8_FLAG, ...serverArgs(server), ...args];
  const label = args.slice(0, 1).join(" ");
  let result;
  try {
    result = await spawnWithDeadline(server.bin, argv, { timeoutMs });
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) throw new TmuxNotInstalledError(server.bin);
    throw error;
  }
  if (result === "timeout") throw new TmuxTimeoutError(describeServer(server), label, timeoutMs);
  const out: TmuxResult = result;
  if (out.code !== 0 && !options.allowFailure) throw classifyFailure(server, label, out.stderr);
  return out;
}

/** A marker line of a batch's output, and the lines printed before it. */
export interface BatchMarker {
  /** The item the marker closes (its position in the batch). */
  index: number;
  /** What follows `<nonce>:<index>` on the marker line (a writer's verdict), trimmed. */
  tail: string;
  /** The lines printed since the previous marker (a capture's screen). */
  body: string[];
}

/**
 * Reads the `<nonce>:<index>[:<tail>]` marker lines a batched script prints
 * after each item (captures and guarded writes). An item whose line failed
 * before its marker has no entry.
 *
 * ```ts
 * readMarkers("a\nb\nN:0\nN:1:1\n", "N");
 * // [{ index: 0, tail: "", body: ["a", "b"] }, { index: 1, tail: "1", body: [] }]
 * ```
 */
export function readMarkers(stdout: string, nonce: string): BatchMarker[] {
  const markers: BatchMarker[] = [];
  let body: string[] = [];
  for (const line of stdout.replace(/\n$/, "").split("\n")) {
    if (!line.startsWith(`${nonce}:`)) {
      body.push(line);
      continue;
    }
    const [index, ...tail] = line.slice(nonce.length + 1).split(":");
    markers.push({ index: Number(index.trim()), tail: tail.join(":").trim(), body });
    body = [];
  }
  return markers;
}

/**
 * Quotes one argument for tmux's configuration parser: double quotes, with
 * the characters the parser would interpret (`\`, `"`, `$`, newlines)
 * escaped, so a value reading `;` or `#` is just text.
 */
export function quoteScriptArg(arg: string): string {
  return `"${
    arg.replace(/[\\"$]/g, (ch) => `\\${ch}`).replace(/\n/g, "\\n").replace(/\r/g, "\\r")
  }"`;
}

/** One command: its argv, without `tmux`. */
export type TmuxCommand = readonly string[];

/**
 * Runs many command lines in ONE tmux process, however long: they are fed
 * to `source-file -` on stdin, which has no command-length limit. Each line
 * is a command list (its commands joined by `;`), so a failing line (a
 * vanished pane) stops only itself; the result's code is then non-zero and
 * its stderr names it.
 */
export async function runTmuxScript(
  server: TmuxServer,
  lines: readonly (readonly TmuxCommand[])[],
  options: RunOptions = {},
): Promise<TmuxResult> {
  const timeoutMs = options.timeoutMs ?? TMUX_TIMEOUT_MS;
  const script =
    lines.map((commands) =>
      commands.map((command) => command.map(quoteScriptArg).join(" ")).join(" ; ")
    ).join("\n") + "\n";
  const argv = [UTF8_FLAG, ...serverArgs(server), "source-file", "-"];
  let result;
  try {
    result = await spawnWithDeadline(server.bin, argv, { timeoutMs, stdin: script });
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) throw new TmuxNotInstalledError(server.bin);
    throw error;
  }
  if (result === "timeout") {
    throw new TmuxTimeoutError(describeServer(server), "source-file", timeoutMs);
  }
  if (result.code !== 0 && (NO_SERVER.test(result.stderr) || PROTOCOL.test(result.stderr))) {
    throw classifyFailure(server, "source-file", result.stderr);
  }
  return result;
}

/** Turns tmux's stderr into the most specific error. */
export function classifyFailure(server: TmuxServer, label: string, stderr: string): Error {
  if (PROTOCOL.test(stderr)) return new TmuxVersionMismatchError(server.bin, stderr);
  if (NO_SERVER.test(stderr)) {
    return new TmuxNoServerError(describeServer(server), stderr.trim().split("\n")[0] ?? "");
  }
  return new TmuxCommandError(describeServer(server), label, stderr);
}

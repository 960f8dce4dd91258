/**
 * The argv of every process that reaches a host (X9): the host's `command`
 * (default `ssh <name>`) with the remote command line appended as words a
 * POSIX shell on the host reads, as ssh hands them to it. When the command
 * is ssh, tma adds the options that keep a view from ever hanging or
 * prompting: `BatchMode=yes` (no password, passphrase or host-key question),
 * a `ConnectTimeout`, no shared ControlMaster (a stale master socket hangs
 * every command that reuses it), server-alive probes, and one connection
 * attempt. Options given first win in ssh, so these beat the user's
 * ssh_config; the user's own argv keeps everything else (jump hosts, `-F`,
 * identities). Pure.
 *
 * ```ts
 * const spec = { name: "build", command: ["ssh", "build"], tma: "tma", connectMs: 5000, timeoutMs: 10000 };
 * transportArgv(spec, remoteTma(spec, ["ls", "--json"]), { tty: false });
 * // ["ssh", "-o", "BatchMode=yes", ..., "-T", "build", "tma", "ls", "--json"]
 * ```
 * @module
 */
import type { HostSpec } from "./hosts.ts";

/** How a transport process runs. */
export interface TransportOptions {
  /** A terminal on the far side (`ssh -t`: an attach); else none (`-T`). */
  tty: boolean;
}

/** Whether argv[0] of a host's command is ssh (by its file name). */
export function isSsh(command: readonly string[]): boolean {
  const program = command[0] ?? "";
  return /(^|\/)ssh$/.test(program);
}

/**
 * The ssh options tma adds in front of the user's own. An interactive
 * attach (`tty`) may still ask for a passphrase in its own window, so only
 * the batch runs get `BatchMode=yes`.
 */
export function sshOptions(spec: HostSpec, options: TransportOptions): string[] {
  const connectSecs = Math.max(1, Math.ceil(spec.connectMs / 1000));
  const o = (value: string) => ["-o", value];
  return [
    ...(options.tty ? [] : o("BatchMode=yes")),
    ...o(`ConnectTimeout=${connectSecs}`),
    ...o("ConnectionAttempts=1"),
    ...o("ControlMaster=no"),
    ...o("ControlPath=none"),
    ...o("ServerAliveInterval=2"),
    ...o("ServerAliveCountMax=2"),
    ...o("LogLevel=ERROR"),
    options.tty ? "-t" : "-T",
  ];
}

/** A word that a POSIX shell reads as itself: quoted unless it is plain. */
export function shellWord(word: string): string {
  if (/^[A-Za-z0-9_%+,./:=@^-]+$/.test(word)) return word;
  return `'${word.replaceAll("'", `'\\''`)}'`;
}

/**
 * The remote tma command line: the host's `tma` program as written (so `~`
 * expands there), then each argument quoted.
 */
export function remoteTma(spec: HostSpec, args: readonly string[]): string[] {
  return [spec.tma, ...args.map(shellWord)];
}

/** A remote command line of plain words (`tmux -S … attach …`), each quoted. */
export function remoteWords(words: readonly string[]): string[] {
  return words.map(shellWord);
}

/** The argv that runs `remote` (shell words) on the host. */
export function transportArgv(
  spec: HostSpec,
  remote: readonly string[],
  options: TransportOptions,
): string[] {
  const [program, ...rest] = spec.command;
  const added = isSsh(spec.command) ? sshOptions(spec, options) : [];
  return [program, ...added, ...rest, ...remote];
}

/** The arguments of the remote `tma ls` a fetch runs: the JSON with identity keys and pane ids. */
export const FETCH_ARGS: readonly string[] = ["ls", "--json", "--identity"];

/**
 * Reaching a remote row (X9): the local window a jump opens runs
 * `ssh -t <host> tmux -S <server> attach-session -t =<session> \; select-window
 * -t %N \; select-pane -t %N`, and a jump to a session whose window is
 * already open reuses it, moving the remote session to the pane with a
 * batch `tmux … select-window \; select-pane` over the same transport. Both
 * first clear the pane's attention through the host's `tma clear-attention`,
 * as a local jump does. The window is tagged with the host, server and
 * session it shows. Pure.
 *
 * ```ts
 * const spec = { name: "build", command: ["ssh", "build"], tma: "tma", connectMs: 5000, timeoutMs: 10000 };
 * const row = { server: "/tmp/tmux-1000/default", locator: "work:2.0", pane: "%7" };
 * remoteTag(spec, row); // "build\t/tmp/tmux-1000/default\twork"
 * ```
 * @module
 */
import type { HostSpec } from "./hosts.ts";
import { sessionOfLocator } from "../jump.ts";
import { remoteTma, remoteWords, transportArgv } from "./transport.ts";

/** What reaching a row reads of it. */
export type Reachable = { server: string; locator: string; pane: string };

/** The tag of the local window that shows the row's remote session. */
export function remoteTag(spec: HostSpec, row: Reachable): string {
  return `${spec.name}\t${row.server}\t${sessionOfLocator(row.locator)}`;
}

/** The local window's name: `host:session`. */
export function remoteWindowName(spec: HostSpec, row: Reachable): string {
  return `${spec.name}:${sessionOfLocator(row.locator)}`;
}

/**
 * The remote shell words that clear the pane's attention as a jump does
 * (C29), through the host's own `tma clear-attention` (its guarded write);
 * silent, and a host without tma goes on to the tmux part.
 */
function clearWords(spec: HostSpec, row: Reachable): string[] {
  return [
    ...remoteTma(spec, ["--socket-path", row.server, "clear-attention", row.pane]),
    "2>/dev/null",
    ";",
  ];
}

/** The remote tmux commands that bring the row's session to its pane. */
function selectWords(row: Reachable): string[] {
  return ["select-window", "-t", row.pane, ";", "select-pane", "-t", row.pane];
}

/**
 * The argv of the window: the attach over an interactive transport, run by
 * `sh` so a failure (a refused connection, a session that is gone) stays on
 * screen until Enter instead of the window vanishing.
 */
export function attachArgv(spec: HostSpec, row: Reachable): string[] {
  const remote = [
    ...clearWords(spec, row),
    "exec",
    ...remoteWords([
      "tmux",
      "-S",
      row.server,
      "attach-session",
      "-t",
      `=${sessionOfLocator(row.locator)}`,
      ";",
      ...selectWords(row),
    ]),
  ];
  // One word: tmux, which runs the window's argv, would take a lone `;` for its own separator.
  const transport = transportArgv(spec, [remote.join(" ")], { tty: true });
  const hold =
    '"$@"; s=$?; [ "$s" -eq 0 ] || { printf "\\n[tma: %s exited %s; Enter closes this window]" ' +
    '"$1" "$s"; read -r _; }';
  return ["sh", "-c", hold, "tma-remote", ...transport];
}

/** The argv that moves the remote session to the row's pane (a reused window follows it). */
export function selectArgv(spec: HostSpec, row: Reachable): string[] {
  return transportArgv(
    spec,
    [...clearWords(spec, row), ...remoteWords(["tmux", "-S", row.server, ...selectWords(row)])],
    { tty: false },
  );
}

/**
 * Which tmux client a surface acts for (C6): the one `-c/--client` names,
 * else the one tma works out from where it runs. A `run-shell` binding and a
 * popup carry no pane, only `$TMUX` (socket, server pid, session id); a
 * shell in a pane carries `$TMUX_PANE` too. Control-mode clients (a daemon's)
 * are never a person's client.
 *
 * ```ts
 * import { resolveClient } from "./client.ts";
 * const clients = [
 *   { name: "/dev/pts/1", sessionName: "a", sessionId: "$0", pane: "%0", activitySec: 5, controlMode: false },
 *   { name: "/dev/pts/2", sessionName: "b", sessionId: "$1", pane: "%3", activitySec: 9, controlMode: false },
 * ];
 * resolveClient(clients, { tmux: "/tmp/tmux-0/default,42,0" })?.name; // "/dev/pts/1"
 * ```
 * @module
 */

/** One attached client, as `list-clients` reports it. */
export interface ClientFacts {
  name: string;
  sessionName: string;
  /** `$N`. */
  sessionId: string;
  /** The active pane of the client's current window. */
  pane: string;
  /** `#{client_activity}`, epoch seconds of the client's last input. */
  activitySec: number;
  controlMode: boolean;
}

/** What tma knows of where it runs. */
export interface ClientHints {
  /** `-c/--client`, already checked for an unexpanded `#{…}`. */
  explicit?: string;
  /** `$TMUX_PANE`, when tma runs in a pane. */
  pane?: string;
  /** The session holding `pane`, from the listing. */
  paneSession?: string;
  /** `$TMUX`: `socket,pid,session-index`. */
  tmux?: string;
}

/**
 * The session id `$TMUX` names (`$3`), or null.
 *
 * ```ts
 * sessionIdOf("/tmp/tmux-0/default,1234,3"); // "$3"
 * ```
 */
export function sessionIdOf(tmux: string | undefined): string | null {
  const index = tmux?.split(",").pop();
  return index !== undefined && /^\d+$/.test(index) ? `$${index}` : null;
}

/** Most recent input first. */
function byActivity(a: ClientFacts, b: ClientFacts): number {
  return b.activitySec - a.activitySec || a.name.localeCompare(b.name);
}

/**
 * The acting client, or null when no person's client is attached. An
 * explicit name that is not attached is null too (the caller says so).
 */
export function resolveClient(
  clients: readonly ClientFacts[],
  hints: ClientHints,
): ClientFacts | null {
  const people = clients.filter((c) => !c.controlMode).sort(byActivity);
  if (hints.explicit) return people.find((c) => c.name === hints.explicit) ?? null;
  if (hints.pane) {
    const showing = people.find((c) => c.pane === hints.pane);
    if (showing) return showing;
    const inSession = people.find((c) => c.sessionName === hints.paneSession);
    if (inSession) return inSession;
  }
  const sessionId = sessionIdOf(hints.tmux);
  if (sessionId) {
    const inSession = people.find((c) => c.sessionId === sessionId);
    if (inSession) return inSession;
  }
  return people[0] ?? null;
}

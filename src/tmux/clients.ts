/**
 * The attached clients of a server, in one `list-clients` call: what client
 * resolution (C6), jumps and the input-clear of attention (D58) read.
 * @module
 */
import type { ClientFacts } from "../core/client.ts";
import { runTmux, type TmuxServer } from "./exec.ts";
import { FIELD_SEPARATOR } from "./panes.ts";

const FIELDS = [
  "#{client_name}",
  "#{client_session}",
  "#{session_id}",
  "#{pane_id}",
  "#{client_activity}",
  "#{client_control_mode}",
];

/**
 * Lists the attached clients; a server with none (or none at all) lists
 * nothing.
 *
 * ```ts
 * const clients = await listClientFacts({ bin: "tmux", socketName: "work" });
 * clients[0]?.pane; // the pane that client shows, "%3"
 * ```
 */
export async function listClientFacts(server: TmuxServer): Promise<ClientFacts[]> {
  const { stdout, code } = await runTmux(
    server,
    ["list-clients", "-F", FIELDS.join(FIELD_SEPARATOR)],
    { allowFailure: true },
  );
  if (code !== 0) return [];
  return parseClientLines(stdout);
}

/** Parses `list-clients` output in the format above; short lines are skipped. */
export function parseClientLines(stdout: string): ClientFacts[] {
  const clients: ClientFacts[] = [];
  for (const line of stdout.split("\n")) {
    const parts = line.split(FIELD_SEPARATOR);
    if (parts.length < FIELDS.length) continue;
    const [name, sessionName, sessionId, pane, activity, control] = parts;
    clients.push({
      name,
      sessionName,
      sessionId,
      pane,
      activitySec: Number(activity) || 0,
      controlMode: control === "1",
    });
  }
  return clients;
}

/**
 * The attached clients of a server, in one `list-clients` call: what client
 * resolution (C6), jumps and the input-clear of attention (D58) read.
 * @module
 */
import type { ClientFacts } from "../core/client.ts";
import { runTmux, type TmuxServer } from "./exec.ts";
import type { PaneFacts, PaneOptionName } from "../core/snapshot.ts";
import { FIELD_SEPARATOR, formatOf, parsePaneLines } from "./panes.ts";

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

/** The prefix that tells a client line from a pane line in one combined listing. */
const CLIENT_MARK = `tma-client${FIELD_SEPARATOR}`;

/**
 * Every pane (with `options` only) and every client in ONE tmux process:
 * what a surface's first frame needs, for the price of one spawn.
 *
 * ```ts
 * const { panes, clients } = await listPanesAndClients({ bin: "tmux" }, ["@agent_state"]);
 * ```
 */
export async function listPanesAndClients(
  server: TmuxServer,
  options: readonly PaneOptionName[],
): Promise<{ panes: PaneFacts[]; clients: ClientFacts[] }> {
  const { stdout } = await runTmux(server, [
    "list-panes",
    "-a",
    "-F",
    formatOf(options),
    ";",
    "list-clients",
    "-F",
    CLIENT_MARK + FIELDS.join(FIELD_SEPARATOR),
  ]);
  const lines = stdout.split("\n");
  const clientLines = lines.filter((l) => l.startsWith(CLIENT_MARK));
  return {
    panes: parsePaneLines(lines.filter((l) => !l.startsWith(CLIENT_MARK)).join("\n"), options),
    clients: parseClientLines(clientLines.map((l) => l.slice(CLIENT_MARK.length)).join("\n")),
  };
}

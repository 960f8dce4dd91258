/**
 * This machine's rows in a fleet view (X9): the listing's rows with the
 * identity keys a fleet row carries, read from the same cycle's panes, and
 * the document a host's `tma ls --json --identity` prints for the machine
 * that reads it (the rows, then every live pane id). Pure.
 *
 * ```ts
 * withIdentity([], [], 1_700_000_000_000); // []
 * ```
 * @module
 */
import type { AgentRow } from "../rows.ts";
import type { PaneFacts } from "../snapshot.ts";
import type { FleetRow } from "./reading.ts";
import { fleetRowObject } from "./view.ts";

/** The rows with their identity keys: pane pid and command from the cycle, the server's start. */
export function withIdentity(
  rows: readonly AgentRow[],
  panes: readonly Pick<PaneFacts, "paneId" | "panePid" | "currentCommand">[],
  serverStartedMs: number | null,
): FleetRow[] {
  const byId = new Map(panes.map((p) => [p.paneId, p]));
  return rows.map((row) => {
    const pane = byId.get(row.pane);
    return {
      ...row,
      server_started_ms: serverStartedMs,
      pane_pid: pane ? pane.panePid : null,
      command: pane ? pane.currentCommand : null,
    };
  });
}

/**
 * The `ls --json --identity` document: schema 1, the rows with identity
 * keys, and `panes`, every live pane id of the server (so a reader tells a
 * vanished pane from an agent that left a living pane).
 */
export function identityDocument(
  rows: readonly FleetRow[],
  panes: readonly Pick<PaneFacts, "paneId" | "dead">[],
): string {
  return JSON.stringify({
    schema: 1,
    agents: rows.map(fleetRowObject),
    panes: panes.map((p) => p.paneId),
  });
}

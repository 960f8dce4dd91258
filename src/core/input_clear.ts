/**
 * Attention cleared by input (D58): a pane whose flag was raised before the
 * last input of a client showing it has been seen. The comparison is an
 * ordering of instants, not a time window: `#{client_activity}` (whole
 * seconds) must be later than the raise instant (the later of `since` and
 * `turn_at`), so an input in the same second as the raise never counts.
 * Only the pane the client shows (its window's active pane, where the input
 * went) is cleared; control-mode clients type nothing.
 *
 * ```ts
 * import { inputCleared } from "./input_clear.ts";
 * const client = { name: "c", sessionName: "s", sessionId: "$0", pane: "%1", activitySec: 1_700_000_100, controlMode: false };
 * inputCleared([client], [{ pane: "%1", attention: true, since: 1_700_000_000_000, turnAt: null }]);
 * // ["%1"]
 * ```
 * @module
 */
import type { ClientFacts } from "./client.ts";

/** What the rule reads of a pane's stamp. */
export interface RaisedPane {
  pane: string;
  attention: boolean;
  since: number | null;
  turnAt: number | null;
}

/** The raise instant of a flag: the later of `since` and `turn_at`, or null. */
export function raiseInstant(pane: RaisedPane): number | null {
  if (pane.since === null && pane.turnAt === null) return null;
  return Math.max(pane.since ?? 0, pane.turnAt ?? 0);
}

/** The panes whose attention the clients' input has cleared. */
export function inputCleared(
  clients: readonly ClientFacts[],
  panes: readonly RaisedPane[],
): string[] {
  const byPane = new Map(panes.map((p) => [p.pane, p]));
  const cleared = new Set<string>();
  for (const client of clients) {
    if (client.controlMode) continue;
    const pane = byPane.get(client.pane);
    if (!pane?.attention) continue;
    const raised = raiseInstant(pane);
    // The activity second must start after the raise instant.
    if (raised !== null && client.activitySec * 1000 > raised) cleared.add(pane.pane);
  }
  return [...cleared];
}

/**
 * Which command a trigger runs (G12, G17, G18) and whether a fire is held
 * back because the user is already looking at the pane (X5).
 *
 * ```ts
 * import { commandFor } from "./route.ts";
 * commandFor("done", { command: "notify-send tma", done: { command: "say done" } }, undefined);
 * // "say done"
 * ```
 * @module
 */
import type { ClientFacts } from "../client.ts";
import type { TriggerName } from "./trigger.ts";

/** The `[notify]` keys that route commands. */
export interface CommandRoutes {
  command?: string;
  blocked?: { command?: string };
  done?: { command?: string };
  context_high?: { command?: string };
}

/**
 * The command a trigger resolves to: `TMA_NOTIFY_CMD` beats every trigger's
 * command, then the trigger's own table (`[notify.blocked]`,
 * `[notify.done]`, `[notify] context_high`), then `[notify] command`; null
 * when none is set.
 */
export function commandFor(
  trigger: TriggerName,
  routes: CommandRoutes,
  envCommand: string | undefined,
): string | null {
  if (envCommand) return envCommand;
  return routes[trigger]?.command ?? routes.command ?? null;
}

/**
 * Whether the user is looking at `pane`: a client that is not in control
 * mode displays it and had input within the last `lookingSecs` seconds
 * (X5). `lookingSecs` 0 turns the check off.
 *
 * ```ts
 * const client = { name: "/dev/pts/1", sessionName: "w", sessionId: "$0", pane: "%3" };
 * userIsLooking([{ ...client, activitySec: 1785100000, controlMode: false }],
 *   { pane: "%3", nowMs: 1785100010000, lookingSecs: 30 }); // true
 * ```
 */
export function userIsLooking(
  clients: readonly ClientFacts[],
  context: { pane: string; nowMs: number; lookingSecs: number },
): boolean {
  if (context.lookingSecs <= 0) return false;
  const nowSec = Math.floor(context.nowMs / 1000);
  return clients.some((client) =>
    !client.controlMode && client.pane === context.pane &&
    nowSec - client.activitySec <= context.lookingSecs
  );
}

/** The clients a status-line message goes to: every attached one but control-mode clients (U19). */
export function messageClients(clients: readonly ClientFacts[]): string[] {
  return clients.filter((client) => !client.controlMode).map((client) => client.name);
}

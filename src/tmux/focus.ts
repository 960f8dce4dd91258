/**
 * Moves a client to a pane (C33): `switch-client`, `select-window` and
 * `select-pane`, each only when the plan needs it, in one tmux invocation.
 * @module
 */
import type { FocusPlan } from "../core/jump.ts";
import { runTmux, type TmuxServer } from "./exec.ts";

/** The argv of a plan's commands, `;`-chained; empty when nothing moves. */
export function focusArgs(plan: FocusPlan): string[] {
  const commands: string[][] = [];
  const { target } = plan;
  if (plan.switchClient) {
    commands.push(["switch-client", "-c", plan.client, "-t", `=${target.sessionName}`]);
  }
  if (plan.selectWindow) commands.push(["select-window", "-t", target.windowId]);
  if (plan.selectPane) commands.push(["select-pane", "-t", target.pane]);
  return commands.flatMap((command, i) => i === 0 ? command : [";", ...command]);
}

/**
 * Runs the move.
 *
 * ```ts
 * import { focusPlan } from "../core/jump.ts";
 * const target = { pane: "%4", sessionName: "b", windowId: "@2", windowActive: false, active: true };
 * await focusClient({ bin: "tmux", socketName: "work" }, focusPlan("/dev/pts/1", "a", target));
 * ```
 */
export async function focusClient(server: TmuxServer, plan: FocusPlan): Promise<void> {
  const args = focusArgs(plan);
  if (args.length > 0) await runTmux(server, args);
}

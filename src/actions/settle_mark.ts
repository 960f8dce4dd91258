/**
 * The broker's note that tma itself delivered what ends a pane's state
 * (D65, D67): `@tma_delivered = <state>:<ms>`, written through the guarded
 * writer after an action with `settles = true` went out. The fold reads it
 * on the next cycle and settles the pane without waiting for a hook or the
 * dwell; a hook event after the delivery makes the mark moot.
 * @module
 */
import { DELIVERED_OPTION, deliveredMark } from "../core/settle.ts";
import type { State } from "../core/state.ts";
import type { TmuxServer } from "../tmux/exec.ts";
import { writeChains } from "../tmux/writer.ts";

/** The states a delivery can end; an action fired at any other state leaves no mark. */
const SETTLED: ReadonlySet<State> = new Set(["working", "blocked"]);

/**
 * Marks `pane` as having had `state` ended by tma at `at` (the moment before
 * the keys or reply went out). Best effort: a pane that vanished meanwhile,
 * or a state no delivery ends, writes nothing.
 *
 * ```ts
 * import type { TmuxServer } from "../tmux/exec.ts";
 * declare const server: TmuxServer;
 * await markDelivered(server, { pane: "%3", state: "working", at: Date.now() });
 * ```
 */
export async function markDelivered(
  server: TmuxServer,
  mark: { pane: string; state: State | null; at: number },
): Promise<void> {
  if (mark.state === null || !SETTLED.has(mark.state)) return;
  await writeChains(server, [{
    pane: mark.pane,
    writes: [{ name: DELIVERED_OPTION, value: deliveredMark(mark.state, mark.at) }],
  }]).catch(() => undefined);
}

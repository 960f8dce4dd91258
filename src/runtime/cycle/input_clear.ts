/**
 * The cycle's attention clear by input (D58): one `list-clients`, only when
 * some pane carries attention (D52), and one guarded write for the panes
 * cleared. Each clear holds only while the pane's episode is the one
 * compared (`since` and `turn_at` unchanged), so a flag raised again by a
 * newer producer meanwhile is never lost.
 * @module
 */
import { inputCleared, type RaisedPane } from "../../core/input_clear.ts";
import { readStamp } from "../../core/stamp.ts";
import type { PaneOptions } from "../../core/snapshot.ts";
import { listClientFacts } from "../../tmux/clients.ts";
import type { TmuxServer } from "../../tmux/exec.ts";
import { escapeFormat, writeChains } from "../../tmux/writer.ts";

/** What the clear reads and updates of a cycle's outcome. */
export interface ClearablePane {
  pane: { paneId: string };
  options: PaneOptions;
}

/** A guard that holds while an option still reads `value` (absent as ""). */
function same(name: string, value: string | undefined): string {
  return `#{==:#{${name}},${escapeFormat(value ?? "")}}`;
}

/**
 * Clears attention on the panes the clients' input has seen and updates
 * their options in place. Returns the number of tmux calls it made.
 */
export async function clearSeenAttention(
  server: TmuxServer,
  outcomes: readonly ClearablePane[],
): Promise<number> {
  const raised: RaisedPane[] = [];
  for (const outcome of outcomes) {
    const stamp = readStamp(outcome.options);
    if (!stamp.attention) continue;
    raised.push({
      pane: outcome.pane.paneId,
      attention: true,
      since: stamp.since,
      turnAt: stamp.turnAt,
    });
  }
  if (raised.length === 0) return 0;
  const cleared = inputCleared(await listClientFacts(server), raised);
  if (cleared.length === 0) return 1;
  const byPane = new Map(outcomes.map((o) => [o.pane.paneId, o]));
  const committed = await writeChains(
    server,
    cleared.map((pane) => {
      const options = byPane.get(pane)!.options;
      const since = same("@agent_since", options["@agent_since"]);
      const turn = same("@agent_turn_at", options["@agent_turn_at"]);
      return {
        pane,
        guard: `#{?${since},${turn},0}`,
        writes: [{ name: "@agent_attention", value: null }],
      };
    }),
  );
  for (const pane of cleared) {
    if (committed.get(pane)) {
      delete (byPane.get(pane)!.options as Record<string, string>)["@agent_attention"];
    }
  }
  return 2;
}

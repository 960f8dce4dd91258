/**
 * The daemon's side of hook-liveness demotion (U9): judging each pane a
 * cycle folds (through `core/hook_liveness.ts`), and publishing what it
 * decided as `@tma_demoted` for doctor (U42), which works without asking
 * the daemon. A marker is set only while the pane's `@tma_hook_at` still
 * reads the hook time it was demoted at, so a hook event racing in wins.
 * @module
 */
import type { Config } from "../core/config/schema.ts";
import { DEMOTED_OPTION, HookLiveness } from "../core/hook_liveness.ts";
import type { PaneFacts, PaneOptions } from "../core/snapshot.ts";
import type { Stamp } from "../core/stamp.ts";
import type { QuietEdges } from "../core/quiet_edges.ts";
import type { TmuxServer } from "../tmux/exec.ts";
import { escapeFormat, type WriteChain, writeChains } from "../tmux/writer.ts";

/** The demotions of one daemon, kept across cycles and reloads (U13). */
export class Demotions {
  readonly #liveness = new HookLiveness();
  readonly #edges: QuietEdges;

  /** Counts edges with the daemon's quiet-edge tracker (reset by each hook event it ingests). */
  constructor(edges: QuietEdges) {
    this.#edges = edges;
  }

  /** Whether a hook-sourced pane's quiet edge calls for a capture. */
  due(pane: string, config: Config): boolean {
    return this.#liveness.due(pane, {
      edges: this.#edges.edges(pane),
      demoteEdges: config.daemon.demote_edges,
    });
  }

  /** The cycle's judgement of one pane (`runCycle`'s `unguarded`). */
  judge(pane: PaneFacts, prior: Stamp, context: { config: Config; nowMs: number }): boolean {
    const { config } = context;
    const judged = this.#liveness.judge(pane.paneId, {
      claim: { state: prior.state, source: prior.source, hookAt: prior.hookAt },
      edges: this.#edges.edges(pane.paneId),
      nowMs: context.nowMs,
      demoteEdges: config.daemon.demote_edges,
      windows: {
        dwellSecs: config.fold.dwell_secs,
        hookDecaySecs: config.fold.hook_decay_secs,
        blockedDecaySecs: config.fold.blocked_decay_secs,
      },
      marker: pane.options[DEMOTED_OPTION],
    });
    if (judged.resumed) this.#edges.resetEdges(pane.paneId);
    return judged.unguarded;
  }

  /** Forgets a pane that closed or holds no agent. */
  forget(pane: string): void {
    this.#liveness.forget(pane);
  }

  /** The panes tracked. */
  panes(): string[] {
    return this.#liveness.panes();
  }

  /**
   * Brings `@tma_demoted` in line with the judgements, for the agent panes
   * a cycle read; one tmux call when something changed, none otherwise.
   */
  async publish(
    server: TmuxServer,
    panes: readonly { pane: { paneId: string }; options: PaneOptions }[],
  ): Promise<void> {
    const chains: WriteChain[] = [];
    for (const { pane, options } of panes) {
      const want = this.#liveness.marker(pane.paneId);
      const have = options[DEMOTED_OPTION] ?? null;
      if (want === have) continue;
      const guard = want === null
        ? `#{==:#{${DEMOTED_OPTION}},${escapeFormat(have ?? "")}}`
        : `#{==:#{@tma_hook_at},${escapeFormat(want)}}`;
      chains.push({ pane: pane.paneId, guard, writes: [{ name: DEMOTED_OPTION, value: want }] });
    }
    if (chains.length > 0) await writeChains(server, chains);
  }
}

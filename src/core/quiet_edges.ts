/**
 * Per-pane active/quiet edges from `%output` (U7), pure: every time is
 * passed in. A pane that prints becomes active; one that has printed nothing
 * for `quietMs` since becomes quiet once, which is when the daemon captures
 * it (a permission prompt stops output).
 * @module
 */

/** Tracks which panes are printing. */
export class QuietEdges {
  #lastOutput = new Map<string, number>();
  #edges = new Map<string, number>();

  /** Records output from `pane`; true when it was quiet before (an active edge). */
  output(pane: string, nowMs: number): boolean {
    const wasQuiet = !this.#lastOutput.has(pane);
    this.#lastOutput.set(pane, nowMs);
    if (wasQuiet) this.#edges.set(pane, (this.#edges.get(pane) ?? 0) + 1);
    return wasQuiet;
  }

  /**
   * The panes that have been silent for `quietMs` since they last printed
   * (each reported once per active spell), with the time they went quiet.
   *
   * ```ts
   * const edges = new QuietEdges();
   * edges.output("%1", 0);
   * edges.quiet(500, 1000); // []
   * edges.quiet(1000, 1000); // [{ pane: "%1", lastOutputMs: 0 }]
   * edges.quiet(5000, 1000); // []
   * ```
   */
  quiet(nowMs: number, quietMs: number): { pane: string; lastOutputMs: number }[] {
    const due: { pane: string; lastOutputMs: number }[] = [];
    for (const [pane, last] of this.#lastOutput) {
      if (nowMs - last >= quietMs) due.push({ pane, lastOutputMs: last });
    }
    for (const { pane } of due) this.#lastOutput.delete(pane);
    return due;
  }

  /** Whether the pane is printing now (output within its current spell). */
  active(pane: string): boolean {
    return this.#lastOutput.has(pane);
  }

  /** How many active edges the pane showed since `resetEdges` (hook-liveness, U9). */
  edges(pane: string): number {
    return this.#edges.get(pane) ?? 0;
  }

  /** Restarts the pane's edge count (a hook event arrived). */
  resetEdges(pane: string): void {
    this.#edges.delete(pane);
  }

  /** Forgets a pane that closed. */
  forget(pane: string): void {
    this.#lastOutput.delete(pane);
    this.#edges.delete(pane);
  }

  /** The panes being tracked at all (for forgetting closed ones). */
  panes(): string[] {
    return [...new Set([...this.#lastOutput.keys(), ...this.#edges.keys()])];
  }
}

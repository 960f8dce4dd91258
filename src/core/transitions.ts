/**
 * The daemon's transition ring (U12, P74), pure: the last 256 state changes
 * it saw, with a lifetime count. Empty after a restart.
 * @module
 */
import type { State } from "./state.ts";

/** One state change of one pane. */
export interface Transition {
  pane: string;
  /** Null the first time the daemon sees the pane. */
  from: State | null;
  to: State | null;
  /** Epoch ms. */
  at: number;
  /** What drove it: `hook`, `quiet`, `sweep`, `lifecycle`, `start`. */
  source: string;
}

/** The ring's capacity (P74). */
export const RING_CAP = 256;

/** A bounded history of transitions. */
export class TransitionRing {
  #items: Transition[] = [];
  #recorded = 0;
  #last = new Map<string, State | null>();

  /**
   * Records `pane`'s state as now seen; a change from the last sight (or a
   * first sight of a stamped pane) is a transition. Returns it, or null.
   *
   * ```ts
   * const ring = new TransitionRing();
   * ring.observe("%1", "working", 1, "hook")?.from; // null
   * ring.observe("%1", "working", 2, "hook"); // null: no change
   * ring.observe("%1", "blocked", 3, "quiet")?.from; // "working"
   * ```
   */
  observe(pane: string, state: State | null, at: number, source: string): Transition | null {
    const seen = this.#last.has(pane);
    const from = this.#last.get(pane) ?? null;
    if (seen && from === state) return null;
    this.#last.set(pane, state);
    if (!seen && state === null) return null;
    if (state === null) this.#last.delete(pane);
    const transition = { pane, from, to: state, at, source };
    this.#items.push(transition);
    if (this.#items.length > RING_CAP) this.#items.shift();
    this.#recorded++;
    return transition;
  }

  /** Panes seen before that no longer exist: each closes with a transition to null. */
  closeMissing(live: ReadonlySet<string>, at: number, source: string): Transition[] {
    const closed: Transition[] = [];
    for (const pane of [...this.#last.keys()]) {
      if (live.has(pane)) continue;
      const t = this.observe(pane, null, at, source);
      if (t) closed.push(t);
    }
    return closed;
  }

  /** The P74 document. */
  document(): { schema: 1; cap: number; recorded: number; transitions: Transition[] } {
    return { schema: 1, cap: RING_CAP, recorded: this.#recorded, transitions: [...this.#items] };
  }
}

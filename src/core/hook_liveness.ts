/**
 * Hook-liveness demotion (U9, G26), pure: the daemon trusts a pane's hooks
 * and leaves its quiet edges alone, until the pane shows `demote_edges`
 * activity edges with no hook event outside a still-fresh hook claim. Then
 * the pane is demoted: it is captured at its quiet edges like a hookless
 * pane, and its capture verdicts are folded as if it held no hook claim,
 * until a hook event lands again.
 *
 * A pane is hook-registered once a hook event has stamped it
 * (`@tma_hook_at`). A hook claim is still fresh while its event is younger
 * than the claim's decay window (D19): a long tool run that prints for a
 * minute after one `PreToolUse` is not a sign of dead hooks. The edges are
 * counted by the daemon's quiet-edge tracker since the last hook event it
 * ingested; a hook event that reached the pane any other way shows here as
 * a `@tma_hook_at` that moved, which resumes the pane just the same.
 *
 * The daemon publishes a demotion as the pane option `@tma_demoted`, the
 * hook-event time it was demoted at, so doctor sees it without asking the
 * daemon: it holds while it equals `@tma_hook_at` (a hook event since
 * moves that) and a daemon runs.
 *
 * ```ts
 * import { HookLiveness } from "./hook_liveness.ts";
 * const liveness = new HookLiveness();
 * const windows = { dwellSecs: 3, hookDecaySecs: 60, blockedDecaySecs: 300 };
 * const claim = { state: "idle" as const, source: "hook" as const, hookAt: 1785100000000 };
 * liveness.judge("%3", { claim, edges: 5, nowMs: 1785100120000, demoteEdges: 5, windows });
 * // { unguarded: true, resumed: false }
 * liveness.marker("%3"); // "1785100000000"
 * ```
 * @module
 */
import { decayWindowMs, type FoldWindows } from "./fold.ts";
import type { Source, State } from "./state.ts";

/** The pane option a demotion is published in (U42): the hook-event time it was demoted at. */
export const DEMOTED_OPTION = "@tma_demoted";

/** What the judgement reads of a pane's stamp. */
export interface HookClaim {
  state: State | null;
  source: Source | null;
  /** `@tma_hook_at`: the last hook event that stamped the pane, or null for none ever. */
  hookAt: number | null;
}

/**
 * Whether a hook claim is still fresh: the stamp is a hook's and its event
 * is younger than the claim's decay window.
 *
 * ```ts
 * const windows = { dwellSecs: 3, hookDecaySecs: 60, blockedDecaySecs: 300 };
 * freshHookClaim({ state: "blocked", source: "hook", hookAt: 0 }, { nowMs: 120_000, windows }); // true
 * ```
 */
export function freshHookClaim(
  claim: HookClaim,
  context: { nowMs: number; windows: FoldWindows },
): boolean {
  if (claim.source !== "hook" || claim.state === null || claim.hookAt === null) return false;
  return context.nowMs - claim.hookAt < decayWindowMs(claim.state, context.windows);
}

/**
 * Whether a pane that showed `edges` activity edges with no hook event is
 * demoted now: it is hook-registered, its claim is not fresh, and the
 * edges reach `demoteEdges`.
 */
export function demotes(
  claim: HookClaim,
  context: { edges: number; nowMs: number; demoteEdges: number; windows: FoldWindows },
): boolean {
  if (claim.hookAt === null) return false;
  if (freshHookClaim(claim, context)) return false;
  return context.edges >= context.demoteEdges;
}

/** What one judgement found. */
export interface Judgement {
  /** Fold this pane's capture as if it held no hook claim. */
  unguarded: boolean;
  /** A hook event landed since the last judgement: the edge count starts again. */
  resumed: boolean;
}

/** One pane as the tracker remembers it. */
interface Tracked {
  /** The hook-event time last judged against; undefined before the first judgement. */
  hookAt: number | null | undefined;
  /** The hook-event time the pane was demoted at, or null when it is not demoted. */
  demotedAt: number | null;
}

/** Every pane's demotion, across cycles and reloads (U13). */
export class HookLiveness {
  #panes = new Map<string, Tracked>();

  /**
   * Judges one pane against its stamp as a cycle read it. `marker` is its
   * `@tma_demoted` as read: at the first judgement a marker that still
   * matches the hook-event time is taken over (a restarted daemon keeps a
   * demotion whose hooks are still silent).
   */
  judge(
    pane: string,
    context: {
      claim: HookClaim;
      edges: number;
      nowMs: number;
      demoteEdges: number;
      windows: FoldWindows;
      marker?: string;
    },
  ): Judgement {
    const { claim } = context;
    let tracked = this.#panes.get(pane);
    let resumed = false;
    if (tracked === undefined) {
      const adopted = claim.hookAt !== null && context.marker === String(claim.hookAt);
      tracked = { hookAt: claim.hookAt, demotedAt: adopted ? claim.hookAt : null };
      this.#panes.set(pane, tracked);
    } else if (tracked.hookAt !== claim.hookAt) {
      tracked.hookAt = claim.hookAt;
      tracked.demotedAt = null;
      resumed = true;
    }
    if (tracked.demotedAt !== null) return { unguarded: true, resumed };
    const edges = resumed ? 0 : context.edges;
    if (!demotes(claim, { ...context, edges })) return { unguarded: false, resumed };
    tracked.demotedAt = claim.hookAt;
    return { unguarded: true, resumed };
  }

  /** Whether the pane is demoted. */
  demoted(pane: string): boolean {
    return (this.#panes.get(pane)?.demotedAt ?? null) !== null;
  }

  /**
   * Whether the pane's quiet edge calls for a capture, as a hookless
   * pane's does: it is demoted, or it showed enough edges to be judged.
   */
  due(pane: string, context: { edges: number; demoteEdges: number }): boolean {
    return this.demoted(pane) || context.edges >= context.demoteEdges;
  }

  /** The `@tma_demoted` value the pane should carry: its demotion's hook time, or null. */
  marker(pane: string): string | null {
    const at = this.#panes.get(pane)?.demotedAt ?? null;
    return at === null ? null : String(at);
  }

  /** Forgets a pane that closed or holds no agent. */
  forget(pane: string): void {
    this.#panes.delete(pane);
  }

  /** The panes tracked. */
  panes(): string[] {
    return [...this.#panes.keys()];
  }
}

/**
 * Whether a pane's published demotion still holds: `@tma_demoted` names the
 * hook-event time `@tma_hook_at` still reads (no hook event since). Doctor
 * adds that a daemon must be running.
 *
 * ```ts
 * demotionHolds({ "@tma_demoted": "1785100000000", "@tma_hook_at": "1785100000000" }); // true
 * demotionHolds({ "@tma_demoted": "1785100000000", "@tma_hook_at": "1785100009000" }); // false
 * ```
 */
export function demotionHolds(options: Partial<Record<string, string>>): boolean {
  const marker = options[DEMOTED_OPTION] ?? "";
  return marker !== "" && marker === (options["@tma_hook_at"] ?? "");
}

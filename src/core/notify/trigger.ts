/**
 * When a pane's stamp calls for a notification (U18, U23, U27): the trigger
 * decision every dispatcher (a hook's direct fire, a poll producer, later
 * the daemon) makes from the stamp as it stands, and the stamp fields the
 * decision read, which the marker claim re-checks server side.
 *
 * Triggers are read from the level, not from an edge: a pane that is
 * `blocked` (or `idle` with attention, for `done`) and whose marker
 * `@agent_notified_at` is older than its episode instant (the later of
 * `@agent_since` and `@agent_turn_at`) is due. So whichever producer sees
 * the episode first announces it, and the marker makes every other one a
 * no-op: at most once per episode.
 *
 * ```ts
 * import { stateTrigger } from "./trigger.ts";
 * const due = stateTrigger(
 *   { "@agent_name": "claude", "@agent_state": "blocked", "@agent_since": "1785100000000" },
 *   { on: ["blocked"], nowMs: 1785100000500 },
 * );
 * due?.trigger; // "blocked"
 * due?.markerMs; // 1785100000500
 * ```
 * @module
 */
import type { PaneOptions } from "../snapshot.ts";
import { readStamp } from "../stamp.ts";
import type { State } from "../state.ts";
import { parseEpochMs } from "../time.ts";

/** The state triggers `[notify] on` chooses among (G13). */
export type StateTriggerName = "blocked" | "done";

/** Every trigger word a payload's `state` may carry (P62). */
export type TriggerName = StateTriggerName | "context_high";

/** The stamp fields a state trigger was decided from, exactly as stored. */
export interface EpisodeGuard {
  state: State;
  /** `@agent_since` as stored ("" when absent). */
  since: string;
  /** `@agent_turn_at` as stored ("" when absent). */
  turnAt: string;
  /** `done` needs the attention flag still up. */
  attention: boolean;
  /** The episode instant the marker must be older than. */
  episodeMs: number;
}

/** A state trigger that is due. */
export interface DueStateTrigger {
  trigger: StateTriggerName;
  guard: EpisodeGuard;
  /** The marker value to commit: now, clamped to at least the episode instant (U23). */
  markerMs: number;
}

/** The episode instant of a stamp: the later of since and turn_at, or null (P44). */
export function episodeOf(options: PaneOptions): number | null {
  const stamp = readStamp(options);
  if (stamp.since === null && stamp.turnAt === null) return null;
  return Math.max(stamp.since ?? 0, stamp.turnAt ?? 0);
}

/**
 * The state trigger due on a pane, or null. `blocked`: the pane is blocked
 * (any detail, questions included); `done`: idle with attention (a
 * working-to-idle completion or a turn-end re-raise). Either only when
 * `[notify] on` lists it and the marker is strictly older than the episode.
 */
export function stateTrigger(
  options: PaneOptions,
  context: { on: readonly StateTriggerName[]; nowMs: number },
): DueStateTrigger | null {
  const stamp = readStamp(options);
  if (stamp.agent === null || stamp.state === null) return null;
  const trigger: StateTriggerName | null = stamp.state === "blocked"
    ? "blocked"
    : stamp.state === "idle" && stamp.attention
    ? "done"
    : null;
  if (trigger === null || !context.on.includes(trigger)) return null;
  const episodeMs = episodeOf(options);
  if (episodeMs === null) return null;
  const notified = parseEpochMs(options["@agent_notified_at"]) ?? 0;
  if (notified >= episodeMs) return null;
  return {
    trigger,
    guard: {
      state: stamp.state,
      since: options["@agent_since"] ?? "",
      turnAt: options["@agent_turn_at"] ?? "",
      attention: trigger === "done",
      episodeMs,
    },
    markerMs: Math.max(context.nowMs, episodeMs),
  };
}

/** The `context_high` opt-in (G18): its threshold, or null when undeclared. */
export interface ContextRule {
  threshold: number;
}

/** The context gauge as stored, for the claim to re-check (a torn pair defers). */
export interface ContextGuard {
  /** `@agent_context_pct` as stored. */
  pct: string;
  /** `@agent_context_at` as stored. */
  at: string;
}

/** What the `context_high` armed flag calls for on one pane (U27). */
export type ContextStep =
  | { kind: "fire"; pct: number; guard: ContextGuard }
  | { kind: "rearm"; pct: number; guard: ContextGuard }
  | { kind: "none" };

/**
 * The `context_high` step of a pane: fire once while armed when a real
 * reading is at or above the threshold; re-arm below `threshold - 10`; a
 * null reading neither fires nor re-arms, and a percent without its evidence
 * time (a pair caught mid-write) defers to the next cycle. Silent for an
 * agent without context coverage.
 *
 * ```ts
 * contextStep(
 *   { "@agent_context_pct": "85", "@agent_context_at": "1785100000000" },
 *   { rule: { threshold: 80 }, covered: true },
 * ).kind; // "fire"
 * ```
 */
export function contextStep(
  options: PaneOptions,
  context: { rule: ContextRule | null; covered: boolean },
): ContextStep {
  if (context.rule === null || !context.covered) return { kind: "none" };
  const pctRaw = options["@agent_context_pct"] ?? "";
  const atRaw = options["@agent_context_at"] ?? "";
  if (pctRaw === "" || !/^\d+$/.test(pctRaw)) return { kind: "none" };
  if (parseEpochMs(atRaw) === null) return { kind: "none" };
  const pct = Number(pctRaw);
  const armed = (options["@agent_context_notified_at"] ?? "") === "";
  const guard = { pct: pctRaw, at: atRaw };
  if (armed && pct >= context.rule.threshold) return { kind: "fire", pct, guard };
  if (!armed && pct < context.rule.threshold - 10) return { kind: "rearm", pct, guard };
  return { kind: "none" };
}

/**
 * The stamp: what a pane's `@agent_*` options say, read into typed fields,
 * and the option writes that publish or hold a verdict (P1-P16).
 * @module
 */
import type { PaneOptions } from "./snapshot.ts";
import { type Delivered, DELIVERED_OPTION, readDelivered } from "./settle.ts";
import { isState, type Source, type State } from "./state.ts";
import { parseEpochMs } from "./time.ts";

/** One option write; `null` removes (or, under a guard, empties) the option. */
export interface OptionWrite {
  name: string;
  value: string | null;
  /** Defaults to "pane". Window and session writes go to the chain pane's window or session. */
  scope?: "pane" | "window" | "session" | "server";
  /**
   * `value` is a tmux format that the server expands when the write runs,
   * against the options as they are then, rather than a literal (the hook
   * stamp's `@agent_since`, decided by the state it replaces).
   */
  format?: boolean;
  /**
   * What a format write expands to against the options the plan read: the
   * value `applyWrites` predicts (a notification judges the committed stamp
   * by it, and `@agent_since` must be a time there, not the format text).
   */
  expected?: string | null;
}

/** The typed reading of a pane's stamp. */
export interface Stamp {
  agent: string | null;
  pid: number | null;
  state: State | null;
  detail: string | null;
  source: Source | null;
  evidenceAt: number | null;
  since: number | null;
  stampedAt: number | null;
  /** `@agent_stamped_at` exactly as stored, for the compare-and-swap guard. */
  stampedAtRaw: string | undefined;
  hash: string | null;
  attention: boolean;
  turnAt: number | null;
  session: string | null;
  subagents: string[];
  /** `@tma_hook_at`: the time of the hook event that last stamped the state. */
  hookAt: number | null;
  /** `@tma_delivered`: what tma itself last delivered to end a state (D65, D67). */
  delivered: Delivered | null;
}

/**
 * Reads a stamp from raw options. Undecodable values read as absent; the
 * legacy source `activity` reads as `capture` (D7).
 */
export function readStamp(options: PaneOptions): Stamp {
  const state = options["@agent_state"];
  const source = options["@agent_source"];
  const pid = Number(options["@agent_pid"]);
  return {
    agent: options["@agent_name"] || null,
    pid: options["@agent_pid"] !== undefined && Number.isSafeInteger(pid) ? pid : null,
    state: isState(state) ? state : null,
    detail: options["@agent_detail"] || null,
    source: source === "hook" || source === "capture" || source === "process"
      ? source
      : source === "activity"
      ? "capture"
      : null,
    evidenceAt: parseEpochMs(options["@agent_evidence_at"]),
    since: parseEpochMs(options["@agent_since"]),
    stampedAt: parseEpochMs(options["@agent_stamped_at"]),
    stampedAtRaw: options["@agent_stamped_at"],
    hash: options["@agent_hash"] || null,
    attention: options["@agent_attention"] === "1",
    turnAt: parseEpochMs(options["@agent_turn_at"]),
    session: options["@agent_session"] || null,
    subagents: (options["@agent_subagents"] ?? "").split(" ").filter((s) => s !== ""),
    hookAt: parseEpochMs(options["@tma_hook_at"]),
    delivered: readDelivered(options[DELIVERED_OPTION]),
  };
}

/**
 * The options a stamp removal clears: every `@agent_*` and `@tma_*` pane
 * option tma writes. `@agent_ignore` is the user's and is never touched.
 */
export function removalWrites(options: PaneOptions): OptionWrite[] {
  return Object.keys(options)
    .filter((name) => name !== "@agent_ignore")
    .map((name) => ({ name, value: null }));
}

/**
 * The pane options as they read once `writes` commit: pane-scope writes
 * applied, a null or empty value removing the option.
 *
 * ```ts
 * applyWrites({ "@agent_state": "idle" }, [{ name: "@agent_state", value: "working" }]);
 * // { "@agent_state": "working" }
 * ```
 */
export function applyWrites(options: PaneOptions, writes: readonly OptionWrite[]): PaneOptions {
  const next = { ...options } as Record<string, string>;
  for (const write of writes) {
    if ((write.scope ?? "pane") !== "pane") continue;
    const value = write.format ? write.expected ?? null : write.value;
    if (value === null || value === "") delete next[write.name];
    else next[write.name] = value;
  }
  return next as PaneOptions;
}

/** Epoch ms as the 13-digit token the stamp grammar wants (P1). */
export function ms(value: number): string {
  return String(Math.round(value));
}

/**
 * The selector: exact string equality, different flags AND, `--state` tokens
 * OR, applied on output only (C11-C16).
 * @module
 */
import { UsageError } from "./errors.ts";
import type { AgentRow } from "./rows.ts";
import { CLASSES, type StateClass } from "./state.ts";

/** A parsed selector; an absent field matches everything. */
export interface Selector {
  session?: string;
  repo?: string;
  branch?: string;
  agent?: string;
  states?: ReadonlySet<StateClass>;
}

/**
 * Parses a `--state` list (or another flag's, such as `wait --until`); an
 * unknown token is a usage error naming the flag and the set.
 *
 * ```ts
 * parseStates("idle,done"); // Set { "idle", "done" }
 * ```
 */
export function parseStates(list: string, flag = "--state"): Set<StateClass> {
  const states = new Set<StateClass>();
  for (const token of list.split(",").map((t) => t.trim()).filter((t) => t !== "")) {
    if (!(CLASSES as readonly string[]).includes(token)) {
      throw new UsageError(
        `${flag}: unknown state "${token}" (use idle, working, blocked, unknown, done)`,
      );
    }
    states.add(token as StateClass);
  }
  return states;
}

/** Whether the selector needs git labels (C12: only then is git asked). */
export function needsGit(selector: Selector): boolean {
  return selector.repo !== undefined || selector.branch !== undefined;
}

/** Whether one row matches. `idle` also matches done rows; `done` does not match plain idle. */
export function matches(row: AgentRow, selector: Selector, sessionName: string): boolean {
  if (selector.session !== undefined && sessionName !== selector.session) return false;
  if (selector.agent !== undefined && row.agent !== selector.agent) return false;
  if (selector.repo !== undefined && row.repo !== selector.repo) return false;
  if (selector.branch !== undefined && row.branch !== selector.branch) return false;
  if (selector.states && selector.states.size > 0 && !inStates(row, selector.states)) return false;
  return true;
}

/**
 * Whether a row is in one of `states`: `idle` also matches done rows, `done`
 * matches only them (C15, C35).
 *
 * ```ts
 * import type { AgentRow } from "./rows.ts";
 * declare const row: AgentRow; // idle with attention
 * inStates(row, new Set(["idle"])); // true
 * ```
 */
export function inStates(
  row: Pick<AgentRow, "state" | "done">,
  states: ReadonlySet<StateClass>,
): boolean {
  return states.has(row.state) || (row.done && states.has("done"));
}

/**
 * Reads the selector flags (C11-C16) into a `Selector`.
 * @module
 */
import { parseStates, type Selector } from "../core/selector.ts";
import { type ParsedFlags, stringFlag } from "./args.ts";

/** The selector the flags describe; no flags selects every agent. */
export function selectorFrom(flags: ParsedFlags): Selector {
  const states = stringFlag(flags, "state");
  return {
    session: stringFlag(flags, "session"),
    repo: stringFlag(flags, "repo"),
    branch: stringFlag(flags, "branch"),
    agent: stringFlag(flags, "agent"),
    states: states === undefined ? undefined : parseStates(states),
  };
}

/** Whether any selector flag was given. */
export function hasSelector(selector: Selector): boolean {
  return Object.values(selector).some((v) => v !== undefined);
}

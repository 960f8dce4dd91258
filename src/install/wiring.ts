/**
 * What an agent's config says about tma: which events carry the current
 * wrapper command, which carry an older one, and which lack one. Shared by
 * every editor so `--check` reads the same way for all of them.
 * @module
 */
import { hookCommand } from "./hook_command.ts";

/** The wiring one editor is asked to write or verify. */
export interface Wiring {
  agent: string;
  /** Event names, in the order they are written. */
  events: readonly string[];
  /** How configs name the wrapper: an absolute path or the bare `tma-hook`. */
  wrapperRef: string;
  /**
   * Events whose entry carries `"async": true`, so the agent never waits on
   * them (X10; Claude's events but `PermissionRequest`, I11); every other
   * entry of tma's must not.
   */
  asyncEvents?: readonly string[];
}

/** The state of one file's tma entries. */
export interface WiringReport {
  /** Events wired with exactly the command tma would write now. */
  current: string[];
  /** Events wired through another wrapper path or reference (an older install). */
  stale: string[];
  /** Events with no tma entry. */
  missing: string[];
  /**
   * Events that carry a tma entry tma no longer wires (for example events the
   * agent's current build rejects at start); install-hooks removes them.
   */
  extra: string[];
  /** Other defects of tma's own entries (a matcher, `async`), one line each. */
  problems: string[];
  /** Whether the file holds any tma entry for this agent at all. */
  anyTma: boolean;
}

/** Whether a report says "fully wired, nothing to fix". */
export function isComplete(report: WiringReport): boolean {
  return report.stale.length === 0 && report.missing.length === 0 &&
    report.problems.length === 0 && report.extra.length === 0;
}

/**
 * A one-line summary of a report for `--check`, naming the events that are
 * wired, so a reader sees exactly what the agent will call.
 */
export function describeReport(report: WiringReport, total: number): string {
  if (!report.anyTma) return "not wired";
  const wired = report.current.length ? ` (${report.current.join(", ")})` : "";
  const parts = [`${report.current.length}/${total} events current${wired}`];
  if (report.stale.length) parts.push(`stale (older wrapper path): ${report.stale.join(", ")}`);
  if (report.missing.length) parts.push(`missing: ${report.missing.join(", ")}`);
  if (report.extra.length) {
    parts.push(`no longer wired: ${report.extra.join(", ")} (rerun install-hooks to remove them)`);
  }
  parts.push(...report.problems);
  return parts.join("; ");
}

/** One tma entry an editor found in a hooks file. */
export interface FoundEntry {
  /** The event key the entry sits under. */
  event: string;
  command: string;
  /** The event argument of the command (normally `event`). */
  argEvent: string;
}

/**
 * The report on a file's tma entries against the wiring wanted:
 * per event, current, stale or missing, and wired more than once;
 * `problemsOf` adds an editor's own defects of one event's entries.
 *
 * ```ts
 * const wiring = { agent: "claude", events: ["Stop"], wrapperRef: "/b/tma-hook" };
 * reportWiring([], wiring).missing; // ["Stop"]
 * ```
 */
export function reportWiring<E extends FoundEntry>(
  entries: readonly E[],
  wiring: Wiring,
  problemsOf: (event: string, mine: readonly E[]) => string[] = () => [],
): WiringReport {
  const report: WiringReport = {
    current: [],
    stale: [],
    missing: [],
    problems: [],
    anyTma: entries.length > 0,
    extra: [
      ...new Set(entries.filter((f) => !wiring.events.includes(f.event)).map((f) => f.event)),
    ],
  };
  for (const event of wiring.events) {
    const desired = hookCommand(wiring.wrapperRef, wiring.agent, event);
    const mine = entries.filter((f) => f.event === event && f.argEvent === event);
    if (mine.some((f) => f.command === desired)) report.current.push(event);
    else if (mine.length > 0) report.stale.push(event);
    else report.missing.push(event);
    if (mine.length > 1) report.problems.push(`${event} is wired ${mine.length} times`);
    report.problems.push(...problemsOf(event, mine));
  }
  return report;
}

/**
 * What an agent's config says about tma: which events carry the current
 * wrapper command, which carry an older one, and which lack one. Shared by
 * every editor so `--check` reads the same way for all of them.
 * @module
 */

/** The wiring one editor is asked to write or verify. */
export interface Wiring {
  agent: string;
  /** Event names, in the order they are written. */
  events: readonly string[];
  /** How configs name the wrapper: an absolute path or the bare `tma-hook`. */
  wrapperRef: string;
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
  extra?: string[];
  /** Other defects of tma's own entries (a matcher, `async`), one line each. */
  problems: string[];
  /** Whether the file holds any tma entry for this agent at all. */
  anyTma: boolean;
}

/** Whether a report says "fully wired, nothing to fix". */
export function isComplete(report: WiringReport): boolean {
  return report.stale.length === 0 && report.missing.length === 0 &&
    report.problems.length === 0 && (report.extra ?? []).length === 0;
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
  const extra = report.extra ?? [];
  if (extra.length) {
    parts.push(`no longer wired: ${extra.join(", ")} (rerun install-hooks to remove them)`);
  }
  parts.push(...report.problems);
  return parts.join("; ");
}

/**
 * A fleet view (X9): the local rows (with `--all-hosts`) and every selected
 * host's live rows merged into one schema-1 document, plus a line per host
 * saying whether it answered, its error and the age of its last good
 * reading. An unreachable host is never dropped silently and none of its
 * rows is shown. The document stays schema 1: `hosts` and the rows'
 * identity keys are additions. Pure.
 *
 * ```ts
 * const view = fleetView({ local: [], tracks: [], policy: { nowMs: 0, maxAgeMs: 1 } });
 * fleetDocument(view); // '{"schema":1,"agents":[],"hosts":[]}'
 * ```
 * @module
 */
import { formatAge } from "../age.ts";
import { sessionOfLocator } from "../jump.ts";
import { ROW_KEYS, sortRows } from "../rows.ts";
import { matches, type Selector } from "../selector.ts";
import {
  type HostTrack,
  isLive,
  type LivePolicy,
  liveRows,
  NO_READING_YET,
  whyNotLive,
} from "./liveness.ts";
import { type FleetRow, IDENTITY_KEYS } from "./reading.ts";

/** One host's line in a fleet document. */
export interface HostLine {
  name: string;
  /** It answered within its deadline and its last reading is fresh: its rows are live. */
  reachable: boolean;
  /** Why it is not reachable (ssh's error, the deadline, a garbage answer); null when it is. */
  error: string | null;
  /** When its last good reading was taken, or null if it never answered. */
  last_ok_ms: number | null;
  /** How old that reading is now. */
  age_ms: number | null;
  /** Its live rows in this view. */
  agents: number;
}

/** A merged view: the rows in surface order (local first, then hosts in config order). */
export interface FleetView {
  rows: FleetRow[];
  hosts: HostLine[];
}

/** What a view is merged from. */
export interface FleetInput {
  /** This machine's rows (`--all-hosts`), or null (`--host` only). */
  local: readonly FleetRow[] | null;
  /** The selected hosts' tracks, in config order. */
  tracks: readonly HostTrack[];
  policy: LivePolicy;
  /** The selector applies to remote rows as to local ones (C16). */
  selector?: Selector;
}

/** Merges a view. */
export function fleetView(input: FleetInput): FleetView {
  const keep = (row: FleetRow) =>
    !input.selector || matches(row, input.selector, sessionOfLocator(row.locator));
  const rows: FleetRow[] = [...(input.local ?? [])];
  const hosts: HostLine[] = [];
  for (const track of input.tracks) {
    const live = sortRows(liveRows(track, input.policy).filter(keep));
    rows.push(...live);
    hosts.push({
      name: track.name,
      reachable: isLive(track, input.policy),
      error: whyNotLive(track, input.policy),
      last_ok_ms: track.okMs,
      age_ms: track.okMs === null ? null : Math.max(0, input.policy.nowMs - track.okMs),
      agents: live.length,
    });
  }
  return { rows, hosts };
}

/** A fleet row as an object with the row keys in order, then the identity keys (P75). */
export function fleetRowObject(row: FleetRow): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of ROW_KEYS) out[key] = row[key];
  for (const key of IDENTITY_KEYS) out[key] = row[key];
  return out;
}

/** The fleet document: `{"schema":1,"agents":[…],"hosts":[…]}` on one line. */
export function fleetDocument(view: FleetView): string {
  return JSON.stringify({ schema: 1, agents: view.rows.map(fleetRowObject), hosts: view.hosts });
}

/** Whether a host has simply not been read yet (not a failure). */
export function pendingHost(line: HostLine): boolean {
  return !line.reachable && line.last_ok_ms === null && line.error === NO_READING_YET;
}

/** One line for people about a host that is not reachable, or null when it is. */
export function hostNote(line: HostLine): string | null {
  if (line.reachable) return null;
  if (pendingHost(line)) return `${line.name}: reading…`;
  const last = line.age_ms === null
    ? "never answered"
    : `last good reading ${formatAge(line.age_ms)} ago`;
  return `${line.name}: unreachable: ${line.error ?? "no answer"} (${last})`;
}

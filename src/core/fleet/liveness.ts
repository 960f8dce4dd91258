/**
 * The liveness contract of remote rows (X9), as pure functions over one
 * host's track of readings:
 *
 * - A remote row is live only while its host answered within the deadline:
 *   a failed fetch, or a last good reading older than the view's `maxAgeMs`,
 *   leaves the host unreachable and none of its rows live. The last good
 *   rows are kept (for the age of the last reading), never shown.
 * - A row's identity is its host, its server and that server's start time,
 *   its pane, the pane's pid and its command. A row in the same place
 *   (host, server, pane) whose identity changed since the previous reading
 *   is a new agent: its episode restarts at the reading that first saw it,
 *   so `since_ms` and `episode_ms` are raised to at least that time (a
 *   `wait --since` sees a new episode, a surface a fresh age), and the raise
 *   carries over later readings of the same identity.
 * - A row missing from a good reading is gone: nothing lingers.
 *
 * ```ts
 * let track = emptyTrack("build", "k");
 * track = recordReading(track, { rows: [], panes: [] }, 1000);
 * isLive(track, { nowMs: 1500, maxAgeMs: 10_000 }); // true
 * ```
 * @module
 */
import type { FleetRow, Reading } from "./reading.ts";

/** What a view knows of one host across readings. */
export interface HostTrack {
  name: string;
  /** `hostKey()` of the spec the readings were taken over. */
  key: string;
  /** When the last good reading was taken (epoch ms), or null before the first. */
  okMs: number | null;
  /** When the last attempt ended, good or not. */
  triedMs: number | null;
  /** Why the last attempt failed; null when it answered. */
  error: string | null;
  /** The last good reading's rows, episodes restarted where an identity changed. */
  rows: FleetRow[];
  /** The last good reading's live pane ids. */
  panes: string[];
  /** Per slot, when the agent now in it was first seen replacing another (its episode's floor). */
  restarts: Record<string, number>;
}

/** A host no one has read yet. */
export function emptyTrack(name: string, key: string): HostTrack {
  return { name, key, okMs: null, triedMs: null, error: null, rows: [], panes: [], restarts: {} };
}

/** Where a row sits: its server and pane (the host is the track's). */
export function slotOf(row: Pick<FleetRow, "server" | "pane">): string {
  return `${row.server}\u0000${row.pane}`;
}

/** Whether two readings of one slot are the same agent (X9 identity). */
export function sameIdentity(
  a: Pick<FleetRow, "server_started_ms" | "pane_pid" | "command" | "agent">,
  b: Pick<FleetRow, "server_started_ms" | "pane_pid" | "command" | "agent">,
): boolean {
  return a.server_started_ms === b.server_started_ms && a.pane_pid === b.pane_pid &&
    a.command === b.command && a.agent === b.agent;
}

/** The later of a time and a floor; null stays null only without a floor. */
function atLeast(value: number | null, floor: number | null): number | null {
  if (floor === null) return value;
  return value === null ? floor : Math.max(value, floor);
}

/** The row with its episode started no earlier than `floor`. */
function restarted(row: FleetRow, floor: number | null): FleetRow {
  if (floor === null) return row;
  const since = atLeast(row.since_ms, floor);
  return { ...row, since, since_ms: since, episode_ms: atLeast(row.episode_ms, floor) };
}

/**
 * A good reading taken at `atMs`: its rows become the host's, every row
 * tagged with the host's name, and each row compared with the one in the
 * same slot before it (see the module text).
 */
export function recordReading(track: HostTrack, reading: Reading, atMs: number): HostTrack {
  const before = new Map(track.rows.map((row) => [slotOf(row), row]));
  const restarts: Record<string, number> = {};
  const rows = reading.rows.map((fresh) => {
    const row: FleetRow = { ...fresh, host: track.name };
    const slot = slotOf(row);
    const previous = before.get(slot);
    if (!previous) return row;
    // A new agent restarts at this reading; the same one keeps a restart seen earlier.
    const floor = sameIdentity(previous, row) ? track.restarts[slot] : atMs;
    if (floor === undefined) return row;
    restarts[slot] = floor;
    return restarted(row, floor);
  });
  return {
    ...track,
    okMs: atMs,
    triedMs: atMs,
    error: null,
    rows,
    panes: [...reading.panes],
    restarts,
  };
}

/** A failed attempt ending at `atMs`: the host is unreachable; its last good rows are kept unshown. */
export function recordFailure(track: HostTrack, error: string, atMs: number): HostTrack {
  return { ...track, triedMs: atMs, error };
}

/** How a view judges freshness. */
export interface LivePolicy {
  nowMs: number;
  /** The oldest a good reading may be and still count (the refresh cadence plus the deadline). */
  maxAgeMs: number;
}

/** Whether the host's rows are live now (X9). */
export function isLive(track: HostTrack, policy: LivePolicy): boolean {
  return track.error === null && track.okMs !== null &&
    policy.nowMs - track.okMs <= policy.maxAgeMs;
}

/** The host's live rows: all of the last reading's, or none. */
export function liveRows(track: HostTrack, policy: LivePolicy): FleetRow[] {
  return isLive(track, policy) ? track.rows : [];
}

/** What `whyNotLive` says of a host no fetch has answered or failed yet. */
export const NO_READING_YET = "no reading yet";

/** Why a host is not live, in a few words (its error, or how long it has been silent). */
export function whyNotLive(track: HostTrack, policy: LivePolicy): string | null {
  if (isLive(track, policy)) return null;
  if (track.error !== null) return track.error;
  if (track.okMs === null) return NO_READING_YET;
  return `no answer for ${Math.round((policy.nowMs - track.okMs) / 1000)} s`;
}

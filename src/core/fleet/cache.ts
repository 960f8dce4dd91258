/**
 * The fleet cache (X9): each host's track kept in a server option of the
 * local tmux server (`@tma_fleet_<name>`), the one store tma has, so a
 * status-line poll reads the fleet without waiting on the network, a
 * one-shot `ls --all-hosts` knows the age of a host's last good reading and
 * which agent held each pane before, and nothing lives outside tmux. One
 * option per host: two writers (a refresher and an `ls`) never overwrite
 * each other's hosts. Pure: encoding, decoding and the option's name.
 *
 * ```ts
 * import { emptyTrack } from "./liveness.ts";
 * const text = encodeTrack(emptyTrack("build", "k"));
 * decodeTrack(text, { name: "build", key: "k" })?.name; // "build"
 * ```
 * @module
 */
import type { HostTrack } from "./liveness.ts";
import { checkRow } from "./reading.ts";

/** The cache format's version; another one decodes as no cache. */
const VERSION = 1;

/** The server option holding one host's track. */
export function cacheOption(name: string): string {
  const safe = name.replace(/[^A-Za-z0-9]/g, (c) => `_${c.charCodeAt(0).toString(16)}`);
  return `@tma_fleet_${safe}`;
}

/** The option's value for a track. */
export function encodeTrack(track: HostTrack): string {
  return JSON.stringify({ v: VERSION, ...track });
}

const num = (v: unknown): number | null => typeof v === "number" && Number.isFinite(v) ? v : null;

/**
 * The track an option holds, or null when it is absent, not ours, another
 * version, or taken over another command for the host (`key`).
 */
export function decodeTrack(
  text: string | null,
  expect: { name: string; key: string },
): HostTrack | null {
  if (text === null || text === "") return null;
  try {
    const raw = JSON.parse(text);
    if (raw?.v !== VERSION || raw.name !== expect.name || raw.key !== expect.key) return null;
    if (!Array.isArray(raw.rows) || !Array.isArray(raw.panes)) return null;
    const restarts: Record<string, number> = {};
    for (const [slot, at] of Object.entries(raw.restarts ?? {})) {
      if (typeof at === "number") restarts[slot] = at;
    }
    return {
      name: expect.name,
      key: expect.key,
      okMs: num(raw.okMs),
      triedMs: num(raw.triedMs),
      error: typeof raw.error === "string" ? raw.error : null,
      rows: raw.rows.map(checkRow),
      panes: raw.panes.filter((p: unknown): p is string => typeof p === "string"),
      restarts,
    };
  } catch {
    return null;
  }
}

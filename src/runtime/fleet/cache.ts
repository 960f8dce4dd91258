/**
 * The fleet cache in the local tmux server's options (X9,
 * `src/core/fleet/cache.ts`): read every selected host's track in one tmux
 * call, write the tracks a fetch changed. A missing local server reads as
 * an empty cache and a write to it as nothing written, never as an error:
 * the cache only saves a wait.
 * @module
 */
import { cacheOption, decodeTrack, encodeTrack } from "../../core/fleet/cache.ts";
import { hostKey, type HostSpec } from "../../core/fleet/hosts.ts";
import type { HostTrack } from "../../core/fleet/liveness.ts";
import type { TmuxServer } from "../../tmux/exec.ts";
import { readServerOptions, writeServerOptions } from "../../tmux/options.ts";

/** The cached tracks of `specs`, by host name (a host with none is absent). */
export async function readCachedTracks(
  server: TmuxServer,
  specs: readonly HostSpec[],
): Promise<Map<string, HostTrack>> {
  const tracks = new Map<string, HostTrack>();
  if (specs.length === 0) return tracks;
  const values = await readServerOptions(server, specs.map((s) => cacheOption(s.name)))
    .catch(() => specs.map(() => null));
  specs.forEach((spec, i) => {
    const track = decodeTrack(values[i], { name: spec.name, key: hostKey(spec) });
    if (track) tracks.set(spec.name, track);
  });
  return tracks;
}

/** Writes the tracks; false when the local server did not take them (it is gone). */
export async function writeCachedTracks(
  server: TmuxServer,
  tracks: readonly HostTrack[],
): Promise<boolean> {
  const values = Object.fromEntries(tracks.map((t) => [cacheOption(t.name), encodeTrack(t)]));
  return await writeServerOptions(server, values).catch(() => false);
}

/**
 * What every fleet command shares (X9): the hosts `--host` and
 * `--all-hosts` select, this machine's rows with their identity keys, the
 * freshness policy, and the one-shot view `ls`, `jump` and the remote
 * `act` read: every selected host fetched in parallel (each within its own
 * deadlines), merged with the local rows, the tracks written back to the
 * local server's cache. Loaded only when a fleet flag is given.
 * @module
 */
import type { Config } from "../../core/config/schema.ts";
import { type HostChoice, type HostSpec, selectHosts } from "../../core/fleet/hosts.ts";
import type { HostTrack, LivePolicy } from "../../core/fleet/liveness.ts";
import { withIdentity } from "../../core/fleet/local.ts";
import type { FleetRow } from "../../core/fleet/reading.ts";
import { type FleetView, fleetView } from "../../core/fleet/view.ts";
import type { Listing } from "../../runtime/cycle/listing.ts";
import { readCachedTracks, writeCachedTracks } from "../../runtime/fleet/cache.ts";
import { FleetPoller } from "../../runtime/fleet/fetch.ts";
import { serverStartMs } from "../../tmux/options.ts";
import type { TmuxServer } from "../../tmux/exec.ts";
import { boolFlag, type ParsedArgs, stringFlag } from "../args.ts";
import type { CommandContext } from "../context.ts";
import { selectorFrom } from "../selector_flags.ts";

/** The hosts the flags name. */
export function hostChoice(args: ParsedArgs): HostChoice {
  const value = args.flags["host"];
  const names = Array.isArray(value) ? value : typeof value === "string" ? [value] : [];
  return { names, all: boolFlag(args.flags, "all-hosts") };
}

/** The selected hosts, or a usage error naming the unknown one. */
export async function chosenHosts(ctx: CommandContext, args: ParsedArgs): Promise<HostSpec[]> {
  return selectHosts(await ctx.config(), hostChoice(args));
}

/**
 * The freshness a view allows: a reading counts for the cadence it is
 * refreshed at plus the longest deadline of its hosts (and a second of
 * slack), never longer.
 */
export function livePolicy(
  specs: readonly HostSpec[],
  options: { nowMs: number; cadenceMs: number },
): LivePolicy {
  const deadline = Math.max(0, ...specs.map((s) => s.timeoutMs));
  return { nowMs: options.nowMs, maxAgeMs: options.cadenceMs + deadline + 1000 };
}

/** This machine's rows of a listing, with their identity keys. */
export async function localFleetRows(server: TmuxServer, listing: Listing): Promise<FleetRow[]> {
  const started = await serverStartMs(server).catch(() => null);
  return withIdentity(listing.rows, listing.cycle.panes, started);
}

/** A poller over `specs` starting from the local server's cache (none when no server runs). */
export async function cachedPoller(
  ctx: CommandContext,
  specs: readonly HostSpec[],
  onSettled?: (name: string) => void,
): Promise<{ poller: FleetPoller; server: TmuxServer }> {
  const server = await ctx.server();
  const tracks = await readCachedTracks(server, specs).catch(() => new Map());
  return { poller: new FleetPoller({ specs, now: ctx.now, tracks, onSettled }), server };
}

/** What a one-shot fleet read gives. */
export interface FleetOnce {
  view: FleetView;
  config: Config;
  specs: HostSpec[];
  /** The local listing, with `--all-hosts`. */
  listing: Listing | null;
  /** The hosts' tracks, in config order (their pane ids). */
  tracks: HostTrack[];
}

/**
 * Reads the fleet once: every selected host fetched in parallel while the
 * local cycle runs (with `--all-hosts`), each host within its deadlines.
 * `local` runs the local listing (the command's own `listRows` call).
 */
export async function fleetOnce(
  ctx: CommandContext,
  args: ParsedArgs,
  local: (() => Promise<Listing>) | null,
): Promise<FleetOnce> {
  const [config, specs] = await Promise.all([ctx.config(), chosenHosts(ctx, args)]);
  const withLocal = boolFlag(args.flags, "all-hosts") && local !== null;
  const { poller, server } = await cachedPoller(ctx, specs);
  poller.kick();
  const listing = withLocal ? await local!() : null;
  const localRows = listing ? await localFleetRows(server, listing) : null;
  await poller.settled();
  await writeCachedTracks(server, poller.tracks()).catch(() => false);
  const pane = stringFlag(args.flags, "pane");
  const view = fleetView({
    local: localRows,
    tracks: poller.tracks(),
    policy: livePolicy(specs, { nowMs: ctx.now(), cadenceMs: 0 }),
    selector: selectorFrom(args.flags),
  });
  if (pane !== undefined) {
    view.rows = view.rows.filter((r) => r.pane === pane || r.locator === pane);
  }
  return { view, config, specs, listing, tracks: poller.tracks() };
}

/** The names of the selected hosts, to tell their rows from local ones. */
export function hostNames(specs: readonly HostSpec[]): Set<string> {
  return new Set(specs.map((s) => s.name));
}

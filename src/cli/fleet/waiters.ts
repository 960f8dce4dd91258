/**
 * `wait` and `subscribe` across hosts (X9). Each tick runs the local cycle
 * (with `--all-hosts`) and starts a fetch of every host that has none under
 * way; a busy host is skipped for that tick, never queued, and a fetch that
 * ends wakes the ticker, so a remote change is seen within about a second
 * of its reading. The first tick waits for every host (each within its own
 * deadlines), so `wait --all` fixes its members over the whole fleet.
 *
 * Remote rows are keyed `%3@host` where a waiter keys by pane
 * (`src/core/fleet/keys.ts`); what is printed is the fleet row itself.
 * @module
 */
import { EXIT } from "../../core/errors.ts";
import { fleetKey, keyedRow, parseFleetKey } from "../../core/fleet/keys.ts";
import type { HostSpec } from "../../core/fleet/hosts.ts";
import { type HostTrack, slotOf } from "../../core/fleet/liveness.ts";
import type { FleetRow } from "../../core/fleet/reading.ts";
import {
  fleetDocument,
  fleetRowObject,
  type FleetView,
  fleetView,
  hostNote,
} from "../../core/fleet/view.ts";
import { diffEdges } from "../../core/edges.ts";
import { sessionOfLocator } from "../../core/jump.ts";
import { needsGit, type Selector } from "../../core/selector.ts";
import {
  initialWaitState,
  stepWait,
  type WaitObservation,
  type WaitSpec,
} from "../../core/wait.ts";
import { killTransports } from "../../runtime/fleet/ssh.ts";
import type { FleetPoller } from "../../runtime/fleet/fetch.ts";
import { Ticker } from "../../runtime/ticker.ts";
import { serverStartMs } from "../../tmux/options.ts";
import { withIdentity } from "../../core/fleet/local.ts";
import type { Listing } from "../../runtime/cycle/listing.ts";
import { boolFlag, type ParsedArgs } from "../args.ts";
import type { CommandContext } from "../context.ts";
import { joinDaemonHints } from "../daemon_hints.ts";
import { WaiterCycles } from "../waiter_cycle.ts";
import { endOfWait } from "../wait_verdict.ts";
import { cachedPoller, chosenHosts, hostNames, livePolicy } from "./common.ts";

/** One tick of a fleet waiter. */
interface FleetTick {
  view: FleetView;
  /** The hosts' tracks, for their pane ids. */
  tracks: HostTrack[];
  /** The local listing (`--all-hosts`), for its panes. */
  listing: Listing | null;
}

/** The ticks of one fleet waiter. */
class FleetCycles {
  readonly #ctx: CommandContext;
  readonly #local: WaiterCycles | null;
  readonly #poller: FleetPoller;
  readonly #specs: HostSpec[];
  readonly #cadenceMs: number;
  readonly #selector: Selector | undefined;
  #first = true;
  #started: number | null | undefined = undefined;

  constructor(
    ctx: CommandContext,
    options: {
      local: WaiterCycles | null;
      poller: FleetPoller;
      specs: HostSpec[];
      cadenceMs: number;
      selector?: Selector;
    },
  ) {
    this.#ctx = ctx;
    this.#local = options.local;
    this.#poller = options.poller;
    this.#specs = options.specs;
    this.#cadenceMs = options.cadenceMs;
    this.#selector = options.selector;
  }

  /** Runs one tick: the local cycle and the fetches, merged. */
  async next(): Promise<FleetTick | "stalled" | "no-server"> {
    this.#poller.kick();
    const listing = this.#local ? await this.#local.next() : null;
    if (listing === "no-server" || listing === "stalled") return listing;
    // The first tick sees every host; later ones take what has come in.
    if (this.#first) await this.#poller.settled();
    this.#first = false;
    let local: FleetRow[] | null = null;
    if (listing) {
      if (this.#started === undefined) {
        this.#started = await serverStartMs(await this.#ctx.server()).catch(() => null);
      }
      local = withIdentity(listing.rows, listing.cycle.panes, this.#started);
    }
    const tracks = this.#poller.tracks();
    const view = fleetView({
      local,
      tracks,
      policy: livePolicy(this.#specs, { nowMs: this.#ctx.now(), cadenceMs: this.#cadenceMs }),
      selector: this.#selector,
    });
    return { view, tracks, listing };
  }
}

/**
 * What both waiters set up: the hosts, the poller (a fetch that ends wakes
 * the ticker) and the local cycles. `selector` filters the rows a tick
 * returns (subscribe); a wait scopes rows itself and passes none.
 */
async function fleetWaiter(
  ctx: CommandContext,
  args: ParsedArgs,
  options: { name: string; ticker: Ticker; selector?: Selector; git: boolean; cadenceMs: number },
) {
  const specs = await chosenHosts(ctx, args);
  const { poller } = await cachedPoller(ctx, specs, () => options.ticker.waker.wake("hint"));
  const local = boolFlag(args.flags, "all-hosts")
    ? new WaiterCycles(ctx, options.name, { selector: options.selector, git: options.git })
    : null;
  const cycles = new FleetCycles(ctx, {
    local,
    poller,
    specs,
    cadenceMs: options.cadenceMs,
    selector: options.selector,
  });
  return { specs, cycles, names: hostNames(specs) };
}

/** One stderr line when a host stops answering, once per outage. */
class HostNotes {
  #down = new Set<string>();
  report(ctx: CommandContext, view: FleetView, command: string): void {
    for (const line of view.hosts) {
      const note = hostNote(line);
      if (note === null) this.#down.delete(line.name);
      else if (!this.#down.has(line.name)) {
        this.#down.add(line.name);
        ctx.err(`tma: ${command}: ${note}\n`);
      }
    }
  }
}

/** `--pane %3` with one `--host H` names `%3@H`; a key names itself. */
function pinnedKey(spec: WaitSpec, args: ParsedArgs, names: readonly string[]): WaitSpec {
  if (spec.target.kind !== "pane" || parseFleetKey(spec.target.pane) !== null) return spec;
  if (boolFlag(args.flags, "all-hosts") || names.length !== 1) return spec;
  return { ...spec, target: { kind: "pane", pane: fleetKey(names[0], spec.target.pane) } };
}

/** The keys a wait depends on right now. */
function watchedKeys(spec: WaitSpec, state: ReturnType<typeof initialWaitState>): string[] {
  return [
    ...(spec.target.kind === "pane" ? [spec.target.pane] : []),
    ...(state.pinned ? [state.pinned] : []),
    ...(state.members ?? []),
  ];
}

/** `tma wait` over the fleet: the flags' wait, its rows keyed by host. */
export async function runWait(
  ctx: CommandContext,
  args: ParsedArgs,
  options: { spec: WaitSpec; deadline: number | undefined; tickMs: number },
): Promise<number> {
  const json = boolFlag(args.flags, "json");
  const ticker = new Ticker({ intervalMs: options.tickMs, wakeSignals: ["SIGUSR1"] });
  const stopHints = await joinDaemonHints(ctx, ticker.waker);
  const { cycles, names } = await fleetWaiter(ctx, args, {
    name: "wait",
    ticker,
    git: needsGit(options.spec.selector),
    cadenceMs: options.tickMs,
  });
  const spec = pinnedKey(options.spec, args, [...names]);
  const notes = new HostNotes();
  let state = initialWaitState();
  try {
    for (;;) {
      const tick = await cycles.next();
      if (tick === "no-server") return EXIT.runtime;
      if (tick !== "stalled") {
        notes.report(ctx, tick.view, "wait");
        const down = new Set(tick.view.hosts.filter((h) => !h.reachable).map((h) => h.name));
        // A host that is not answering says nothing of its panes: no vanish, no death, wait on.
        const blind = watchedKeys(spec, state).some((key) => {
          const remote = parseFleetKey(key);
          return remote !== null && down.has(remote.host);
        });
        if (!blind) {
          const { observation, originals } = observe(tick, names);
          const step = stepWait(spec, state, observation);
          state = step.state;
          const code = endOfWait(ctx, step.verdict, {
            json,
            object: (row) => fleetRowObject(originals.get(row.pane)!),
          });
          if (code !== null) return code;
        }
      }
      if (options.deadline !== undefined && ctx.now() >= options.deadline) return EXIT.timeout;
      if ((await ticker.sleep(options.deadline)) === "deadline") return EXIT.timeout;
    }
  } finally {
    stopHints();
    ticker.close();
    killTransports();
  }
}

/** A tick as `stepWait` reads it, remote rows and panes keyed by host. */
function observe(
  tick: FleetTick,
  names: ReadonlySet<string>,
): { observation: WaitObservation; originals: Map<string, FleetRow> } {
  const originals = new Map<string, FleetRow>();
  const rows = tick.view.rows.map((row) => {
    const keyed = keyedRow(row, names);
    originals.set(keyed.pane, row);
    return { row: keyed, sessionName: sessionOfLocator(row.locator) };
  });
  const panes: { paneId: string; locator: string }[] = (tick.listing?.cycle.panes ?? []).map((
    p,
  ) => ({ paneId: p.paneId, locator: p.locator }));
  const reachable = new Set(tick.view.hosts.filter((h) => h.reachable).map((h) => h.name));
  for (const track of tick.tracks) {
    if (!reachable.has(track.name)) continue;
    for (const pane of track.panes) panes.push({ paneId: fleetKey(track.name, pane), locator: "" });
  }
  return { observation: { panes, rows }, originals };
}

/** `tma subscribe --json` over the fleet: fleet documents, or edges with a `host` key. */
export async function runSubscribe(
  ctx: CommandContext,
  args: ParsedArgs,
  options: {
    intervalMs: number;
    events: boolean;
    changesOnly: boolean;
    selector: Selector;
    ticker: Ticker;
    write(lines: string[]): boolean;
  },
): Promise<number> {
  const { ticker } = options;
  const { cycles, names } = await fleetWaiter(ctx, args, {
    name: "subscribe",
    ticker,
    selector: options.selector,
    git: needsGit(options.selector),
    cadenceMs: options.intervalMs,
  });
  const notes = new HostNotes();
  let previous: FleetRow[] | null = null;
  let lastDocument: string | null = null;
  try {
    while (!ticker.stopped) {
      const tick = await cycles.next();
      if (tick === "no-server") return EXIT.runtime;
      if (tick !== "stalled") {
        notes.report(ctx, tick.view, "subscribe");
        const lines: string[] = [];
        if (options.events) {
          lines.push(...fleetEdges(previous, tick.view.rows, { names, atMs: ctx.now() }));
          previous = tick.view.rows;
        } else {
          const document = fleetDocument(tick.view);
          // The readings' times move every refresh: --changes-only compares rows and host states.
          const compared = JSON.stringify([
            tick.view.rows.map(fleetRowObject),
            tick.view.hosts.map((h) => [h.name, h.reachable, h.error]),
          ]);
          if (!options.changesOnly || compared !== lastDocument) lines.push(document);
          lastDocument = compared;
        }
        if (!options.write(lines)) return EXIT.ok;
      }
      if ((await ticker.sleep()) === "stopped") break;
    }
    return EXIT.ok;
  } finally {
    killTransports();
  }
}

/**
 * Edge records over fleet rows: a remote row's edges carry its own pane and
 * locator and a `host` key; an agent replaced in its pane (a changed
 * identity) reads as the old one leaving and the new one arriving.
 */
function fleetEdges(
  previous: readonly FleetRow[] | null,
  next: readonly FleetRow[],
  options: { names: ReadonlySet<string>; atMs: number },
): string[] {
  const byKey = new Map<string, FleetRow>();
  const keyed = (rows: readonly FleetRow[]) =>
    rows.map((row) => {
      const key = `${keyedRow(row, options.names).pane}#${
        slotOf(row)
      }#${row.pane_pid}:${row.server_started_ms}:${row.command}`;
      byKey.set(key, row);
      return { ...row, pane: key };
    });
  const before = previous === null ? null : keyed(previous);
  const after = keyed(next);
  return diffEdges(before, after, options.atMs).map((edge) => {
    const row = byKey.get(edge.pane)!;
    return JSON.stringify({ ...edge, pane: row.pane, locator: row.locator, host: row.host });
  });
}

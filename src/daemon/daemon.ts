/**
 * The daemon (U3-U13, X6, X7): one resident process per tmux server that
 * listens to tmux through control-mode clients, captures a pane the moment
 * its output goes quiet, ingests hook events handed over without Deno,
 * keeps `@tma_status` current and wakes waiters. It only ever adds (R13):
 * every write it makes is the same guarded write a poll or a hook would
 * make, so killing it at any moment loses nothing.
 * @module
 */
import type { AgentModel } from "../core/agent_model.ts";
import type { Config } from "../core/config/schema.ts";
import { parseEventBody, type RawEvent } from "../core/daemon_wire.ts";
import type { HookManifest } from "../core/hook/hook_manifest.ts";
import type { HookSettings } from "../core/hook/settings.ts";
import { QuietEdges } from "../core/quiet_edges.ts";
import { countClasses, renderTmux } from "../core/status_render.ts";
import type { AgentRow } from "../core/rows.ts";
import { TransitionRing } from "../core/transitions.ts";
import { loadConfig } from "../runtime/config/load.ts";
import { listAgents } from "../runtime/cycle/listing.ts";
import type { CycleResult } from "../runtime/cycle/run.ts";
import type { DaemonPaths } from "../runtime/daemon_link.ts";
import { drainOnce } from "../runtime/hook/drain.ts";
import { type IngestContext, ingestRawEvent } from "../runtime/hook/ingest.ts";
import { loadHookManifest, loadHookSettings } from "../runtime/hook/load.ts";
import { loadManifests } from "../runtime/manifest/load.ts";
import type { EnvReader } from "../runtime/paths.ts";
import { stampedRows } from "../runtime/surface.ts";
import { ControlClient, listSessionIds, setServerOptions } from "../tmux/control.ts";
import type { TmuxServer } from "../tmux/exec.ts";
import { listPanes } from "../tmux/panes.ts";
import { Demotions } from "./demotion.ts";
import { DaemonSocket } from "./socket.ts";

/** The server-wide options the daemon keeps (X6). */
export const STATUS_OPTION = "@tma_status";
/** When the daemon last refreshed `@tma_status` (epoch ms), for `tma status`'s freshness check. */
export const STATUS_AT_OPTION = "@tma_status_at";

/** How long a hook may say working while its pane prints nothing before a recheck (U7). */
const CONTRADICTION_MS = 10_000;
/** Output from a pane that holds no agent is looked at again no sooner than this. */
const NON_AGENT_RECHECK_MS = 5_000;
/** Wake hints within this window are one push (U11). */
const PUSH_COALESCE_MS = 100;
/** How often the quiet edges are read. */
const QUIET_TICK_MS = 100;
/** The behaviour probe's limit (U4). */
const PROBE_MS = 2000;
/** The format the control clients watch on every pane: attention moves the done count (C102). */
const ATTENTION_SUBSCRIPTION = { "tma-attention": "#{@agent_attention}" };
/** Attention changes within this window are one refresh. */
const REFRESH_COALESCE_MS = 100;
/** How soon spool entries still being written are looked at again. */
const SPOOL_BUSY_RETRY_MS = 10;
/** The sweep when the probe fails (U4). */
const FALLBACK_SWEEP_MS = 5000;

/** Everything the daemon runs with. */
export interface DaemonOptions {
  server: TmuxServer;
  paths: DaemonPaths;
  env: EnvReader;
  configFlag?: string;
  noConfig?: boolean;
  manifestDir?: string;
  now(): number;
  /** One line to the daemon's stderr (its log). */
  log(line: string): void;
  /** `--sweep-ms` (C71): overrides `sweep_secs`. */
  sweepMs?: number;
  /** Runs `tma event` for an event the daemon refused (D48), flags forwarded (C9). */
  directStamp(event: RawEvent): void;
}

/** What a pane was at the last cycle. */
interface Known {
  agent: string;
  hookSourced: boolean;
  state: string | null;
}

/** The running daemon. */
export class Daemon {
  #o: DaemonOptions;
  #config!: Config;
  #models: AgentModel[] = [];
  #settings!: HookSettings;
  #hookManifests = new Map<string, HookManifest | null>();
  #reported = new Set<string>();
  /** The manifest problems of the set in force. */
  #skipped = new Set<string>();
  #pool = new Map<string, ControlClient>();
  #edges = new QuietEdges();
  /** Hook-liveness demotion (U9), counted on the quiet edges' tracker. */
  #demotions = new Demotions(this.#edges);
  #known = new Map<string, Known>();
  #nonAgentUntil = new Map<string, number>();
  #recheckAt = new Map<string, number>();
  #ring = new TransitionRing();
  #socket: DaemonSocket | null = null;
  #work: Promise<void> = Promise.resolve();
  #events: Promise<void> = Promise.resolve();
  #cycleQueued: { force: Set<string>; reason: string } | null = null;
  #drainQueued = false;
  #lastPush = 0;
  #pushTimer: ReturnType<typeof setTimeout> | null = null;
  #timers: ReturnType<typeof setInterval>[] = [];
  #watcher: Deno.FsWatcher | null = null;
  #stopped!: Promise<number>;
  #stop!: (code: number) => void;
  #stopping = false;
  #lastStatus: string | null = null;
  #sweepMs = 45_000;

  constructor(options: DaemonOptions) {
    this.#o = options;
    this.#stopped = new Promise((resolve) => this.#stop = resolve);
  }

  /** Starts listening; resolves with the exit code once the daemon stops. */
  async run(): Promise<number> {
    await this.#load(true);
    this.#socket = new DaemonSocket(this.#o.paths.sock, {
      event: (body) => this.#onFrameEvent(body),
      transitions: () => JSON.stringify(this.#ring.document()),
      refused: (reason) => this.#o.log(`tma daemon: refused a connection: ${reason}`),
    });
    const probe = await this.#syncPool();
    if (probe === null) {
      this.#o.log("tma daemon: the tmux server is gone");
      this.shutdown(0);
      return await this.#stopped;
    }
    const first = [...this.#pool.values()][0];
    const probed = first === undefined ? true : await Promise.race([
      first.ready,
      new Promise<boolean>((resolve) => setTimeout(() => resolve(false), PROBE_MS)),
    ]);
    this.#sweepMs = this.#o.sweepMs ?? this.#config.daemon.sweep_secs * 1000;
    if (!probed) {
      this.#o.log("tma daemon: the control-mode probe failed: sweeping every 5 s");
      this.#sweepMs = Math.min(this.#sweepMs, FALLBACK_SWEEP_MS);
    }
    this.#watchSpool();
    this.#requestCycle("start");
    this.#requestDrain();
    this.#timers.push(setInterval(() => this.#tick(), QUIET_TICK_MS));
    this.#timers.push(setInterval(() => {
      this.#requestCycle("sweep");
      this.#requestDrain();
    }, Math.max(100, this.#sweepMs)));
    const recheck = Math.max(100, this.#config.daemon.zero_member_recheck_secs * 1000);
    this.#timers.push(setInterval(() => {
      if (this.#pool.size === 0) this.#enqueue(async () => void await this.#syncPool());
    }, recheck));
    return await this.#stopped;
  }

  /** SIGHUP (U13): reload config and manifests, all or nothing; the pool stays. */
  reload(): void {
    this.#enqueue(async () => {
      await this.#load(false);
      this.#requestCycle("reload");
    });
  }

  /** SIGTERM, SIGINT or the server's end: stop cleanly. */
  shutdown(code: number): void {
    if (this.#stopping) return;
    this.#stopping = true;
    for (const timer of this.#timers) clearInterval(timer);
    if (this.#pushTimer !== null) clearTimeout(this.#pushTimer);
    if (this.#refreshTimer !== null) clearTimeout(this.#refreshTimer);
    try {
      this.#watcher?.close();
    } catch {
      // Closed.
    }
    this.#socket?.close();
    Promise.all([...this.#pool.values()].map((c) => c.close())).finally(() => this.#stop(code));
  }

  #report(line: string): void {
    if (this.#reported.has(line)) return;
    this.#reported.add(line);
    this.#o.log(line);
  }

  /** Loads config, manifests and hook settings; a failed reload keeps the old set (R18). */
  async #load(first: boolean): Promise<void> {
    const o = this.#o;
    let config: Config;
    try {
      config = await loadConfig({ flag: o.configFlag, disabled: o.noConfig, env: o.env });
    } catch (error) {
      if (first) throw error;
      this.#report(`tma daemon: config not reloaded, the old one stays: ${message(error)}`);
      return;
    }
    const skipped: string[] = [];
    let models: AgentModel[];
    try {
      const loaded = await loadManifests({
        manifestDir: o.manifestDir,
        env: o.env,
        config,
        warn: (line) => skipped.push(line),
      });
      models = loaded.models;
    } catch (error) {
      if (first) throw error;
      this.#report(`tma daemon: manifests not reloaded, the old set stays: ${message(error)}`);
      return;
    }
    // All or nothing (U13): a newly broken user manifest keeps the whole old
    // set. One that was already broken when the set in force loaded does not
    // block the reload (the set in force lacks it too).
    const fresh = skipped.filter((line) => !this.#skipped.has(line));
    if (!first && fresh.length > 0) {
      for (const line of fresh) {
        this.#report(`tma daemon: reload refused, the old set stays: ${line}`);
      }
      return;
    }
    for (const line of skipped) this.#report(line);
    this.#skipped = new Set(skipped);
    this.#config = config;
    this.#models = models;
    this.#settings = await loadHookSettings({
      flag: o.configFlag,
      disabled: o.noConfig,
      env: o.env,
    });
    this.#hookManifests.clear();
    if (!first) this.#o.log("tma daemon: reloaded");
  }

  async #manifestOf(agent: string): Promise<HookManifest | null> {
    if (!this.#hookManifests.has(agent)) {
      const manifest = await loadHookManifest(agent, {
        manifestDir: this.#o.manifestDir,
        env: this.#o.env,
      }).catch(() => null);
      this.#hookManifests.set(agent, manifest);
    }
    return this.#hookManifests.get(agent) ?? null;
  }

  /** Serialises cycles and pool changes: one at a time. */
  #enqueue(task: () => Promise<void>): void {
    this.#work = this.#work.then(task).catch((error) => {
      this.#o.log(`tma daemon: ${message(error)}`);
    });
  }

  /**
   * Serialises hook events on a lane of their own, so an event never waits
   * behind a cycle: both write through the same compare-and-swap, which
   * orders them by evidence time whichever commits first (D47).
   */
  #enqueueEvent(task: () => Promise<void>): void {
    this.#events = this.#events.then(task).catch((error) => {
      this.#o.log(`tma daemon: ${message(error)}`);
    });
  }

  /** Brings the pool in line with the server's sessions; null when the server is gone. */
  async #syncPool(): Promise<string[] | null> {
    if (this.#stopping) return [];
    const ids = await listSessionIds(this.#o.server);
    if (ids === null) {
      this.shutdown(0);
      return null;
    }
    for (const [id, client] of this.#pool) {
      if (!ids.includes(id) || client.closed) {
        this.#pool.delete(id);
        client.close();
      }
    }
    for (const id of ids) {
      if (this.#pool.has(id)) continue;
      this.#pool.set(
        id,
        new ControlClient(this.#o.server, id, {
          output: (pane) => this.#onOutput(pane),
          lifecycle: () => this.#onLifecycle(),
          subscription: () => this.#onAttentionChange(),
          exit: () => this.#onLifecycle(),
        }, ATTENTION_SUBSCRIPTION),
      );
    }
    return ids;
  }

  #onOutput(pane: string): void {
    const now = this.#o.now();
    this.#edges.output(pane, now);
    this.#recheckAt.delete(pane);
  }

  #refreshTimer: ReturnType<typeof setTimeout> | null = null;

  /**
   * A pane's attention flag changed (C102): a focus hook's
   * `clear-attention`, or any other writer. The status line's done count
   * and the watchers depend on it, so the daemon re-reads the stamps,
   * republishes `@tma_status` and wakes its subscribers, once per burst.
   */
  #onAttentionChange(): void {
    if (this.#stopping || this.#refreshTimer !== null) return;
    this.#refreshTimer = setTimeout(() => {
      this.#refreshTimer = null;
      this.#enqueueEvent(() => this.#afterEvents());
    }, REFRESH_COALESCE_MS);
  }

  #lifecycleTimer: ReturnType<typeof setTimeout> | null = null;

  /** A window, pane or session came or went: re-read the pool and run a cycle (U6). */
  #onLifecycle(): void {
    if (this.#stopping || this.#lifecycleTimer !== null) return;
    this.#lifecycleTimer = setTimeout(() => {
      this.#lifecycleTimer = null;
      this.#enqueue(async () => void await this.#syncPool());
      this.#requestCycle("lifecycle");
    }, 20);
  }

  /** The quiet edges and the contradiction rechecks (U7). */
  #tick(): void {
    const now = this.#o.now();
    const force: string[] = [];
    let discover = false;
    for (const { pane } of this.#edges.quiet(now, this.#config.daemon.quiet_ms)) {
      const known = this.#known.get(pane);
      if (known === undefined) {
        if ((this.#nonAgentUntil.get(pane) ?? 0) <= now) discover = true;
        continue;
      }
      if (!known.hookSourced || this.#demotions.due(pane, this.#config)) force.push(pane);
      else if (known.state === "working") this.#recheckAt.set(pane, now + CONTRADICTION_MS);
    }
    for (const [pane, at] of this.#recheckAt) {
      if (at > now) continue;
      this.#recheckAt.delete(pane);
      const known = this.#known.get(pane);
      if (known?.hookSourced && known.state === "working") force.push(pane);
    }
    if (force.length > 0) this.#requestCycle("quiet", force);
    else if (discover) this.#requestCycle("discovery");
  }

  /** Queues one cycle; requests made before it starts join it. */
  #requestCycle(reason: string, force: readonly string[] = []): void {
    if (this.#stopping) return;
    if (this.#cycleQueued) {
      for (const pane of force) this.#cycleQueued.force.add(pane);
      return;
    }
    const queued = { force: new Set(force), reason };
    this.#cycleQueued = queued;
    this.#enqueue(async () => {
      this.#cycleQueued = null;
      await this.#cycle(queued.reason, queued.force);
    });
  }

  async #cycle(reason: string, force: ReadonlySet<string>): Promise<void> {
    if (this.#stopping) return;
    const now = this.#o.now();
    const config = this.#config;
    const listing = await listAgents({
      server: this.#o.server,
      models: this.#models,
      config,
      now: this.#o.now,
      git: false,
      forceCapture: force,
      unguarded: (pane, prior) => this.#demotions.judge(pane, prior, { config, nowMs: now }),
      // U16: notifications go out before the input clear, so no completion is cleared unannounced.
      beforeInputClear: (cycle) => this.#dispatchCycle(cycle),
    });
    const live = new Set(listing.cycle.panes.map((p) => p.paneId));
    const agents = new Set<string>();
    let changed = false;
    for (const outcome of listing.cycle.outcomes) {
      const pane = outcome.pane.paneId;
      agents.add(pane);
      this.#known.set(pane, {
        agent: outcome.identity.agent ?? "",
        hookSourced: outcome.stamp.source === "hook",
        state: outcome.stamp.state,
      });
      if (this.#ring.observe(pane, outcome.stamp.state, now, reason)) changed = true;
    }
    for (const pane of live) {
      if (agents.has(pane)) continue;
      this.#known.delete(pane);
      this.#nonAgentUntil.set(pane, now + NON_AGENT_RECHECK_MS);
      if (this.#ring.observe(pane, null, now, reason)) changed = true;
    }
    if (this.#ring.closeMissing(live, now, reason).length > 0) changed = true;
    for (const pane of this.#edges.panes()) if (!live.has(pane)) this.#edges.forget(pane);
    for (const pane of this.#demotions.panes()) if (!agents.has(pane)) this.#demotions.forget(pane);
    await this.#demotions.publish(this.#o.server, listing.cycle.outcomes)
      .catch((error) => this.#o.log(`tma daemon: demotion marker: ${message(error)}`));
    for (const pane of this.#nonAgentUntil.keys()) {
      if (!live.has(pane)) this.#nonAgentUntil.delete(pane);
    }
    if (listing.cycle.stats.writes > 0) changed = true;
    await this.#publishStatus(listing.rows, now);
    if (changed) this.#hint();
  }

  /** U25: a running daemon dispatches on every detection path, and only it. */
  async #dispatchCycle(cycle: CycleResult): Promise<void> {
    const { dispatchCycle } = await import("../runtime/notify/from_cycle.ts");
    await dispatchCycle(cycle, {
      server: this.#o.server,
      config: this.#config,
      models: this.#models,
      env: this.#o.env,
      now: this.#o.now,
      byDaemon: true,
    }).catch((error) => this.#o.log(`tma daemon: notify: ${message(error)}`));
  }

  /** Keeps `@tma_status` equal to what `tma status` prints, and its refresh time (X6). */
  async #publishStatus(rows: readonly AgentRow[], now: number): Promise<void> {
    const status = renderTmux(countClasses(rows), this.#config.status);
    const values: Record<string, string> = { [STATUS_AT_OPTION]: String(now) };
    if (status !== this.#lastStatus) values[STATUS_OPTION] = status;
    await setServerOptions(this.#o.server, values);
    this.#lastStatus = status;
  }

  /** A wake hint to every subscriber, coalesced within 100 ms (U11). */
  #hint(): void {
    if (!this.#socket || this.#pushTimer !== null) return;
    const now = this.#o.now();
    const wait = this.#lastPush + PUSH_COALESCE_MS - now;
    const fire = () => {
      this.#pushTimer = null;
      this.#lastPush = this.#o.now();
      this.#socket?.push();
    };
    if (wait <= 0) fire();
    else this.#pushTimer = setTimeout(fire, wait);
  }

  #watchSpool(): void {
    try {
      this.#watcher = Deno.watchFs(this.#o.paths.spool, { recursive: false });
    } catch (error) {
      this.#o.log(`tma daemon: cannot watch the spool, the sweep drains it: ${message(error)}`);
      return;
    }
    (async () => {
      try {
        for await (const event of this.#watcher!) {
          if (event.paths.some((p) => p.endsWith(".ev"))) this.#requestDrain();
        }
      } catch {
        // Closed at shutdown.
      }
    })();
  }

  #requestDrain(): void {
    if (this.#drainQueued || this.#stopping) return;
    this.#drainQueued = true;
    this.#enqueueEvent(async () => {
      this.#drainQueued = false;
      await this.#drain();
    });
  }

  /**
   * Takes every finished spool entry, oldest first, bursts folded (X7), in
   * the same pass the drainer runs; entries still being written are looked
   * at again in a moment.
   */
  async #drain(): Promise<void> {
    const pass = await drainOnce(this.#o.paths.spool, {
      ...this.#ingestContext(),
      log: (line) => this.#o.log(`tma daemon: ${line}`),
    });
    // Nobody waits on a spool entry: a refusal is answered here, by the
    // direct stamp the hook would have made (D48).
    for (const event of pass.refused) this.#o.directStamp(event);
    for (const pane of pass.heard) this.#edges.resetEdges(pane);
    if (pass.busy > 0) setTimeout(() => this.#requestDrain(), SPOOL_BUSY_RETRY_MS);
    if (pass.taken > 0) await this.#afterEvents(pass.touched);
  }

  /** A `TMA1` frame from `tma event` (U10): ACK once stamped, NAK to make it stamp itself. */
  #onFrameEvent(body: string): Promise<boolean> {
    const event = parseEventBody(body);
    if (event === null) {
      this.#o.log("tma daemon: refused a TMA1 frame whose body is not an event");
      return Promise.resolve(false);
    }
    return new Promise((resolve) => {
      this.#enqueueEvent(async () => {
        const pane = await this.#ingest(event);
        resolve(pane !== false);
        if (pane !== false) await this.#afterEvents(new Set(pane ? [pane] : []));
      });
    });
  }

  /** What the intake reads, from the set in force. */
  #ingestContext(): IngestContext {
    return {
      server: this.#o.server,
      settings: this.#settings,
      manifestOf: (agent) => this.#manifestOf(agent),
      fullManifestOf: (agent) =>
        Promise.resolve(this.#models.find((m) => m.profile.name === agent)?.manifest ?? null),
      now: this.#o.now,
    };
  }

  /**
   * One `TMA1` event through the intake: the pane it stamped ("" when it
   * stamped none), or false when refused (D48).
   */
  async #ingest(event: RawEvent): Promise<string | false> {
    const got = await ingestRawEvent(event, this.#ingestContext())
      .catch((error) => ({ taken: false as const, reason: message(error) }));
    if (event.pane) this.#edges.resetEdges(event.pane);
    if (!got.taken) return false;
    return got.result?.committed ? got.result.pane ?? "" : "";
  }

  /**
   * After hook events: notifications for the panes they stamped (U25), then
   * the ring, the status line and the wake hint from the stamps as they are.
   */
  async #afterEvents(touched: ReadonlySet<string> = new Set()): Promise<void> {
    const now = this.#o.now();
    // Every option (the notified markers too), read only when an event stamped.
    const panes = touched.size === 0 ? [] : await listPanes(this.#o.server);
    const stamped = panes.filter((p) => touched.has(p.paneId) && p.options["@agent_state"]);
    if (stamped.length > 0) {
      const [{ paneCandidates }, { dispatch }] = await Promise.all([
        import("../runtime/notify/from_cycle.ts"),
        import("../runtime/notify/dispatch.ts"),
      ]);
      const covered = new Set(
        this.#models.filter((m) => m.manifest.telemetry?.context).map((m) => m.profile.name),
      );
      const candidates = stamped.flatMap((pane) =>
        paneCandidates(pane, pane.options, {
          config: this.#config,
          covered: covered.has(pane.options["@agent_name"] ?? ""),
          nowMs: now,
          direct: true,
        })
      );
      if (candidates.length > 0) {
        await dispatch(candidates, {
          server: this.#o.server,
          config: this.#config,
          env: this.#o.env,
          now: this.#o.now,
        }).catch((error) => this.#o.log(`tma daemon: notify: ${message(error)}`));
      }
    }
    const { rows } = await stampedRows(this.#o.server, now);
    let changed = false;
    for (const row of rows) {
      const known = this.#known.get(row.pane);
      this.#known.set(row.pane, {
        agent: row.agent,
        // A pane an event just stamped holds a hook claim; the others keep what the cycle saw.
        hookSourced: touched.has(row.pane) || (known?.hookSourced ?? false),
        state: row.state,
      });
      if (known === undefined) this.#nonAgentUntil.delete(row.pane);
      const source = touched.has(row.pane) ? "hook" : "refresh";
      if (this.#ring.observe(row.pane, row.state, now, source)) changed = true;
    }
    await this.#publishStatus(rows, now);
    if (changed) this.#hint();
  }
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

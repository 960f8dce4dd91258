/**
 * Fetching the fleet (X9): one `tma ls --json --identity` per host per
 * refresh, every host in parallel, each with its hard deadlines, and at most
 * one transport process in flight per host. A host still busy when the next
 * refresh comes is skipped for that refresh, never queued: its track keeps
 * its last reading until its own fetch ends (by an answer, an error or its
 * deadline). Each answer becomes the host's track through the pure liveness
 * rules of `src/core/fleet/liveness.ts`.
 *
 * ```ts
 * const spec = { name: "build", command: ["ssh", "build"], tma: "tma", connectMs: 5000, timeoutMs: 10000 };
 * const poller = new FleetPoller({ specs: [spec], now: Date.now });
 * poller.kick();
 * await poller.settled();
 * poller.track("build")?.error; // null when it answered
 * ```
 * @module
 */
import {
  emptyTrack,
  type HostTrack,
  recordFailure,
  recordReading,
} from "../../core/fleet/liveness.ts";
import { hostKey, type HostSpec } from "../../core/fleet/hosts.ts";
import { parseReading, ReadingError } from "../../core/fleet/reading.ts";
import { FETCH_ARGS, isSsh, remoteTma, transportArgv } from "../../core/fleet/transport.ts";
import { runTransport, type TransportRun } from "./ssh.ts";

/** The last non-blank line of a stream, trimmed to one readable line. */
export function lastLine(text: string): string {
  const line = text.split("\n").map((l) => l.trim()).filter((l) => l !== "").pop() ?? "";
  return line.length > 200 ? `${line.slice(0, 200)}…` : line;
}

/**
 * Why a run that did not answer failed, in one line: ssh's own error (its
 * exit 255), the remote tma's error and exit code, or the deadline.
 */
export function failureOf(spec: HostSpec, run: TransportRun): string | null {
  switch (run.kind) {
    case "failed":
      return run.message;
    case "timeout":
      return `no answer within ${spec.timeoutMs / 1000} s (the deadline; killed)`;
    case "exited": {
      if (run.code === 0) return null;
      const why = lastLine(run.stderr);
      if (run.code === 255 && isSsh(spec.command)) return why || "ssh failed (exit 255)";
      return `the remote tma exited ${run.code}${why ? `: ${why}` : ""}`;
    }
  }
}

/** One host's answer, or why there was none. */
export type FetchOutcome =
  | { ok: true; reading: ReturnType<typeof parseReading> }
  | { ok: false; error: string };

/** Runs one fetch of one host. */
export async function fetchHost(spec: HostSpec): Promise<FetchOutcome> {
  const argv = transportArgv(spec, remoteTma(spec, FETCH_ARGS), { tty: false });
  const run = await runTransport(argv, { timeoutMs: spec.timeoutMs });
  const failure = failureOf(spec, run);
  if (failure !== null || run.kind !== "exited") return { ok: false, error: failure ?? "" };
  try {
    return { ok: true, reading: parseReading(run.stdout) };
  } catch (error) {
    if (error instanceof ReadingError) return { ok: false, error: error.message };
    throw error;
  }
}

/** Options of a poller. */
export interface PollerOptions {
  /** The hosts, in config order. */
  specs: readonly HostSpec[];
  now(): number;
  /** Tracks to start from (the cache), by host name. */
  tracks?: ReadonlyMap<string, HostTrack>;
  /** Called after each host's fetch ends (a surface repaints, a waiter wakes). */
  onSettled?(name: string): void;
  /** The fetch itself; tests and the bench pass their own. */
  fetch?(spec: HostSpec): Promise<FetchOutcome>;
}

/** The fleet's tracks and the fetches under way, one per host at most. */
export class FleetPoller {
  readonly #options: PollerOptions;
  readonly #tracks = new Map<string, HostTrack>();
  readonly #inFlight = new Map<string, Promise<void>>();
  /** Hosts a capture waits for: the next kick skips them. */
  readonly #wanted = new Set<string>();
  /** Hosts skipped by a kick because their previous fetch was still running. */
  skipped = 0;

  constructor(options: PollerOptions) {
    this.#options = options;
    for (const spec of options.specs) {
      const key = hostKey(spec);
      const cached = options.tracks?.get(spec.name);
      this.#tracks.set(spec.name, cached?.key === key ? cached : emptyTrack(spec.name, key));
    }
  }

  /** The hosts, in config order. */
  get specs(): readonly HostSpec[] {
    return this.#options.specs;
  }

  /** One host's track. */
  track(name: string): HostTrack | undefined {
    return this.#tracks.get(name);
  }

  /** Every track, in config order. */
  tracks(): HostTrack[] {
    return this.#options.specs.map((spec) => this.#tracks.get(spec.name)!);
  }

  /** Whether a host has a transport process running. */
  busy(name: string): boolean {
    return this.#inFlight.has(name);
  }

  /**
   * Starts a fetch of every host that has none running; a busy host is
   * skipped (counted in `skipped`). Returns the names started.
   */
  kick(): string[] {
    const started: string[] = [];
    for (const spec of this.#options.specs) {
      if (this.#inFlight.has(spec.name) || this.#wanted.has(spec.name)) {
        this.skipped++;
        continue;
      }
      started.push(spec.name);
      const fetch = this.#options.fetch ?? fetchHost;
      const startedMs = this.#options.now();
      const run = fetch(spec).catch((error): FetchOutcome => ({
        ok: false,
        error: error instanceof Error ? error.message : String(error),
      })).then((outcome) => {
        const track = this.#tracks.get(spec.name)!;
        this.#tracks.set(
          spec.name,
          outcome.ok
            ? recordReading(track, outcome.reading, startedMs)
            : recordFailure(track, outcome.error, this.#options.now()),
        );
      }).finally(() => {
        this.#inFlight.delete(spec.name);
        this.#options.onSettled?.(spec.name);
      });
      this.#inFlight.set(spec.name, run);
    }
    return started;
  }

  /**
   * Resolves once every fetch under way has ended (each has its own hard
   * deadline), or at `budgetMs`, whichever is first.
   */
  async settled(budgetMs?: number): Promise<void> {
    const all = Promise.all([...this.#inFlight.values()]).then(() => undefined);
    if (budgetMs === undefined) return await all;
    const budget = AbortSignal.timeout(Math.max(0, budgetMs));
    await Promise.race([
      all,
      new Promise<void>((resolve) => budget.addEventListener("abort", () => resolve())),
    ]);
  }

  /**
   * Runs `fn` as the host's one transport process (a remote preview
   * capture): after the process in flight, if any, and ahead of the next
   * fetch, which skips the host meanwhile.
   */
  async exclusive<T>(name: string, fn: () => Promise<T>): Promise<T> {
    this.#wanted.add(name);
    let run: Promise<T>;
    try {
      while (this.#inFlight.has(name)) await this.#inFlight.get(name);
      run = fn();
      const slot = run.then(() => undefined, () => undefined).finally(() =>
        this.#inFlight.delete(name)
      );
      this.#inFlight.set(name, slot);
    } finally {
      this.#wanted.delete(name);
    }
    return await run;
  }
}

/**
 * The rhythm of every waiter (`wait`, `subscribe`, `watch`): run a cycle,
 * then sleep until the next tick or a wake hint, whichever comes first.
 *
 * A wake hint is anything that says "state may have moved": SIGUSR1 (the
 * focus hooks nudge advertised watchers, U17) or, once the daemon runs, its
 * PUSH byte (U11, C65). A hint only cuts the sleep short; the waiter still
 * runs its own cycle. Hints closer together than `coalesceMs` (100 ms)
 * coalesce into one wake, and hints that arrive while a cycle runs are kept
 * for the next sleep, so none is lost and none costs a cycle of its own.
 *
 * ```ts
 * const ticker = new Ticker({ intervalMs: 1000, wakeSignals: ["SIGUSR1"] });
 * try {
 *   for (;;) {
 *     // ... one cycle ...
 *     if ((await ticker.sleep()) === "stopped") break;
 *   }
 * } finally {
 *   ticker.close();
 * }
 * ```
 * @module
 */

/** Why a sleep ended. */
export type WakeReason = "tick" | "hint" | "deadline" | "stopped";

/** Options of a `Ticker`. */
export interface TickerOptions {
  /** The cadence: a tick comes this long after the previous one began. */
  intervalMs: number;
  /** Hints within this window after a wake coalesce (C65); default 100. */
  coalesceMs?: number;
  /** Signals that count as wake hints (`SIGUSR1` for watchers). */
  wakeSignals?: readonly Deno.Signal[];
  /** Signals that stop the ticker (`SIGINT`, `SIGTERM`: a stream's clean exit). */
  stopSignals?: readonly Deno.Signal[];
  /** The clock; tests pass their own. */
  now?: () => number;
}

/** A cycle-then-sleep rhythm with wake hints. */
export class Ticker {
  readonly #intervalMs: number;
  readonly #coalesceMs: number;
  readonly #now: () => number;
  #tickStart: number;
  #lastWake = -Infinity;
  #pendingHint = false;
  #stopped = false;
  #wakeUp: ((reason: WakeReason) => void) | null = null;
  readonly #listeners: [Deno.Signal, () => void][] = [];

  constructor(options: TickerOptions) {
    this.#intervalMs = options.intervalMs;
    this.#coalesceMs = options.coalesceMs ?? 100;
    this.#now = options.now ?? Date.now;
    this.#tickStart = this.#now();
    for (const signal of options.wakeSignals ?? []) this.#listen(signal, () => this.wake());
    for (const signal of options.stopSignals ?? []) this.#listen(signal, () => this.stop());
  }

  #listen(signal: Deno.Signal, handler: () => void): void {
    try {
      Deno.addSignalListener(signal, handler);
      this.#listeners.push([signal, handler]);
    } catch {
      // A platform without this signal: the ticker still ticks.
    }
  }

  /** Whether `stop()` was called (or a stop signal arrived). */
  get stopped(): boolean {
    return this.#stopped;
  }

  /** A wake hint: the current sleep ends early, or the next one returns at once. */
  wake(): void {
    if (this.#wakeUp) this.#wakeUp("hint");
    else this.#pendingHint = true;
  }

  /** Ends the current sleep and every later one with "stopped". */
  stop(): void {
    this.#stopped = true;
    this.#wakeUp?.("stopped");
  }

  /**
   * Sleeps until the next tick, a hint, `deadlineMs` (epoch ms) or a stop.
   * The next tick is `intervalMs` after the previous tick began, so a slow
   * cycle does not stretch the cadence.
   */
  async sleep(deadlineMs?: number): Promise<WakeReason> {
    if (this.#stopped) return "stopped";
    const tickAt = this.#tickStart + this.#intervalMs;
    // The earliest of the tick, the deadline and (when a hint is waiting) the
    // hint's turn, which comes no sooner than coalesceMs after the last wake.
    const next = (hint: boolean): [number, WakeReason] => {
      let best: [number, WakeReason] = [tickAt, "tick"];
      if (deadlineMs !== undefined && deadlineMs < best[0]) best = [deadlineMs, "deadline"];
      const hintAt = this.#lastWake + this.#coalesceMs;
      if (hint && hintAt < best[0]) best = [hintAt, "hint"];
      return best;
    };
    const reason = await new Promise<WakeReason>((resolve) => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const finish = (why: WakeReason) => {
        clearTimeout(timer);
        this.#wakeUp = null;
        resolve(why);
      };
      const arm = ([at, why]: [number, WakeReason]) => {
        clearTimeout(timer);
        const wait = at - this.#now();
        if (wait <= 0) finish(why);
        else timer = setTimeout(() => finish(why), wait);
      };
      this.#wakeUp = (why) => why === "hint" ? arm(next(true)) : finish(why);
      arm(next(this.#pendingHint));
    });
    this.#pendingHint = false;
    if (reason === "hint") this.#lastWake = this.#now();
    if (reason === "tick" || reason === "hint") this.#tickStart = this.#now();
    return this.#stopped ? "stopped" : reason;
  }

  /** Removes the signal listeners and ends a pending sleep. */
  close(): void {
    for (const [signal, handler] of this.#listeners) {
      try {
        Deno.removeSignalListener(signal, handler);
      } catch {
        // Already gone.
      }
    }
    this.#listeners.length = 0;
    this.stop();
  }
}

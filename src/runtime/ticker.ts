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
 * The sleep itself is the surfaces' `Waker` (`wake.ts`, shared with the
 * picker and watch), and every wake source joins there: the wake signals
 * are the waker's `onSignal`, and a later source (the daemon's hints) wakes
 * `ticker.waker` like any other. The ticker adds the cadence, the
 * coalescing, a deadline (`wait --timeout`) and stop signals (a stream's
 * clean exit).
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
import { Waker } from "./wake.ts";

/** Why a sleep ended. */
export type WakeReason = "tick" | "hint" | "deadline" | "stopped";

/** Options of a `Ticker`. */
export interface TickerOptions {
  /** The cadence: a tick comes this long after the previous one began. */
  intervalMs: number;
  /** Hints within this window after a wake coalesce (C65); default 100. */
  coalesceMs?: number;
  /** Signals that count as wake hints (`SIGUSR1` for watchers), through `Waker.onSignal`. */
  wakeSignals?: readonly Deno.Signal[];
  /** The waker to sleep on, when the caller wires more wake sources into it. */
  waker?: Waker;
  /** Signals that stop the ticker (`SIGINT`, `SIGTERM`: a stream's clean exit). */
  stopSignals?: readonly Deno.Signal[];
  /** The clock; tests pass their own. */
  now?: () => number;
}

/** A cycle-then-sleep rhythm with wake hints, over the surfaces' `Waker`. */
export class Ticker {
  readonly #intervalMs: number;
  readonly #coalesceMs: number;
  readonly #now: () => number;
  /** Where wake sources join: any `wake(reason)` on it is a hint to this ticker. */
  readonly waker: Waker;
  #tickStart: number;
  #lastWake = -Infinity;
  #stopped = false;
  readonly #removers: (() => void)[] = [];

  constructor(options: TickerOptions) {
    this.#intervalMs = options.intervalMs;
    this.#coalesceMs = options.coalesceMs ?? 100;
    this.#now = options.now ?? Date.now;
    this.waker = options.waker ?? new Waker();
    this.#tickStart = this.#now();
    for (const signal of options.wakeSignals ?? []) {
      this.#listen(() => this.waker.onSignal(signal));
    }
    for (const signal of options.stopSignals ?? []) {
      this.#listen(() => {
        const handler = () => this.stop();
        Deno.addSignalListener(signal, handler);
        return () => Deno.removeSignalListener(signal, handler);
      });
    }
  }

  /** Adds a signal listener, keeping its remover. */
  #listen(add: () => () => void): void {
    try {
      this.#removers.push(add());
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
    this.waker.wake("hint");
  }

  /** Ends the current sleep and every later one with "stopped". */
  stop(): void {
    this.#stopped = true;
    this.waker.wake(STOP);
  }

  /**
   * Sleeps until the next tick, a hint, `deadlineMs` (epoch ms) or a stop.
   * The next tick is `intervalMs` after the previous tick began, so a slow
   * cycle does not stretch the cadence.
   */
  async sleep(deadlineMs?: number): Promise<WakeReason> {
    if (this.#stopped) return "stopped";
    const tickAt = this.#tickStart + this.#intervalMs;
    const until = Math.min(tickAt, deadlineMs ?? Infinity);
    const why = await this.waker.sleep(Math.max(0, until - this.#now()));
    if (this.#stopped) return "stopped";
    if (why === "tick") {
      if (until < tickAt) return "deadline";
      this.#tickStart = this.#now();
      return "tick";
    }
    // A hint (or a wake signal): no sooner than coalesceMs after the last
    // wake, and the hints that arrive meanwhile fold into this one.
    while (this.#now() < Math.min(this.#lastWake + this.#coalesceMs, until)) {
      const rest = Math.min(this.#lastWake + this.#coalesceMs, until) - this.#now();
      await this.waker.sleep(rest);
      if (this.#stopped) return "stopped";
    }
    this.#lastWake = this.#now();
    this.#tickStart = this.#lastWake;
    return "hint";
  }

  /** Removes the signal listeners and ends a pending sleep. */
  close(): void {
    for (const remove of this.#removers.splice(0)) {
      try {
        remove();
      } catch {
        // Already gone.
      }
    }
    this.stop();
  }
}

/** The wake reason `stop()` hands the waker. */
const STOP = "stop";

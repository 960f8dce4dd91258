/**
 * The one place a surface sleeps: until the next tick, or until a wake
 * source fires first (SIGUSR1 from the attention-clear hook, U17; the
 * daemon's wake hints, U11, through `onHints`). Several wakes during one
 * sleep end it once.
 *
 * ```ts
 * import { Waker } from "./wake.ts";
 * const waker = new Waker();
 * const stop = waker.onSignal("SIGUSR1");
 * const why = await waker.sleep(1000); // "tick" or "SIGUSR1"
 * stop();
 * ```
 * @module
 */

/** Why a sleep ended: the tick, or the name of the wake source. */
export type WakeReason = "tick" | string;

/** Sleeps that any wake source can cut short. */
export class Waker {
  #wake: ((reason: WakeReason) => void) | null = null;
  #early: WakeReason | null = null;

  /** Ends the current sleep now (or the next one, if none is running). */
  wake(reason: WakeReason): void {
    if (this.#wake) {
      const wake = this.#wake;
      this.#wake = null;
      wake(reason);
    } else {
      this.#early ??= reason;
    }
  }

  /** Sleeps `ms`, or less if woken; a wake that came while awake ends it at once. */
  sleep(ms: number): Promise<WakeReason> {
    if (this.#early !== null) {
      const reason = this.#early;
      this.#early = null;
      return Promise.resolve(reason);
    }
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.#wake = null;
        resolve("tick");
      }, ms);
      this.#wake = (reason) => {
        clearTimeout(timer);
        resolve(reason);
      };
    });
  }

  /** Makes a signal a wake source; returns the function that removes it. */
  onSignal(signal: Deno.Signal): () => void {
    const handler = () => this.wake(signal);
    Deno.addSignalListener(signal, handler);
    return () => Deno.removeSignalListener(signal, handler);
  }

  /**
   * Makes a hint subscription a wake source (the daemon's pushes, U11):
   * `subscribe` is retried every `retryMs` while it finds nothing to
   * subscribe to or its subscription ends, since a daemon may start or stop
   * at any time. A hint only wakes; the tick keeps running as the safety net.
   * Returns the function that removes it.
   */
  onHints(
    subscribe: (onPush: () => void, onEnd: () => void) => Promise<(() => void) | null>,
    retryMs = 5000,
  ): () => void {
    let stopped = false;
    let unsubscribe: (() => void) | null = null;
    let timer: ReturnType<typeof setTimeout> | null = null;
    const attempt = async () => {
      timer = null;
      if (stopped) return;
      const ended = () => {
        unsubscribe = null;
        if (!stopped && timer === null) timer = setTimeout(attempt, retryMs);
      };
      unsubscribe = await subscribe(() => this.wake("daemon"), ended).catch(() => null);
      if (stopped) unsubscribe?.();
      else if (unsubscribe === null) timer = setTimeout(attempt, retryMs);
    };
    attempt();
    return () => {
      stopped = true;
      if (timer !== null) clearTimeout(timer);
      unsubscribe?.();
    };
  }
}

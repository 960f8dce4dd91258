import { assert, assertEquals } from "../../tests/harness/assert.ts";
import { Ticker } from "./ticker.ts";
import { Waker } from "./wake.ts";

Deno.test("Ticker C40: a sleep lasts until the next tick, measured from the last tick's start", async () => {
  const ticker = new Ticker({ intervalMs: 120 });
  try {
    const start = Date.now();
    assertEquals(await ticker.sleep(), "tick");
    const first = Date.now() - start;
    assert(first >= 110 && first < 400, `slept ${first} ms`);
  } finally {
    ticker.close();
  }
});

Deno.test("Ticker U11: a wake hint ends the sleep early; a hint during a cycle is kept for the next sleep", async () => {
  const ticker = new Ticker({ intervalMs: 10_000, coalesceMs: 0 });
  try {
    const start = Date.now();
    setTimeout(() => ticker.wake(), 30);
    assertEquals(await ticker.sleep(), "hint");
    assert(Date.now() - start < 1000);
    ticker.wake(); // arrives "during the cycle"
    const again = Date.now();
    assertEquals(await ticker.sleep(), "hint");
    assert(Date.now() - again < 100);
  } finally {
    ticker.close();
  }
});

Deno.test("Ticker C65: hints within the coalescing window fold into one wake", async () => {
  const ticker = new Ticker({ intervalMs: 10_000, coalesceMs: 150 });
  try {
    ticker.wake();
    assertEquals(await ticker.sleep(), "hint");
    const start = Date.now();
    ticker.wake();
    ticker.wake();
    assertEquals(await ticker.sleep(), "hint");
    const waited = Date.now() - start;
    assert(waited >= 120, `a second wake ${waited} ms after the first is inside the window`);
  } finally {
    ticker.close();
  }
});

Deno.test("Ticker C37: a deadline before the tick ends the sleep with 'deadline'; stop ends every sleep", async () => {
  const ticker = new Ticker({ intervalMs: 10_000 });
  try {
    assertEquals(await ticker.sleep(Date.now() + 40), "deadline");
    setTimeout(() => ticker.stop(), 20);
    assertEquals(await ticker.sleep(), "stopped");
    assertEquals(await ticker.sleep(), "stopped");
  } finally {
    ticker.close();
  }
});

Deno.test("Ticker U11: a wake source on the shared Waker (a signal, the daemon's hint) is a hint", async () => {
  const waker = new Waker();
  const ticker = new Ticker({ intervalMs: 10_000, coalesceMs: 0, waker, wakeSignals: ["SIGUSR1"] });
  try {
    assert(ticker.waker === waker);
    setTimeout(() => waker.wake("daemon"), 20);
    assertEquals(await ticker.sleep(), "hint");
    setTimeout(() => Deno.kill(Deno.pid, "SIGUSR1"), 20);
    const start = Date.now();
    assertEquals(await ticker.sleep(), "hint");
    assert(Date.now() - start < 5000);
  } finally {
    ticker.close();
  }
});

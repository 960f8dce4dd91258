import { assertEquals } from "../../../tests/harness/assert.ts";
import { evidenceTimeMs } from "./event.ts";

const NOW = 1_800_000_000_000;
const ctx = (fired?: string) => ({
  now: () => NOW,
  env: (name: string) => (name === "TMA_HOOK_FIRED_AT" ? fired : undefined),
});

Deno.test("evidenceTimeMs() D47: a hook's evidence time is when the wrapper fired it", () => {
  assertEquals(evidenceTimeMs(ctx(String(NOW - 40))), NOW - 40);
});

Deno.test("evidenceTimeMs() D47: a missing, malformed, future or stale fire time falls back to the process start", () => {
  for (const bad of [undefined, "", "17000000003N", String(NOW + 5), String(NOW - 120_000)]) {
    const at = evidenceTimeMs(ctx(bad));
    assertEquals(at <= NOW && at !== Number(bad), true, String(bad));
  }
});

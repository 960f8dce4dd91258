import { assertEquals, assertMatch } from "../../tests/harness/assert.ts";
import { acquireGuard, formatLock, newNonce, parseLock, releaseGuard } from "./lock.ts";

Deno.test("action lock A13: a lock value round-trips; a corrupt one reads as none", () => {
  const value = { expiryMs: 1_700_000_005_000, nonce: newNonce(), pid: 4242, name: "appr:ove" };
  assertEquals(parseLock(formatLock(value)), value);
  assertMatch(value.nonce, /^[0-9a-f]{32}$/);
  for (
    const bad of ["", "garbage", "17000:abc:1:x", "1700000000000::1:x", "1700000000000:n:pid:x"]
  ) {
    assertEquals(parseLock(bad), null, bad);
  }
});

Deno.test("action lock A14, A16: the guards are single tmux conditions on @agent_action", () => {
  assertEquals(
    acquireGuard(1_700_000_000_500),
    "#{||:#{==:#{@agent_action},},#{||:#{?#{m:" + "[0-9]".repeat(13) +
      ":*,#{@agent_action}},0,1},#{<:#{s/[^0-9].*//:@agent_action},1700000000500}}}",
  );
  assertEquals(releaseGuard("ab12"), "#{m:*:ab12:*,#{@agent_action}}");
});

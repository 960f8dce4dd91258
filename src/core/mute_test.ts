import { assertEquals } from "../../tests/harness/assert.ts";
import { isMuted, MUTE_FOREVER, muteWrite, unmuteWrite } from "./mute.ts";

Deno.test("muteWrite() C57 P31: a deadline from now, or the indefinite sentinel", () => {
  assertEquals(muteWrite({ nowMs: 1_000, forMs: 90_000 }).value, "91000");
  assertEquals(muteWrite({ nowMs: 1_000, forMs: null }).value, "99999999999999");
  assertEquals(unmuteWrite(), { name: "@agent_mute_until", value: null });
});

Deno.test("isMuted() P51: only a deadline still in the future", () => {
  assertEquals(isMuted({ "@agent_mute_until": MUTE_FOREVER }, 1_785_100_000_000), true);
  assertEquals(isMuted({ "@agent_mute_until": "1785100000001" }, 1_785_100_000_000), true);
  assertEquals(isMuted({ "@agent_mute_until": "1785100000000" }, 1_785_100_000_000), false);
  assertEquals(isMuted({}, 1_785_100_000_000), false);
});

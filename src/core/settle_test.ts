import { assertEquals } from "../../tests/harness/assert.ts";
import { deliveredMark, readDelivered, screenEndsClaim, type SettleInput } from "./settle.ts";
import type { State } from "./state.ts";

const NOW = 1_800_000_000_000;

Deno.test("readDelivered() D65, D67: @tma_delivered round-trips and malformed marks read as none", () => {
  assertEquals(readDelivered(deliveredMark("blocked", NOW)), { state: "blocked", at: NOW });
  for (
    const bad of [undefined, "", "blocked", "done:1", "working:x", "working:-5", "blocked:1:2"]
  ) {
    assertEquals(readDelivered(bad), null);
  }
});

function base(extra: Partial<SettleInput>): SettleInput {
  return {
    hookState: "working",
    hookEventAt: NOW - 10_000,
    claim: { state: "idle", endsTurn: true, fromTitle: false },
    delivered: null,
    visible: new Set<State>(["working", "blocked"]),
    nowMs: NOW,
    dwellMs: 3000,
    ...extra,
  };
}

Deno.test("screenEndsClaim() D65: only turn-end chrome ends an unmarked working claim; a mark takes any body idle", () => {
  assertEquals(screenEndsClaim(base({}))?.startsWith("D65"), true);
  const plain = { state: "idle" as State, endsTurn: false, fromTitle: false };
  assertEquals(screenEndsClaim(base({ claim: plain })), null);
  const marked = base({ claim: plain, delivered: { state: "working", at: NOW - 100 } });
  assertEquals(screenEndsClaim(marked)?.startsWith("D65"), true);
  // A mark for another state, or one older than the hook event, is no mark.
  assertEquals(
    screenEndsClaim({ ...marked, delivered: { state: "blocked", at: NOW - 100 } }),
    null,
  );
  assertEquals(
    screenEndsClaim({ ...marked, delivered: { state: "working", at: NOW - 20_000 } }),
    null,
  );
  // Working chrome, or a hook event newer than the capture, ends nothing.
  assertEquals(
    screenEndsClaim(base({ claim: { state: "working", endsTurn: false, fromTitle: false } })),
    null,
  );
  assertEquals(screenEndsClaim(base({ hookEventAt: NOW + 10 })), null);
});

Deno.test("screenEndsClaim() D67: a blocked claim ends on working or idle body chrome, never on a title", () => {
  const blocked = (claim: SettleInput["claim"]) =>
    screenEndsClaim(base({ hookState: "blocked", claim }));
  assertEquals(
    blocked({ state: "idle", endsTurn: false, fromTitle: false })?.startsWith("D67"),
    true,
  );
  assertEquals(
    blocked({ state: "working", endsTurn: false, fromTitle: false })?.startsWith("D67"),
    true,
  );
  assertEquals(blocked({ state: "idle", endsTurn: false, fromTitle: true }), null);
  assertEquals(blocked({ state: "blocked", endsTurn: false, fromTitle: false }), null);
  assertEquals(blocked(null), null);
  // An idle hook claim is left to the decay (D18).
  assertEquals(
    screenEndsClaim(
      base({ hookState: "idle", claim: { state: "working", endsTurn: false, fromTitle: false } }),
    ),
    null,
  );
});

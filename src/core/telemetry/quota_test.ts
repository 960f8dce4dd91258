import { assertEquals, assertStrictEquals } from "../../../tests/harness/assert.ts";
import { pickQuota } from "./quota.ts";

const NOW = 1_785_000_000_000;

Deno.test("pickQuota() I9: the window closest to exhaustion wins", () => {
  assertEquals(
    pickQuota([
      { window: "five_hour", usedPct: 40, resetsAtMs: NOW + 1 },
      { window: "seven_day", usedPct: 72.4, resetsAtMs: null },
    ], NOW),
    { pct: 72, window: "seven_day", resetsAtMs: null },
  );
});

Deno.test("pickQuota() I9: a tie goes to the window listed first, judged on the stated numbers", () => {
  assertStrictEquals(
    pickQuota([
      { window: "primary", usedPct: 50, resetsAtMs: null },
      { window: "secondary", usedPct: 50, resetsAtMs: null },
    ], NOW)?.window,
    "primary",
  );
  // Both round to 50, but 50.2 is the higher stated use.
  assertStrictEquals(
    pickQuota([
      { window: "primary", usedPct: 49.8, resetsAtMs: null },
      { window: "secondary", usedPct: 50.2, resetsAtMs: null },
    ], NOW)?.window,
    "secondary",
  );
});

Deno.test("pickQuota() I9: a window resetting at or before now is ignored", () => {
  assertEquals(
    pickQuota([
      { window: "five_hour", usedPct: 99, resetsAtMs: NOW },
      { window: "seven_day", usedPct: 10, resetsAtMs: NOW + 1 },
    ], NOW),
    { pct: 10, window: "seven_day", resetsAtMs: NOW + 1 },
  );
});

Deno.test("pickQuota() I9: a percentage outside 0-100 is ignored, and no window means no reading", () => {
  assertStrictEquals(
    pickQuota([
      { window: "five_hour", usedPct: 140, resetsAtMs: null },
      { window: "seven_day", usedPct: -3, resetsAtMs: null },
      { window: "spend_limit", usedPct: Number.NaN, resetsAtMs: null },
    ], NOW),
    undefined,
  );
  assertStrictEquals(pickQuota([], NOW), undefined);
});

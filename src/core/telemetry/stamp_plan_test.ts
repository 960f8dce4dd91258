import { assertEquals, assertStrictEquals } from "../../../tests/harness/assert.ts";
import type { PaneOptions } from "../snapshot.ts";
import type { TelemetryReading } from "./reading.ts";
import {
  applyWrites,
  formatCarriesTokens,
  planTelemetryWrites,
  type TelemetryChain,
  type TelemetryPlanOptions,
} from "./stamp_plan.ts";

const EV = 1_785_000_000_000;
const PUSH: TelemetryPlanOptions = { evidenceMs: EV, channelCarriesTokens: true };
const PULL: TelemetryPlanOptions = { evidenceMs: EV, channelCarriesTokens: false };
const CONTEXT_GUARD = `#{e|<=:#{@agent_context_at},${EV}}`;
const TOKENS_GUARD = `#{&&:#{e|<=:#{@agent_context_at},${EV}},#{e|<=:#{@agent_tokens_at},${EV}}}`;
const QUOTA_GUARD = `#{e|<=:#{@agent_quota_at},${EV}}`;

function plan(
  reading: TelemetryReading,
  opts: TelemetryPlanOptions = PUSH,
  prior: PaneOptions = {},
): TelemetryChain[] {
  return planTelemetryWrites(prior, reading, opts);
}

function lane(chains: TelemetryChain[], name: "context" | "quota"): TelemetryChain | undefined {
  return chains.find((chain) => chain.lane === name);
}

Deno.test("planTelemetryWrites() P17-P26: a full reading stamps both lanes, each evidence time last", () => {
  const chains = plan({
    contextPct: 78,
    tokens: 156000,
    model: "claude-opus-4-8",
    costUsd: 1.2345,
    sessionId: "s1",
    quota: { pct: 91, window: "five_hour", resetsAtMs: 1_785_003_600_000 },
  });
  assertEquals(chains, [
    {
      lane: "context",
      guard: TOKENS_GUARD,
      writes: [
        { name: "@agent_context_pct", value: "78" },
        { name: "@agent_tokens", value: "156000" },
        { name: "@agent_model", value: "claude-opus-4-8" },
        { name: "@agent_cost_usd", value: "1.2345" },
        { name: "@agent_tokens_at", value: String(EV) },
        { name: "@agent_context_at", value: String(EV) },
      ],
    },
    {
      lane: "quota",
      guard: QUOTA_GUARD,
      writes: [
        { name: "@agent_quota_pct", value: "91" },
        { name: "@agent_quota_window", value: "five_hour" },
        { name: "@agent_quota_resets_at", value: "1785003600000" },
        { name: "@agent_quota_at", value: String(EV) },
      ],
    },
  ]);
});

Deno.test("planTelemetryWrites() P18: a null report clears the percent and the count but advances context_at", () => {
  const prior: PaneOptions = {
    "@agent_context_pct": "40",
    "@agent_context_at": String(EV - 5000),
    "@agent_tokens": "80000",
    "@agent_tokens_at": String(EV - 5000),
  };
  const context = lane(plan({ contextPct: null, tokens: null }, PUSH, prior), "context")!;
  assertEquals(context.writes, [
    { name: "@agent_context_pct", value: null },
    { name: "@agent_tokens", value: null },
    { name: "@agent_tokens_at", value: String(EV) },
    { name: "@agent_context_at", value: String(EV) },
  ]);
  assertStrictEquals(context.guard, TOKENS_GUARD);
});

Deno.test("planTelemetryWrites() I8: a reading that says nothing changes nothing", () => {
  const prior: PaneOptions = {
    "@agent_context_pct": "40",
    "@agent_context_at": String(EV - 5000),
    "@agent_quota_pct": "12",
    "@agent_quota_at": String(EV - 5000),
  };
  assertEquals(plan({}, PUSH, prior), []);
  // A session id alone is not an observation either.
  assertEquals(plan({ sessionId: "s1" }, PUSH, prior), []);
});

Deno.test("planTelemetryWrites() I8: a missing context block leaves context_at alone even when other fields ride", () => {
  const chains = plan({ model: "gpt-5-codex" }, PULL);
  assertEquals(chains, [{
    lane: "context",
    guard: CONTEXT_GUARD,
    writes: [{ name: "@agent_model", value: "gpt-5-codex" }],
  }]);
});

Deno.test("planTelemetryWrites() P19: an observation without a count clears a stored count", () => {
  const prior: PaneOptions = { "@agent_tokens": "90000", "@agent_tokens_at": String(EV - 1) };
  const context = lane(plan({ contextPct: 50, tokens: null }, PUSH, prior), "context")!;
  assertEquals(context.writes, [
    { name: "@agent_context_pct", value: "50" },
    { name: "@agent_tokens", value: null },
    { name: "@agent_tokens_at", value: String(EV) },
    { name: "@agent_context_at", value: String(EV) },
  ]);
  // A count-only clear (an old Claude build whose percent was ignored) is
  // guarded by both clocks and does not date the gauge.
  const countOnly = lane(plan({ tokens: null }, PUSH, prior), "context")!;
  assertEquals(countOnly.writes, [
    { name: "@agent_tokens", value: null },
    { name: "@agent_tokens_at", value: String(EV) },
  ]);
  assertStrictEquals(countOnly.guard, TOKENS_GUARD);
});

Deno.test("planTelemetryWrites() I30: a channel without a footprint never stamps tokens", () => {
  assertStrictEquals(formatCarriesTokens("codex-rollout-jsonl"), false);
  assertStrictEquals(formatCarriesTokens("claude-statusline-json"), true);
  assertStrictEquals(formatCarriesTokens("cursor-statusline-json"), true);
  assertStrictEquals(formatCarriesTokens("pi-context-json"), true);
  assertStrictEquals(formatCarriesTokens("made-up"), false);
  const prior: PaneOptions = { "@agent_tokens": "5" };
  const context = lane(
    plan({ contextPct: 57, tokens: 123, model: "gpt-5" }, PULL, prior),
    "context",
  )!;
  assertEquals(context.writes, [
    { name: "@agent_context_pct", value: "57" },
    { name: "@agent_model", value: "gpt-5" },
    { name: "@agent_context_at", value: String(EV) },
  ]);
  assertStrictEquals(context.guard, CONTEXT_GUARD);
  // Nor clears one: the channel says nothing about counts.
  assertEquals(plan({ tokens: null }, PULL, prior), []);
});

Deno.test("planTelemetryWrites() I9, P25: quota is never cleared by a reading without one", () => {
  const prior: PaneOptions = {
    "@agent_quota_pct": "88",
    "@agent_quota_window": "seven_day",
    "@agent_quota_resets_at": "1785600000000",
    "@agent_quota_at": String(EV - 60_000),
  };
  const chains = plan({ contextPct: 10 }, PUSH, prior);
  assertStrictEquals(lane(chains, "quota"), undefined);
  for (const chain of chains) {
    assertStrictEquals(chain.writes.some((w) => w.name.startsWith("@agent_quota")), false);
  }
});

Deno.test("planTelemetryWrites() P24: a window with no stated reset leaves resets_at absent", () => {
  const prior: PaneOptions = { "@agent_quota_resets_at": "1785600000000" };
  const quota = lane(
    plan({ quota: { pct: 30, window: "secondary", resetsAtMs: null } }, PULL, prior),
    "quota",
  )!;
  assertEquals(quota.writes, [
    { name: "@agent_quota_pct", value: "30" },
    { name: "@agent_quota_window", value: "secondary" },
    { name: "@agent_quota_resets_at", value: null },
    { name: "@agent_quota_at", value: String(EV) },
  ]);
});

Deno.test("planTelemetryWrites() P26: cost is stamped exactly as stated, never summed with the stored one", () => {
  const prior: PaneOptions = { "@agent_cost_usd": "3.5" };
  const context = lane(plan({ costUsd: 0.0123456789 }, PUSH, prior), "context")!;
  assertEquals(context.writes, [{ name: "@agent_cost_usd", value: "0.0123456789" }]);
  assertEquals(lane(plan({ costUsd: 0 }), "context")!.writes, [
    { name: "@agent_cost_usd", value: "0" },
  ]);
});

Deno.test("planTelemetryWrites() P18, P25: a lane whose stored evidence is newer is left out; equal evidence passes", () => {
  const newer: PaneOptions = {
    "@agent_context_at": String(EV + 1),
    "@agent_quota_at": String(EV - 1),
  };
  const chains = plan(
    { contextPct: 5, quota: { pct: 1, window: "primary", resetsAtMs: null } },
    PULL,
    newer,
  );
  assertEquals(chains.map((c) => c.lane), ["quota"]);
  const equal: PaneOptions = { "@agent_context_at": String(EV), "@agent_context_pct": "4" };
  assertEquals(plan({ contextPct: 5 }, PULL, equal).map((c) => c.lane), ["context"]);
  // A newer count clock holds back a chain that writes the count.
  const newerCount: PaneOptions = { "@agent_tokens_at": String(EV + 1) };
  assertEquals(plan({ contextPct: 5, tokens: 9 }, PUSH, newerCount), []);
});

Deno.test("planTelemetryWrites() I29: a reading identical to the stored one plans nothing (an unmoved rollout file)", () => {
  const stored: PaneOptions = {
    "@agent_context_pct": "57",
    "@agent_model": "gpt-5-codex",
    "@agent_context_at": String(EV),
    "@agent_quota_pct": "30",
    "@agent_quota_window": "primary",
    "@agent_quota_at": String(EV),
  };
  const reading: TelemetryReading = {
    contextPct: 57,
    model: "gpt-5-codex",
    quota: { pct: 30, window: "primary", resetsAtMs: null },
  };
  assertEquals(plan(reading, PULL, stored), []);
  // The same values at a later evidence time still advance the clocks.
  assertEquals(
    planTelemetryWrites(stored, reading, { evidenceMs: EV + 1, channelCarriesTokens: false })
      .map((c) => c.lane),
    ["context", "quota"],
  );
});

Deno.test("planTelemetryWrites() R24: values that break their type are dropped, never stamped", () => {
  assertEquals(plan({ contextPct: 101 }), []);
  assertEquals(plan({ contextPct: 12.5 }), []);
  assertEquals(plan({ tokens: -1 }), []);
  assertEquals(plan({ costUsd: -2 }), []);
  assertEquals(plan({ costUsd: Number.NaN }), []);
  assertEquals(plan({ quota: { pct: 140, window: "five_hour", resetsAtMs: null } }), []);
});

Deno.test("applyWrites shows the options as they read after a commit", () => {
  assertEquals(
    applyWrites({ "@agent_context_pct": "40", "@agent_model": "m" }, [
      { name: "@agent_context_pct", value: null },
      { name: "@agent_context_at", value: "1785000000000" },
      { name: "@agent_summary", value: "x", scope: "window" },
    ]),
    { "@agent_model": "m", "@agent_context_at": "1785000000000" },
  );
});

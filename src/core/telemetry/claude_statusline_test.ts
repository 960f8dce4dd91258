import { assertEquals, assertStrictEquals, assertThrows } from "../../../tests/harness/assert.ts";
import { parseClaudeStatusline } from "./claude_statusline.ts";
import { MalformedPayloadError } from "./errors.ts";
import { acceptsSession } from "./session.ts";
import {
  HAVE_SHARED_PAYLOADS as HAVE_SHARED,
  OWN_PAYLOADS as OWN,
  SHARED_PAYLOADS as SHARED,
} from "../../../tests/harness/payload_dirs.ts";

/** 2026-07-25T17:20:00Z: after PAST, before both future resets in our fixtures. */
const NOW = 1_785_000_000_000;
const SESSION = "6b0d2c1e-4f7a-4c59-9a1e-3d2f8e7c1a90";
const SHARED_SESSION = "019f8aac-ff01-75d0-9bb1-7f0eab253ce7";

function own(name: string) {
  return parseClaudeStatusline(Deno.readTextFileSync(new URL(name, OWN)), { nowMs: NOW });
}

function shared(name: string) {
  return parseClaudeStatusline(Deno.readTextFileSync(new URL(name, SHARED)), { nowMs: NOW });
}

Deno.test({
  name:
    "parseClaudeStatusline() I18/I19/I20: a shared normal statusline reads percent, tokens, model and session",
  ignore: !HAVE_SHARED,
  fn() {
    assertEquals(shared("claude_statusline_context.json"), {
      sessionId: SHARED_SESSION,
      model: "claude-opus-4-8",
      contextPct: 78,
      tokens: 156000,
    });
  },
});

Deno.test({
  name:
    "parseClaudeStatusline() I8: a shared context_window: null clears the percent and the count",
  ignore: !HAVE_SHARED,
  fn() {
    const r = shared("claude_statusline_null_context.json");
    assertStrictEquals(r.contextPct, null);
    assertStrictEquals(r.tokens, null);
  },
});

Deno.test({
  name:
    "parseClaudeStatusline() I18/I19: a shared cumulative reading above 100 is ignored and the count cleared",
  ignore: !HAVE_SHARED,
  fn() {
    const r = shared("claude_statusline_cumulative.json");
    assertStrictEquals("contextPct" in r, false);
    assertStrictEquals(r.tokens, null);
  },
});

Deno.test({
  name:
    "parseClaudeStatusline() I19: a shared 2.1.131 payload keeps its percent but clears the count",
  ignore: !HAVE_SHARED,
  fn() {
    const r = shared("claude_statusline_pre_fix_version.json");
    assertStrictEquals(r.contextPct, 41);
    assertStrictEquals(r.tokens, null);
  },
});

Deno.test("parseClaudeStatusline() I21/I9/P26: a full statusline reads every field, quota and cost as stated", () => {
  assertEquals(own("claude_statusline_full.json"), {
    sessionId: SESSION,
    model: "claude-opus-4-8",
    contextPct: 43,
    tokens: 85200,
    quota: { pct: 81, window: "seven_day", resetsAtMs: 1_785_427_200_000 },
    costUsd: 1.4273,
  });
});

Deno.test("parseClaudeStatusline() I8: a payload without context_window changes neither percent nor count", () => {
  const r = own("claude_statusline_missing_context.json");
  assertStrictEquals("contextPct" in r, false);
  assertStrictEquals("tokens" in r, false);
  assertStrictEquals(r.costUsd, 0.02);
  assertStrictEquals("quota" in r, false);
});

Deno.test("parseClaudeStatusline() I8: a null used_percentage is Claude's null report, a clear", () => {
  const r = own("claude_statusline_null_used_percentage.json");
  assertStrictEquals(r.contextPct, null);
  assertStrictEquals(r.tokens, null);
});

Deno.test("parseClaudeStatusline() I18/I19: a cumulative pre-fix build is ignored and its count cleared", () => {
  const r = own("claude_statusline_cumulative_pre_fix.json");
  assertStrictEquals("contextPct" in r, false);
  assertStrictEquals(r.tokens, null);
});

Deno.test("parseClaudeStatusline() I8: a reading above 100 on a fixed build says nothing at all", () => {
  const r = own("claude_statusline_over_100_post_fix.json");
  assertStrictEquals("contextPct" in r, false);
  assertStrictEquals("tokens" in r, false);
});

Deno.test("parseClaudeStatusline() I19: a payload with no version cannot vouch for its count", () => {
  const r = own("claude_statusline_no_version.json");
  assertStrictEquals(r.contextPct, 33);
  assertStrictEquals(r.tokens, null);
});

Deno.test("parseClaudeStatusline() I19: 2.1.132 is the first build whose count is stamped", () => {
  const payload = (version: string) =>
    JSON.stringify({
      version,
      context_window: { used_percentage: 10, total_input_tokens: 20000 },
    });
  assertStrictEquals(parseClaudeStatusline(payload("2.1.132"), { nowMs: NOW }).tokens, 20000);
  assertStrictEquals(parseClaudeStatusline(payload("2.1.131"), { nowMs: NOW }).tokens, null);
  assertStrictEquals(parseClaudeStatusline(payload("2.2.0"), { nowMs: NOW }).tokens, 20000);
  assertStrictEquals(parseClaudeStatusline(payload("10.0.1-beta"), { nowMs: NOW }).tokens, 20000);
});

Deno.test("parseClaudeStatusline() P19: a fixed build whose percent comes without a count clears the count", () => {
  const r = parseClaudeStatusline(
    JSON.stringify({ version: "2.1.212", context_window: { used_percentage: 12 } }),
    { nowMs: NOW },
  );
  assertStrictEquals(r.contextPct, 12);
  assertStrictEquals(r.tokens, null);
});

Deno.test("parseClaudeStatusline() D44: a subagent's statusline reports its own session id, which the filter drops", () => {
  const r = own("claude_statusline_subagent.json");
  assertStrictEquals(r.sessionId, "a41f0e77-2c3b-4d8e-b6a5-97c0d1e2f3a4");
  assertStrictEquals(r.contextPct, 9);
  assertStrictEquals(acceptsSession(SESSION, r.sessionId), false);
  assertStrictEquals(acceptsSession(SESSION, own("claude_statusline_full.json").sessionId), true);
});

Deno.test("parseClaudeStatusline() I9/P24: a window without resets_at counts, and a tie goes to the first listed", () => {
  assertEquals(own("claude_statusline_rate_limits_no_resets.json").quota, {
    pct: 55,
    window: "five_hour",
    resetsAtMs: null,
  });
});

Deno.test("parseClaudeStatusline() I9: a window whose resets_at has passed is ignored", () => {
  assertEquals(own("claude_statusline_rate_limits_expired.json").quota, {
    pct: 40,
    window: "seven_day",
    resetsAtMs: 1_785_427_200_000,
  });
  // Before the five-hour window reset, it was the one closest to exhaustion.
  const earlier = parseClaudeStatusline(
    Deno.readTextFileSync(new URL("claude_statusline_rate_limits_expired.json", OWN)),
    { nowMs: 1_784_980_000_000 },
  );
  assertStrictEquals(earlier.quota?.window, "five_hour");
  assertStrictEquals(earlier.quota?.pct, 96);
});

Deno.test("parseClaudeStatusline() P23: spend_limit is a window like the others", () => {
  assertEquals(own("claude_statusline_spend_limit.json").quota, {
    pct: 99,
    window: "spend_limit",
    resetsAtMs: 1_785_427_200_000,
  });
});

Deno.test("parseClaudeStatusline() I9: a malformed rate_limits block or window is ignored, never a clear", () => {
  const r = parseClaudeStatusline(
    JSON.stringify({
      rate_limits: { five_hour: "full", seven_day: { used_percentage: "40" } },
      cost: { total_cost_usd: -1 },
    }),
    { nowMs: NOW },
  );
  assertEquals(r, {});
});

Deno.test("parseClaudeStatusline() I8: a malformed document throws MalformedPayloadError", () => {
  assertThrows(
    () =>
      parseClaudeStatusline(
        Deno.readTextFileSync(new URL("claude_statusline_malformed.json", OWN)),
        { nowMs: NOW },
      ),
    MalformedPayloadError,
  );
  assertThrows(
    () => parseClaudeStatusline("[]", { nowMs: NOW }),
    Error,
    "expected a JSON object, got an array",
  );
  assertThrows(() => parseClaudeStatusline("", { nowMs: NOW }), MalformedPayloadError);
});

Deno.test("parseClaudeStatusline() I8: a context_window of the wrong type is ignored rather than cleared", () => {
  const r = parseClaudeStatusline(JSON.stringify({ context_window: "78%" }), { nowMs: NOW });
  assertEquals(r, {});
});

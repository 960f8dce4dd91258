import { assertEquals, assertStrictEquals } from "../../../tests/harness/assert.ts";
import {
  mergeRolloutScans,
  parseCodexRollout,
  rolloutReading,
  scanRolloutTail,
} from "./codex_rollout.ts";
import {
  HAVE_SHARED_PAYLOADS as HAVE_SHARED,
  OWN_PAYLOADS as OWN,
  SHARED_PAYLOADS as SHARED,
} from "../../../tests/harness/payload_dirs.ts";

const NOW = 1_785_000_000_000;
const FUT1_MS = 1_785_007_200_000;
const FUT2_MS = 1_785_427_200_000;

function read(dir: URL, name: string): string {
  return Deno.readTextFileSync(new URL(name, dir));
}

function own(name: string) {
  return parseCodexRollout(read(OWN, name), { nowMs: NOW });
}

Deno.test({
  name:
    "parseCodexRollout() I29/I31: the shared rollout's newest token_count gives the gauge, turn_context the model",
  ignore: !HAVE_SHARED,
  fn() {
    // (151234 + 4820) / 272000 = 57.4%
    assertEquals(
      parseCodexRollout(read(SHARED, "codex_rollout_token_count.jsonl"), { nowMs: NOW }),
      {
        contextPct: 57,
        model: "gpt-5-codex",
      },
    );
  },
});

Deno.test({
  name: "parseCodexRollout() I29: the shared rollout with no token_count stamps no gauge",
  ignore: !HAVE_SHARED,
  fn() {
    assertEquals(
      parseCodexRollout(read(SHARED, "codex_rollout_no_token_count.jsonl"), { nowMs: NOW }),
      { model: "gpt-5-codex" },
    );
  },
});

Deno.test("parseCodexRollout() I29/I9/I31: newest token_count, its rate limits and the newest model", () => {
  // (130000 + 6000) / 272000 = 50%; the model switched mid-session.
  assertEquals(own("codex_rollout_rate_limits.jsonl"), {
    contextPct: 50,
    model: "gpt-5.1-codex",
    quota: { pct: 64, window: "secondary", resetsAtMs: FUT2_MS },
  });
});

Deno.test("parseCodexRollout() I30: no Codex reading ever carries a token count", () => {
  for (const entry of Deno.readDirSync(OWN)) {
    if (!entry.name.startsWith("codex_rollout_")) continue;
    assertStrictEquals("tokens" in own(entry.name), false, entry.name);
  }
});

Deno.test("parseCodexRollout() I29: a truncated last line is dropped and the complete record before it wins", () => {
  // (88010 + 2140) / 272000 = 33.1%; the cut newer record would have said 77%.
  assertStrictEquals(own("codex_rollout_truncated_last_line.jsonl").contextPct, 33);
});

Deno.test("parseCodexRollout() I29: a truncated first line (the tail read cut into it) is dropped", () => {
  assertEquals(own("codex_rollout_truncated_first_line.jsonl"), { model: "gpt-5-codex" });
});

Deno.test("parseCodexRollout() I29: garbage lines are tolerated", () => {
  assertEquals(own("codex_rollout_garbage_lines.jsonl"), {
    contextPct: 20,
    model: "gpt-5-codex",
    quota: { pct: 64, window: "secondary", resetsAtMs: FUT2_MS },
  });
});

Deno.test("parseCodexRollout() I29: a rollout with no token_count stamps no gauge and no quota", () => {
  assertEquals(own("codex_rollout_no_token_count.jsonl"), { model: "gpt-5-codex" });
});

Deno.test("parseCodexRollout() I29: a malformed tail is a miss, not an error", () => {
  assertEquals(own("codex_rollout_malformed.jsonl"), {});
  assertEquals(parseCodexRollout("", { nowMs: NOW }), {});
});

Deno.test("parseCodexRollout() I9/P24: a Codex window without resets_at counts with no reset time", () => {
  assertEquals(own("codex_rollout_rate_limits_no_resets.jsonl").quota, {
    pct: 22,
    window: "primary",
    resetsAtMs: null,
  });
});

Deno.test("parseCodexRollout() I9: a Codex window whose resets_at has passed is ignored", () => {
  assertEquals(own("codex_rollout_rate_limits_expired.jsonl").quota, {
    pct: 51,
    window: "secondary",
    resetsAtMs: FUT2_MS,
  });
});

Deno.test("parseCodexRollout() I29: gauge and quota each come from the newest record that carries them", () => {
  assertEquals(own("codex_rollout_info_null.jsonl"), {
    contextPct: 33,
    model: "gpt-5-codex",
    quota: { pct: 5, window: "primary", resetsAtMs: FUT1_MS },
  });
});

Deno.test("parseCodexRollout() R24: no model_context_window, no gauge (no window guessing)", () => {
  assertEquals(own("codex_rollout_no_window.jsonl"), { model: "gpt-5-codex" });
});

Deno.test("parseCodexRollout() I8: a Codex percent above 100 is ignored", () => {
  assertEquals(own("codex_rollout_over_100.jsonl"), { model: "gpt-5-codex" });
});

Deno.test("parseCodexRollout() I29: CRLF line ends read like LF", () => {
  const text = read(OWN, "codex_rollout_rate_limits.jsonl").replaceAll("\n", "\r\n");
  assertStrictEquals(parseCodexRollout(text, { nowMs: NOW }).contextPct, 50);
});

Deno.test("scanRolloutTail() keeps a newer unusable gauge over an older usable one", () => {
  const older = JSON.stringify({
    type: "event_msg",
    payload: {
      type: "token_count",
      info: {
        total_token_usage: { input_tokens: 1000, output_tokens: 0 },
        model_context_window: 10000,
      },
    },
  });
  const newer = JSON.stringify({
    type: "event_msg",
    payload: {
      type: "token_count",
      info: {
        total_token_usage: { input_tokens: 1000, output_tokens: 0 },
        model_context_window: null,
      },
    },
  });
  assertEquals(scanRolloutTail(`${older}\n${newer}\n`), { gauge: { contextPct: undefined } });
  assertEquals(scanRolloutTail(`${newer}\n${older}\n`), { gauge: { contextPct: 10 } });
});

Deno.test("mergeRolloutScans() lets the newer stretch win field by field", () => {
  assertEquals(
    mergeRolloutScans(
      { model: "new" },
      { model: "old", gauge: { contextPct: 40 }, quota: [] },
    ),
    { model: "new", gauge: { contextPct: 40 }, quota: [] },
  );
  assertEquals(mergeRolloutScans({}, {}), {});
});

Deno.test("rolloutReading() re-judges a kept scan against a later clock", () => {
  const scan = scanRolloutTail(read(OWN, "codex_rollout_rate_limits.jsonl"));
  assertStrictEquals(rolloutReading(scan, { nowMs: NOW }).quota?.window, "secondary");
  // After the secondary window's reset both windows are gone: the quota says nothing.
  assertStrictEquals("quota" in rolloutReading(scan, { nowMs: FUT2_MS }), false);
});

import {
  assert,
  assertEquals,
  assertStrictEquals,
  assertThrows,
} from "../../../tests/harness/assert.ts";
import { TmaError } from "../errors.ts";
import { MalformedPayloadError, UnknownFormatError } from "./errors.ts";
import { TELEMETRY_FORMATS, telemetryReadingSchema } from "./reading.ts";
import { isTelemetryFormat, parseTelemetry } from "./registry.ts";

const REPO = new URL("../../../", import.meta.url);
const OWN = new URL("fixtures/payloads/", REPO);
const NOW = 1_785_000_000_000;

const PREFIX_FORMAT: Record<string, string> = {
  claude_: "claude-statusline-json",
  codex_: "codex-rollout-jsonl",
  cursor_: "cursor-statusline-json",
  pi_: "pi-context-json",
};

Deno.test("parseTelemetry() M23: every compiled-in format is known", () => {
  assertEquals([...TELEMETRY_FORMATS], [
    "claude-statusline-json",
    "codex-rollout-jsonl",
    "cursor-statusline-json",
    "pi-context-json",
  ]);
  for (const format of TELEMETRY_FORMATS) assertStrictEquals(isTelemetryFormat(format), true);
  assertStrictEquals(isTelemetryFormat("gemini-json"), false);
  assertStrictEquals(isTelemetryFormat(42), false);
});

Deno.test("parseTelemetry() M23: an unknown format is refused at read time with a clear error", () => {
  const e = assertThrows(
    () => parseTelemetry("claude-json", "{}", { nowMs: NOW }),
    UnknownFormatError,
    '"claude-json"',
  );
  assert(e instanceof TmaError);
  assertStrictEquals(e.format, "claude-json");
  assert(e.message.includes("[telemetry.context] format"));
  assert(e.message.includes("codex-rollout-jsonl"));
});

Deno.test("parseTelemetry() I8: a malformed payload through the registry throws MalformedPayloadError", () => {
  const e = assertThrows(
    () => parseTelemetry("pi-context-json", "not json", { nowMs: NOW }),
    MalformedPayloadError,
  );
  assertStrictEquals(e.format, "pi-context-json");
});

Deno.test("the registry dispatches each format to its parser", () => {
  const text = JSON.stringify({
    version: "2.1.212",
    context_window: { used_percentage: 10, total_input_tokens: 20000, context_window_size: 200000 },
    context_usage: { tokens: 5, contextWindow: 100, percent: 5 },
  });
  assertStrictEquals(parseTelemetry("claude-statusline-json", text, { nowMs: NOW }).contextPct, 10);
  assertStrictEquals(parseTelemetry("cursor-statusline-json", text, { nowMs: NOW }).tokens, 20000);
  assertStrictEquals(parseTelemetry("pi-context-json", text, { nowMs: NOW }).contextPct, 5);
  assertEquals(parseTelemetry("codex-rollout-jsonl", text, { nowMs: NOW }), {});
});

Deno.test("every reading from our fixtures conforms to telemetryReadingSchema", () => {
  let count = 0;
  for (const entry of Deno.readDirSync(OWN)) {
    const prefix = Object.keys(PREFIX_FORMAT).find((p) => entry.name.startsWith(p));
    if (prefix === undefined || entry.name.includes("malformed.json")) continue;
    const text = Deno.readTextFileSync(new URL(entry.name, OWN));
    const reading = parseTelemetry(PREFIX_FORMAT[prefix], text, { nowMs: NOW });
    const checked = telemetryReadingSchema.safeParse(reading);
    assert(checked.success, `${entry.name}: ${checked.error?.message}`);
    count++;
  }
  assert(count > 20);
});

import { deepStrictEqual, ok, strictEqual, throws } from "node:assert/strict";
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

Deno.test("M23: every compiled-in format is known", () => {
  deepStrictEqual([...TELEMETRY_FORMATS], [
    "claude-statusline-json",
    "codex-rollout-jsonl",
    "cursor-statusline-json",
    "pi-context-json",
  ]);
  for (const format of TELEMETRY_FORMATS) strictEqual(isTelemetryFormat(format), true);
  strictEqual(isTelemetryFormat("gemini-json"), false);
  strictEqual(isTelemetryFormat(42), false);
});

Deno.test("M23: an unknown format is refused at read time with a clear error", () => {
  throws(
    () => parseTelemetry("claude-json", "{}", { nowMs: NOW }),
    (e: unknown) => {
      ok(e instanceof UnknownFormatError);
      ok(e instanceof TmaError);
      strictEqual(e.format, "claude-json");
      ok(e.message.includes('"claude-json"'));
      ok(e.message.includes("[telemetry.context] format"));
      ok(e.message.includes("codex-rollout-jsonl"));
      return true;
    },
  );
});

Deno.test("I8: a malformed payload through the registry throws MalformedPayloadError", () => {
  throws(
    () => parseTelemetry("pi-context-json", "not json", { nowMs: NOW }),
    (e: unknown) => e instanceof MalformedPayloadError && e.format === "pi-context-json",
  );
});

Deno.test("the registry dispatches each format to its parser", () => {
  const text = JSON.stringify({
    version: "2.1.212",
    context_window: { used_percentage: 10, total_input_tokens: 20000, context_window_size: 200000 },
    context_usage: { tokens: 5, contextWindow: 100, percent: 5 },
  });
  strictEqual(parseTelemetry("claude-statusline-json", text, { nowMs: NOW }).contextPct, 10);
  strictEqual(parseTelemetry("cursor-statusline-json", text, { nowMs: NOW }).tokens, 20000);
  strictEqual(parseTelemetry("pi-context-json", text, { nowMs: NOW }).contextPct, 5);
  deepStrictEqual(parseTelemetry("codex-rollout-jsonl", text, { nowMs: NOW }), {});
});

Deno.test("every reading from our fixtures conforms to telemetryReadingSchema", () => {
  let count = 0;
  for (const entry of Deno.readDirSync(OWN)) {
    const prefix = Object.keys(PREFIX_FORMAT).find((p) => entry.name.startsWith(p));
    if (prefix === undefined || entry.name.includes("malformed.json")) continue;
    const text = Deno.readTextFileSync(new URL(entry.name, OWN));
    const reading = parseTelemetry(PREFIX_FORMAT[prefix], text, { nowMs: NOW });
    const checked = telemetryReadingSchema.safeParse(reading);
    ok(checked.success, `${entry.name}: ${checked.error?.message}`);
    count++;
  }
  ok(count > 20);
});

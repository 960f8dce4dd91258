import { assertEquals, assertThrows } from "../../../tests/harness/assert.ts";
import { parseCursorStatusline } from "./cursor_statusline.ts";
import { MalformedPayloadError } from "./errors.ts";
import {
  HAVE_SHARED_PAYLOADS as HAVE_SHARED,
  OWN_PAYLOADS as OWN,
  SHARED_PAYLOADS as SHARED,
} from "../../../tests/harness/payload_dirs.ts";

const NOW = 1_785_000_000_000;
const SESSION = "3f1c8d2e-9a44-4b17-9c0e-2b6a1d7e4f88";

function parse(dir: URL, name: string) {
  return parseCursorStatusline(Deno.readTextFileSync(new URL(name, dir)), { nowMs: NOW });
}

Deno.test({
  name:
    "parseCursorStatusline() I56/I57: the shared Cursor payload reads 130000 / 200000 as 65% and 130000 tokens",
  ignore: !HAVE_SHARED,
  fn() {
    assertEquals(parse(SHARED, "cursor_statusline_context.json"), {
      sessionId: SESSION,
      contextPct: 65,
      tokens: 130000,
    });
  },
});

Deno.test({
  name:
    "parseCursorStatusline() I56: the shared Cursor payload without context_window says nothing",
  ignore: !HAVE_SHARED,
  fn() {
    assertEquals(parse(SHARED, "cursor_statusline_no_context.json"), { sessionId: SESSION });
  },
});

Deno.test("parseCursorStatusline() I56/I57: a normal Cursor payload, and no model, cost or quota from it", () => {
  assertEquals(parse(OWN, "cursor_statusline_normal.json"), {
    sessionId: SESSION,
    contextPct: 24,
    tokens: 48000,
  });
});

Deno.test("parseCursorStatusline() I56: a missing context_window_size is ignored, never a clear", () => {
  assertEquals(parse(OWN, "cursor_statusline_missing_size.json"), { sessionId: SESSION });
});

Deno.test("parseCursorStatusline() I56: a null context_window is ignored, never a clear", () => {
  assertEquals(parse(OWN, "cursor_statusline_null_context.json"), { sessionId: SESSION });
});

Deno.test("parseCursorStatusline() R24: a payload change (numbers as strings) degrades to an absent gauge", () => {
  assertEquals(parse(OWN, "cursor_statusline_string_fields.json"), { sessionId: SESSION });
});

Deno.test("parseCursorStatusline() I8: a Cursor ratio above 100 is ignored", () => {
  assertEquals(parse(OWN, "cursor_statusline_over_100.json"), { sessionId: SESSION });
});

Deno.test("parseCursorStatusline() I56: a zero window is ignored rather than divided by", () => {
  const r = parseCursorStatusline(
    JSON.stringify({ context_window: { total_input_tokens: 0, context_window_size: 0 } }),
    { nowMs: NOW },
  );
  assertEquals(r, {});
});

Deno.test("parseCursorStatusline() I8: a malformed Cursor document throws MalformedPayloadError", () => {
  assertThrows(() => parse(OWN, "cursor_statusline_malformed.json"), MalformedPayloadError);
  assertThrows(
    () => parseCursorStatusline("{", { nowMs: NOW }),
    Error,
    "malformed cursor-statusline-json payload",
  );
});

import { assertEquals, assertThrows } from "../../../tests/harness/assert.ts";
import { MalformedPayloadError } from "./errors.ts";
import { parsePiContext } from "./pi_context.ts";
import {
  HAVE_SHARED_PAYLOADS as HAVE_SHARED,
  OWN_PAYLOADS as OWN,
  SHARED_PAYLOADS as SHARED,
} from "../../../tests/harness/payload_dirs.ts";

const NOW = 1_785_000_000_000;
const SHARED_SESSION = "ses_0789d5f61ffeW6yCmb3x7wLH1X";
const SESSION = "ses_1a2b3c4d5e6fW7xYz8AbCd9EfG";

function parse(dir: URL, name: string) {
  return parsePiContext(Deno.readTextFileSync(new URL(name, dir)), { nowMs: NOW });
}

Deno.test({
  name:
    "parsePiContext() I64/I65: the shared pi payload reads the precomputed percent and the tokens",
  ignore: !HAVE_SHARED,
  fn() {
    assertEquals(parse(SHARED, "pi_context.json"), {
      sessionId: SHARED_SESSION,
      contextPct: 62,
      tokens: 124000,
    });
  },
});

Deno.test({
  name:
    "parsePiContext() I64: the shared null context_usage and unknown-window payloads stamp nothing",
  ignore: !HAVE_SHARED,
  fn() {
    assertEquals(parse(SHARED, "pi_context_missing.json"), { sessionId: SHARED_SESSION });
    assertEquals(parse(SHARED, "pi_context_unknown_window.json"), {
      sessionId: SHARED_SESSION,
    });
  },
});

Deno.test("parsePiContext() I64/I65: a normal pi payload rounds the percent", () => {
  assertEquals(parse(OWN, "pi_context_normal.json"), {
    sessionId: SESSION,
    contextPct: 31,
    tokens: 61000,
  });
});

Deno.test("parsePiContext() I64: after a /compact (null percent and window) pi stamps nothing", () => {
  assertEquals(parse(OWN, "pi_context_after_compact.json"), { sessionId: SESSION });
});

Deno.test("parsePiContext() I64: an omitted context_usage stamps nothing", () => {
  assertEquals(parse(OWN, "pi_context_omitted.json"), { sessionId: SESSION });
});

Deno.test("parsePiContext() P19: a pi reading without a count clears the stored count", () => {
  assertEquals(parse(OWN, "pi_context_null_tokens.json"), {
    sessionId: SESSION,
    contextPct: 30,
    tokens: null,
  });
});

Deno.test("parsePiContext() I8: a pi percent above 100 is ignored", () => {
  assertEquals(parse(OWN, "pi_context_over_100.json"), { sessionId: SESSION });
});

Deno.test("parsePiContext() I8: a malformed pi document throws MalformedPayloadError", () => {
  assertThrows(() => parse(OWN, "pi_context_malformed.json"), MalformedPayloadError);
  assertThrows(
    () => parsePiContext("42", { nowMs: NOW }),
    Error,
    "expected a JSON object, got number",
  );
});

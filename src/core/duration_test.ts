import { assertEquals, assertThrows } from "../../tests/harness/assert.ts";
import { parseCount, parseDuration, parseSeconds } from "./duration.ts";
import { UsageError } from "./errors.ts";

Deno.test("parseDuration() C57: s, m, h and d units, a bare number is seconds", () => {
  assertEquals(parseDuration("90s", "--for"), 90_000);
  assertEquals(parseDuration("15m", "--for"), 900_000);
  assertEquals(parseDuration("2h", "--for"), 7_200_000);
  assertEquals(parseDuration("1d", "--for"), 86_400_000);
  assertEquals(parseDuration("45", "--for"), 45_000);
});

Deno.test("parseDuration() C57: 0 and bad syntax are usage errors naming the flag", () => {
  for (const bad of ["0", "0m", "5x", "", "1.5h", "-3", "m", "1 h"]) {
    const error = assertThrows(() => parseDuration(bad, "--for"), UsageError);
    assertEquals(error.message.startsWith("--for: "), true, bad);
    assertEquals(error.exitCode, 2);
  }
});

Deno.test("parseSeconds() C37 C61: decimals, a floor, and the flag in every refusal", () => {
  assertEquals(parseSeconds("2.5", { flag: "--timeout", min: 0 }), 2500);
  assertEquals(parseSeconds("0", { flag: "--timeout", min: 0 }), 0);
  assertThrows(() => parseSeconds("0.5", { flag: "--interval", min: 1 }), UsageError, "--interval");
  assertThrows(() => parseSeconds("soon", { flag: "--timeout", min: 0 }), UsageError, "--timeout");
});

Deno.test("parseCount() C34: a positive whole number", () => {
  assertEquals(parseCount("3", "--count"), 3);
  for (const bad of ["0", "-1", "1.5", "x"]) {
    assertThrows(() => parseCount(bad, "--count"), UsageError);
  }
});

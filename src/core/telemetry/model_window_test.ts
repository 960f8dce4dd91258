import { assertEquals } from "../../../tests/harness/assert.ts";
import { SEEDED_WINDOWS } from "../config/schema.ts";
import { recognisedModel } from "./model_window.ts";

Deno.test("recognisedModel() I10, G22: a model named by [telemetry.windows] is recognised, exactly or with a suffix", () => {
  const windows = { ...SEEDED_WINDOWS, "claude-sonnet-4-5": 200000 };
  assertEquals(recognisedModel("gemini-2.5-pro", windows), "gemini-2.5-pro");
  assertEquals(recognisedModel("claude-sonnet-4-5-20250929", windows), "claude-sonnet-4-5");
  assertEquals(recognisedModel("claude-sonnet-4-5[1m]", windows), "claude-sonnet-4-5");
  assertEquals(recognisedModel("gemini-2.5-flash-lite", windows), "gemini-2.5-flash-lite");
  assertEquals(recognisedModel("mock-model", windows), null);
  assertEquals(recognisedModel(null, windows), null);
  // A longer name is not mistaken for a shorter one it merely starts with.
  assertEquals(recognisedModel("gemini-2.5-proto", windows), null);
});

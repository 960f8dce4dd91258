import { assertEquals } from "../../../tests/harness/assert.ts";
import { statusText } from "./status_text.ts";

Deno.test("statusText() I7: the shim's own line is the model, the context gauge and a quota past half", () => {
  assertEquals(
    statusText({ model: "claude-opus-4-8", contextPct: 43 }),
    "claude-opus-4-8 · context 43%",
  );
  assertEquals(
    statusText({
      model: "m",
      contextPct: 0,
      quota: { pct: 81, window: "seven_day", resetsAtMs: null },
    }),
    "m · context 0% · seven day quota 81%",
  );
  assertEquals(
    statusText({ contextPct: null, quota: { pct: 10, window: "five_hour", resetsAtMs: null } }),
    "",
  );
});

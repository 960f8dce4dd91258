import { assertEquals } from "../../tests/harness/assert.ts";
import { describeReport, isComplete, type WiringReport } from "./wiring.ts";

const report = (extra: Partial<WiringReport>): WiringReport => ({
  current: ["SessionStart", "Stop"],
  stale: [],
  missing: [],
  problems: [],
  anyTma: true,
  extra: [],
  ...extra,
});

Deno.test("describeReport() C77: --check names the wired events, and events tma no longer wires", () => {
  assertEquals(describeReport(report({}), 2), "2/2 events current (SessionStart, Stop)");
  const extra = report({ extra: ["SubagentStart"] });
  assertEquals(
    describeReport(extra, 2),
    "2/2 events current (SessionStart, Stop); no longer wired: SubagentStart " +
      "(rerun install-hooks to remove them)",
  );
  assertEquals([isComplete(report({})), isComplete(extra)], [true, false]);
});

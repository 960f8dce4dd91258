import { assertEquals } from "../../tests/harness/assert.ts";
import { buildRow, ROW_OPTIONS } from "./rows.ts";
import { PANE_OPTIONS, type PaneFacts, type PaneOptions } from "./snapshot.ts";

Deno.test("buildRow() reads only ROW_OPTIONS, so a first frame's lean listing draws the same rows", () => {
  const options = Object.fromEntries(
    PANE_OPTIONS.map((
      name,
      i,
    ) => [name, name === "@agent_state" ? "idle" : String(1_800_000_000_000 + i)]),
  ) as PaneOptions;
  options["@agent_name"] = "claude";
  options["@agent_attention"] = "1";
  options["@agent_quota_window"] = "five_hour";
  const lean = Object.fromEntries(ROW_OPTIONS.map((name) => [name, options[name]])) as PaneOptions;
  const pane = { paneId: "%1", locator: "s:1.0", title: "t", socketPath: "/tmp/s" } as PaneFacts;
  const context = {
    git: { repo: null, branch: null, worktree: null },
    server: "/s",
    host: "h",
    nowMs: 0,
  };
  assertEquals(buildRow(pane, lean, context), buildRow(pane, options, context));
});

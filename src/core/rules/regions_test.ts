import { assertEquals } from "../../../tests/harness/assert.ts";
import { regionSchema } from "../manifest/agent_schema.ts";
import { dropTrailingBlank, prepareScreen, regionLines } from "./regions.ts";

const region = (spec: string) => regionSchema.parse(spec);

Deno.test("regionLines() D27: tail_lines(N) reads the last N lines", () => {
  const screen = prepareScreen({ capture: "a\nb\nc\nd\n", title: "" });
  assertEquals(regionLines(screen, region("tail_lines(2)")), ["c", "d"]);
  assertEquals(regionLines(screen, region("tail_lines(10)")), ["a", "b", "c", "d"]);
});

Deno.test("regionLines() D27: visible is the last pane_height lines, keeping scrollback out", () => {
  // Three scrollback rows above a two-row viewport.
  const screen = prepareScreen({ capture: "old1\nold2\nold3\nnew1\nnew2\n", title: "", height: 2 });
  assertEquals(regionLines(screen, region("visible")), ["new1", "new2"]);
});

Deno.test("regionLines() D27: visible is the whole capture when the height is unknown", () => {
  const capture = "one\ntwo\nthree\n";
  assertEquals(regionLines(prepareScreen({ capture, title: "" }), region("visible")), [
    "one",
    "two",
    "three",
  ]);
  assertEquals(
    regionLines(prepareScreen({ capture, title: "", height: null }), region("visible")),
    ["one", "two", "three"],
  );
});

Deno.test("regionLines() D27: title is the pane title, escapes stripped", () => {
  const screen = prepareScreen({ capture: "x\n", title: "\x1b[1m⠂ Claude Code\x1b[0m" });
  assertEquals(regionLines(screen, region("title")), ["⠂ Claude Code"]);
});

Deno.test("regionLines() D27: trailing blank rows are dropped before tail_lines counts", () => {
  // A main-screen agent on a fresh session: the composer and its mode line,
  // then a column of empty (or escape-only) rows down to the bottom.
  const rows = ["banner", "─────", "❯ ", "─────", "  ⏵⏵ accept edits on"];
  const capture = [...rows, ...Array(30).fill(""), "\x1b[0m", "   "].join("\n") + "\n";
  const screen = prepareScreen({ capture, title: "", height: 37 });
  assertEquals(regionLines(screen, region("tail_lines(2)")), ["─────", "  ⏵⏵ accept edits on"]);
  assertEquals(regionLines(screen, region("visible")), rows);
});

Deno.test("regionLines() D27: dropping blanks never pulls scrollback into visible", () => {
  // The viewport (last 3 rows) is blank: visible is empty, not the rows above.
  const screen = prepareScreen({ capture: "scrolled\naway\n\n\n\n", title: "", height: 3 });
  assertEquals(regionLines(screen, region("visible")), []);
});

Deno.test("regionLines() D27: blank rows inside the region are kept", () => {
  const screen = prepareScreen({ capture: "a\n\nb\n\n", title: "" });
  assertEquals(regionLines(screen, region("tail_lines(3)")), ["a", "", "b"]);
});

Deno.test("prepareScreen() strips escapes and splits rows without a phantom last row", () => {
  assertEquals(prepareScreen({ capture: "\x1b[31ma\x1b[0m\r\nb", title: "t" }).rows, ["a", "b"]);
  assertEquals(prepareScreen({ capture: "", title: "" }).rows, []);
});

Deno.test("dropTrailingBlank() keeps a region with no trailing blanks as is", () => {
  const rows = ["a", "b"];
  assertEquals(dropTrailingBlank(rows), rows);
  assertEquals(dropTrailingBlank(["", " "]), []);
});

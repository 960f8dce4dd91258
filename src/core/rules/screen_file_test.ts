import { assertEquals, assertStrictEquals, assertThrows } from "../../../tests/harness/assert.ts";
import { parseScreenFile, ScreenFileError } from "./screen_file.ts";

Deno.test("parseScreenFile() reads the headers and keeps the capture byte for byte", () => {
  const text = [
    "# agent: gemini",
    "# state: idle",
    "# title: ◇  Ready (proj)   ",
    "# command: node",
    "# pid: 0",
    "# captured_at: 1785096540000",
    "# height: 40",
    "# rule: 2 idle@5",
    "# rule: 1",
    "---",
    "\x1b[1m > \x1b[0m hi",
    "",
  ].join("\n");
  const f = parseScreenFile(text, "g.txt");
  assertStrictEquals(f.agent, "gemini");
  assertStrictEquals(f.state, "idle");
  assertStrictEquals(f.title, "◇  Ready (proj)   ");
  assertStrictEquals(f.height, 40);
  assertEquals(f.headers.rule, ["2 idle@5", "1"]);
  assertStrictEquals(f.capture, "\x1b[1m > \x1b[0m hi\n");
});

Deno.test("parseScreenFile() accepts an empty title and no height", () => {
  const f = parseScreenFile("# agent: pi\n# state: unknown\n# title:\n---\n");
  assertStrictEquals(f.title, "");
  assertStrictEquals(f.height, null);
  assertStrictEquals(f.capture, "");
});

Deno.test("parseScreenFile() names the file when the format is broken", () => {
  assertThrows(() => parseScreenFile("# agent: pi\n# state: idle\n", "x.txt"), ScreenFileError);
  assertThrows(
    () => parseScreenFile("# state: idle\n---\n", "x.txt"),
    Error,
    'x.txt: missing "# agent:"',
  );
  assertThrows(() => parseScreenFile("agent pi\n---\n", "x.txt"), Error, "bad header line");
  assertThrows(
    () => parseScreenFile("# agent: a\n# state: b\n# height: -1\n---\n", "x.txt"),
    Error,
    "height",
  );
});

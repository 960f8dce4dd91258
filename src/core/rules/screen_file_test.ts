import { deepStrictEqual, strictEqual, throws } from "node:assert/strict";
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
  strictEqual(f.agent, "gemini");
  strictEqual(f.state, "idle");
  strictEqual(f.title, "◇  Ready (proj)   ");
  strictEqual(f.height, 40);
  deepStrictEqual(f.headers.rule, ["2 idle@5", "1"]);
  strictEqual(f.capture, "\x1b[1m > \x1b[0m hi\n");
});

Deno.test("parseScreenFile() accepts an empty title and no height", () => {
  const f = parseScreenFile("# agent: pi\n# state: unknown\n# title:\n---\n");
  strictEqual(f.title, "");
  strictEqual(f.height, null);
  strictEqual(f.capture, "");
});

Deno.test("parseScreenFile() names the file when the format is broken", () => {
  throws(() => parseScreenFile("# agent: pi\n# state: idle\n", "x.txt"), ScreenFileError);
  throws(() => parseScreenFile("# state: idle\n---\n", "x.txt"), /x\.txt: missing "# agent:"/);
  throws(() => parseScreenFile("agent pi\n---\n", "x.txt"), /bad header line/);
  throws(() => parseScreenFile("# agent: a\n# state: b\n# height: -1\n---\n", "x.txt"), /height/);
});

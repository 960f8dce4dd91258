import { assertEquals, assertNotEquals } from "../../../tests/harness/assert.ts";
import { fingerprint, guardRows, PROMPT_ROWS, promptRows } from "./fingerprint.ts";

Deno.test("promptRows: the viewport's last rows, escapes and trailing blanks dropped", () => {
  const history = "old line\n".repeat(5);
  const viewport = ["\x1b[1mhead\x1b[0m", "Do you want to proceed?   ", " ❯ 1. Yes", "", ""].join(
    "\n",
  );
  assertEquals(promptRows(history + viewport, 5), ["head", "Do you want to proceed?", " ❯ 1. Yes"]);
  const tall = Array.from({ length: 40 }, (_, i) => `row ${i}`).join("\n");
  assertEquals(promptRows(tall, 40).length, PROMPT_ROWS);
  assertEquals(promptRows(tall, 40).at(-1), "row 39");
});

Deno.test("fingerprint: colour does not change it; a different dialog does", async () => {
  const a = await fingerprint(promptRows("Run \x1b[31mrm -rf build\x1b[0m?\n 1. Yes", 2));
  const b = await fingerprint(promptRows("Run rm -rf build?\n 1. Yes", 2));
  const c = await fingerprint(promptRows("Run rm -rf dist?\n 1. Yes", 2));
  assertEquals(a, b);
  assertNotEquals(a, c);
  assertEquals(a.length, 16);
});

Deno.test("guardRows() X1: trims ASCII blanks at a row's end as tmux does, and nothing else", () => {
  const rows = guardRows("a \t\r\v\f\nb\u00a0\n" + " ".repeat(5000) + "x" + " ".repeat(5000), 3);
  assertEquals(rows.map((r) => r.text), ["a", "b\u00a0", " ".repeat(5000) + "x"]);
});

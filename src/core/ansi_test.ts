import { assertStrictEquals } from "../../tests/harness/assert.ts";
import { stripAnsi } from "./ansi.ts";

Deno.test("stripAnsi() D26: removes SGR colours", () => {
  assertStrictEquals(
    stripAnsi("\x1b[38;5;174m· Working…\x1b[39m \x1b[1mbold\x1b[0m"),
    "· Working… bold",
  );
});

Deno.test("stripAnsi() D26: keeps the text of an OSC 8 hyperlink ended by ESC \\", () => {
  const link = "\x1b]8;id=1jjd74o;file:///tmp/notes.txt\x1b\\notes.txt\x1b]8;;\x1b\\";
  assertStrictEquals(stripAnsi(`Write(${link})`), "Write(notes.txt)");
});

Deno.test("stripAnsi() D26: removes an OSC ended by BEL (a title set)", () => {
  assertStrictEquals(stripAnsi("\x1b]0;✳ Claude Code\x07❯ "), "❯ ");
});

Deno.test("stripAnsi() D26: removes charset, keypad and other two-byte escapes", () => {
  assertStrictEquals(stripAnsi("\x1b(Bq\x1b)0x\x1b=y\x1b>\x1b7z\x1b8\x1bM"), "qxyz");
});

Deno.test("stripAnsi() D26: removes DCS strings and private CSI sequences", () => {
  assertStrictEquals(stripAnsi("a\x1bPq#0;2;0;0;0\x1b\\b\x1b[?25l\x1b[?2004hc"), "abc");
});

Deno.test("stripAnsi() D26: drops stray controls but keeps tabs and newlines", () => {
  assertStrictEquals(stripAnsi("a\rb\x07c\td\ne\x1b"), "abc\td\ne");
});

Deno.test("stripAnsi() D26: returns plain text unchanged", () => {
  const plain = "› Explain this codebase\n  gpt-5.5 · 100% context left";
  assertStrictEquals(stripAnsi(plain), plain);
});

import { assertEquals } from "../../tests/harness/assert.ts";
import { decodeInput } from "./keys.ts";

const names = (chunk: string, rest = "") =>
  decodeInput(chunk, rest).events.map((e) =>
    e.type === "key" ? (e.key.char ?? e.key.name) : `${e.event.kind}@${e.event.x},${e.event.y}`
  );

Deno.test("decodeInput() reads keys, UTF-8 text and control keys", () => {
  assertEquals(names("\x1b[A\x1b[B\x1bOA\r\t\x7f\x03\x13"), [
    "up",
    "down",
    "up",
    "enter",
    "tab",
    "backspace",
    "ctrl-c",
    "ctrl-s",
  ]);
  assertEquals(names("a日🤖1"), ["a", "日", "🤖", "1"]);
  assertEquals(names("\x1b"), ["esc"], "a lone ESC is the escape key");
  assertEquals(names("\x1b[5~\x1b[6~"), ["pageup", "pagedown"]);
});

Deno.test("decodeInput() reads SGR mouse: press, release, motion, wheel", () => {
  assertEquals(names("\x1b[<0;5;3M\x1b[<0;5;3m\x1b[<35;7;2M\x1b[<64;1;1M\x1b[<65;1;1M"), [
    "press@4,2",
    "release@4,2",
    "move@6,1",
    "wheel-up@0,0",
    "wheel-down@0,0",
  ]);
});

Deno.test("decodeInput() keeps an unfinished sequence for the next chunk", () => {
  const first = decodeInput("x\x1b[<0;5", "");
  assertEquals(first.events.length, 1);
  assertEquals(first.rest, "\x1b[<0;5");
  assertEquals(names(";3M", first.rest), ["press@4,2"]);
});

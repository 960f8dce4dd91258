import { assertEquals } from "../../tests/harness/assert.ts";
import { keyBursts } from "./keys.ts";

Deno.test("keyBursts() A19: repeated Escapes are split into separate presses; everything else stays one burst", () => {
  assertEquals(keyBursts(["Escape", "Escape"]), [["Escape"], ["Escape"]]);
  assertEquals(keyBursts(["/compact", "Enter"]), [["/compact", "Enter"]]);
  assertEquals(keyBursts(["Escape"]), [["Escape"]]);
  assertEquals(keyBursts(["y"]), [["y"]]);
  assertEquals(keyBursts(["Escape", "x", "Escape"]), [["Escape", "x", "Escape"]]);
});

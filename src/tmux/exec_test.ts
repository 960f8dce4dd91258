import { assertEquals } from "../../tests/harness/assert.ts";
import { readMarkers } from "./exec.ts";

Deno.test("batch markers close their item: a capture's lines, a writer's verdict, a failed item absent", () => {
  const out = ["line one", "nonce:0", "nonce:2:1", "x: y", "nonce:3: ", ""].join("\n");
  assertEquals(readMarkers(out, "nonce"), [
    { index: 0, tail: "", body: ["line one"] },
    { index: 2, tail: "1", body: [] },
    { index: 3, tail: "", body: ["x: y"] },
  ]);
  // A marker of another batch is just text.
  assertEquals(readMarkers("other:0\nnonce:0\n", "nonce"), [
    { index: 0, tail: "", body: ["other:0"] },
  ]);
});

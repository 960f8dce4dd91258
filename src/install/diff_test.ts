import { assertEquals, assertStringIncludes } from "../../tests/harness/assert.ts";
import { unifiedDiff } from "./diff.ts";

Deno.test("unifiedDiff() of equal texts is empty", () => {
  assertEquals(unifiedDiff("a\n", "a\n", { path: "x" }), "");
});

Deno.test("unifiedDiff() shows a changed line as -old then +new with context", () => {
  const before = "1\n2\n3\n4\n5\n6\n7\n8\n";
  const after = "1\n2\n3\n4\nfive\n6\n7\n8\n";
  assertEquals(
    unifiedDiff(before, after, { path: "f" }),
    "--- f\n+++ f\n@@ -2,7 +2,7 @@\n 2\n 3\n 4\n-5\n+five\n 6\n 7\n 8\n",
  );
});

Deno.test("unifiedDiff() of a new file diffs against /dev/null", () => {
  assertEquals(
    unifiedDiff(null, "a\nb\n", { path: "n" }),
    "--- /dev/null\n+++ n\n@@ -0,0 +1,2 @@\n+a\n+b\n",
  );
  assertEquals(
    unifiedDiff("a\n", null, { path: "n" }),
    "--- n\n+++ /dev/null\n@@ -1,1 +0,0 @@\n-a\n",
  );
});

Deno.test("unifiedDiff() splits distant changes into hunks and marks a missing final newline", () => {
  const before = Array.from({ length: 20 }, (_, i) => `l${i}`).join("\n") + "\n";
  const after = before.replace("l1\n", "L1\n").replace("l18\n", "L18\n");
  const diff = unifiedDiff(before, after, { path: "f" });
  assertEquals(diff.match(/^@@/gm)?.length, 2);
  assertStringIncludes(unifiedDiff("a", "a\n", { path: "f" }), "\\ No newline at end of file");
});

import { assertEquals } from "../../tests/harness/assert.ts";
import { coalesce, writerOf } from "./spool.ts";

Deno.test("writerOf() X10: the wrapper's <pid>[-n].ev names a writer; an older wrapper's <fired>-<pid>.ev does not", () => {
  assertEquals(writerOf("4242.ev"), 4242);
  assertEquals(writerOf("4242-7.ev"), 4242);
  assertEquals(writerOf("1700000000000-4242.ev"), null);
  assertEquals(writerOf("0-4242.ev"), null);
  assertEquals(writerOf("1.ev"), null);
  assertEquals(writerOf(".4242.ev.99.claimed"), null);
});

Deno.test("coalesce() X10, D47: a run of one event on one pane keeps its newest; nothing else folds", () => {
  const e = (kind: string, pane: string, firedAt: number) => ({
    agent: "gemini",
    kind,
    pane,
    firedAt,
    payload: "{}",
  });
  const folded = coalesce([
    e("AfterModel", "%1", 1),
    e("AfterModel", "%1", 2),
    e("AfterModel", "%2", 3),
    e("SessionStart", "%1", 4),
    e("AfterModel", "%1", 5),
  ]);
  assertEquals(folded.map((x) => `${x.kind}${x.pane}@${x.firedAt}`), [
    "AfterModel%1@2",
    "AfterModel%2@3",
    "SessionStart%1@4",
    "AfterModel%1@5",
  ]);
});

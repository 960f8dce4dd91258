import { assertStrictEquals } from "../../../tests/harness/assert.ts";
import { predicateSchema } from "../manifest/predicate_schema.ts";
import { evaluatePredicate } from "./predicate.ts";

function holds(match: unknown, lines: string[]): boolean {
  return evaluatePredicate(predicateSchema.parse(match), lines);
}

Deno.test("evaluatePredicate() D28: contains is a substring of the region's text", () => {
  assertStrictEquals(
    holds({ contains: "esc to cancel" }, ["⠏ Thinking... (esc to cancel, 3s)"]),
    true,
  );
  assertStrictEquals(holds({ contains: "esc to cancel" }, ["esc to", "cancel"]), false);
  assertStrictEquals(holds({ contains: "a\nb" }, ["a", "b"]), true);
});

Deno.test("evaluatePredicate() D28: regex runs over the joined region, ^ anchoring its start", () => {
  assertStrictEquals(holds({ regex: "^✳" }, ["✳ Claude Code"]), true);
  assertStrictEquals(holds({ regex: "^b" }, ["a", "b"]), false);
  assertStrictEquals(holds({ regex: "a\\nb" }, ["a", "b"]), true);
});

Deno.test("evaluatePredicate() D28: line_regex holds when one line matches", () => {
  assertStrictEquals(holds({ line_regex: "^b$" }, ["a", "b", "c"]), true);
  assertStrictEquals(holds({ line_regex: "^a b$" }, ["a", "b"]), false);
});

Deno.test("evaluatePredicate() D28: last_line tests the bottommost selected line only", () => {
  const match = {
    last_line: { select: "^[·✻] \\S", match: { contains: "…" } },
  };
  // A newer spinner below completion history: working.
  assertStrictEquals(holds(match, ["✻ Churned for 3m", "❯ go", "· Actioning… (4s)", "❯ "]), true);
  // A completion below an old spinner: not working.
  assertStrictEquals(
    holds(match, ["· Actioning… (4s)", "⏺ done", "✻ Churned for 3m", "❯ "]),
    false,
  );
});

Deno.test("evaluatePredicate() D28: last_line with no selected line is no match, even under not", () => {
  const match = { last_line: { select: "^✻", match: { not: { contains: "x" } } } };
  assertStrictEquals(holds(match, ["a", "b"]), false);
  assertStrictEquals(holds({ not: match }, ["a", "b"]), true);
});

Deno.test("evaluatePredicate() D28: last_line's nested predicate sees a one-line region", () => {
  const match = { last_line: { select: "^›", match: { regex: "^› Ask$" } } };
  assertStrictEquals(holds(match, ["x", "› Ask", "y"]), true);
});

Deno.test("evaluatePredicate() D28: any, all and not combine", () => {
  const lines = ["Allow once", "Reject"];
  assertStrictEquals(
    holds({ all: [{ contains: "Allow once" }, { contains: "Reject" }] }, lines),
    true,
  );
  assertStrictEquals(
    holds({ all: [{ contains: "Allow once" }, { contains: "Nope" }] }, lines),
    false,
  );
  assertStrictEquals(holds({ any: [{ contains: "Nope" }, { contains: "Reject" }] }, lines), true);
  assertStrictEquals(holds({ any: [{ contains: "Nope" }, { contains: "Nah" }] }, lines), false);
  assertStrictEquals(holds({ not: { contains: "Reject" } }, lines), false);
});

Deno.test("evaluatePredicate() D28: an empty region matches nothing positive", () => {
  assertStrictEquals(holds({ line_regex: ".*" }, []), false);
  assertStrictEquals(holds({ regex: "^$" }, []), true);
});

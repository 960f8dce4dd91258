import { assertEquals, assertStringIncludes } from "../../../tests/harness/assert.ts";
import { PREVALIDATED_AGENTS } from "../../assets/prevalidated.ts";
import { backtrackingRisk } from "./backtracking.ts";
import { parseRegex } from "./syntax.ts";

const risk = (source: string) => backtrackingRisk(parseRegex(source));

Deno.test("backtrackingRisk() R11: nested or overlapping repetition is exponential", () => {
  for (const source of ["(a+)+$", "(a|a)*b", "(?:\\s*x?)*y", "(a{1,2})*b", "(\\w|\\d)+!"]) {
    assertStringIncludes(risk(source) ?? "", "exponential", source);
  }
});

Deno.test("backtrackingRisk() R11: repetitions that share a run are polynomial", () => {
  for (
    const source of [
      "(?:^|\\n)\\s*x",
      "\\s*\\s*$",
      "a*b",
      "\\d+\\d+x",
      "^\\s{2,}.*\\s",
      "^a*[ab]*c",
      "x\\S+y\\S+z",
    ]
  ) {
    assertStringIncludes(risk(source) ?? "", "polynomial", source);
  }
});

Deno.test("backtrackingRisk() R11: unambiguous patterns pass", () => {
  for (
    const source of [
      "^a*b",
      "^\\s*Select model\\s*$",
      "^(?:\\s+-\\S+)*x",
      "\\(\\d[^()]*esc to interrupt\\)",
      "\\d(?:\\.\\d+)?%/\\d+k",
      "^[│\\s]*Allow once\\s.*\\bReject\\b",
      "permission_prompt|elicitation_dialog",
      // `^` matches only where the input starts: the search loop cannot run into it.
      "(?:^|\\n)[^\\S\\n]*x",
      "(?:^|\\n)\\S+ for \\d[^\\n]*\\n❯",
    ]
  ) {
    assertEquals(risk(source), null, source);
  }
});

Deno.test("backtrackingRisk() R11: every bundled pattern is vetted linear", () => {
  for (const [path, source] of JSON.parse(PREVALIDATED_AGENTS).regexes as [string[], string][]) {
    assertEquals(risk(source), null, `${path.join(".")}: ${source}`);
  }
});

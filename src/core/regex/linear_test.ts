import {
  assert,
  assertEquals,
  assertStringIncludes,
  assertThrows,
} from "../../../tests/harness/assert.ts";
import { PREVALIDATED_AGENTS } from "../../assets/prevalidated.ts";
import { seededRandom } from "../../../tests/harness/random.ts";
import { compileLinear, PatternError } from "./linear.ts";

/** Characters where JavaScript and RE2 disagree unless the translation is exact. */
const TRICKY = [
  " ",
  "\t",
  "\n",
  "\r",
  "\v",
  "\f",
  "\u00a0",
  "\u2028",
  "\u3000",
  "\ufeff",
  "😀",
  "é",
  "_",
];

/** Random texts built from the pattern's own characters and the tricky ones. */
function textsFor(source: string, next: () => number, count: number): string[] {
  const alphabet = [...new Set([...source.replace(/\\[a-zA-Z]/g, ""), ...TRICKY, "a", "1", "x"])];
  const texts: string[] = [];
  for (let i = 0; i < count; i++) {
    const length = Math.floor(next() * 24);
    let text = "";
    for (let j = 0; j < length; j++) text += alphabet[Math.floor(next() * alphabet.length)];
    texts.push(text);
  }
  return texts;
}

const BUNDLED: string[] = (JSON.parse(PREVALIDATED_AGENTS).regexes as [unknown, string][]).map(
  ([, source]) => source,
);

const EXTRA = [
  "^\\s*$",
  "\\S+\\s\\S",
  "a.b",
  "[^\\s]x",
  "[\\S]",
  "[\\d\\s-]+",
  "[^]",
  "[]",
  "\\u{1F600}|\\uD83D\\uDE00",
  "\\x41\\u0042\\cJ\\0",
  "[\\b]",
  "(?<name>ab)+c",
  "\\p{L}\\P{Nd}",
  "[\\p{Script=Greek}\\d]",
  "a{2,3}b{2}c{1,}",
  "\\bword\\B",
  "^a|b$",
  "[\\-\\]\\\\]",
  "x*?y+?z??",
];

Deno.test("compileLinear() R11: user patterns match exactly as the native engine does", () => {
  const next = seededRandom(13);
  for (const source of [...BUNDLED, ...EXTRA]) {
    const native = new RegExp(source, "u");
    const linear = compileLinear(source);
    for (const text of textsFor(source, next, 300)) {
      assertEquals(
        linear.test(text),
        native.test(text),
        `${JSON.stringify(source)} on ${JSON.stringify(text)}`,
      );
    }
  }
});

Deno.test("compileLinear() R11: a catastrophic pattern answers at once", () => {
  const start = performance.now();
  assertEquals(compileLinear("(a+)+$").test(`${"a".repeat(100_000)}!`), false);
  assertEquals(compileLinear("(a|a)*b").test("a".repeat(100_000)), false);
  // A linear engine does this in milliseconds; the native one would not finish.
  assert(performance.now() - start < 30_000);
});

Deno.test("compileLinear() M3: what RE2 cannot run is refused, saying what and why", () => {
  const cases: [string, string][] = [
    ["(?=a)b", "lookahead"],
    ["(?<!a)b", "lookbehind"],
    ["(a)\\1", "backreference"],
    ["(?<n>a)\\k<n>", "backreference"],
    ["(?i:a)", "inline modifier"],
    ["\\p{Letter}", "linear-time engine"],
    ["\\p{Script_Extensions=Greek}", "only general"],
    ["a{1001}", "linear-time engine"],
    ["(", "invalid regex"],
    ["\\q", "invalid regex"],
  ];
  for (const [source, words] of cases) {
    const error = assertThrows(() => compileLinear(source), PatternError);
    assertStringIncludes(error.message, words);
    assertStringIncludes(error.message, JSON.stringify(source));
  }
});

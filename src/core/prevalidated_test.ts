import {
  assert,
  assertEquals,
  assertStrictEquals,
  assertThrows,
} from "../../tests/harness/assert.ts";
import { decodeValidated, encodeValidated } from "./prevalidated.ts";

Deno.test("prevalidated: regexes survive the round trip, compiled, with their flags", () => {
  const value = {
    rules: [{ match: { line_regex: { source: "^\\s+❯ 1\\. Yes", re: /^\s+❯ 1\. Yes/u } } }],
    nested: [[/a+/giu]],
    plain: { n: 3, s: "x", b: false, none: null, list: [1, "2"] },
  };
  const back = decodeValidated<typeof value>(encodeValidated(value));
  assertEquals(back, value);
  const re = back.rules[0].match.line_regex.re;
  assert(re instanceof RegExp);
  assertStrictEquals(re.flags, "u");
  assert(re.test("  ❯ 1. Yes"));
  assertStrictEquals(back.nested[0][0].flags, "giu");
});

Deno.test("prevalidated: a value JSON would change is refused at build time, naming its key", () => {
  assertThrows(() => encodeValidated({ when: new Date(0) }), Error, 'Date at key "when"');
  assertThrows(() => encodeValidated({ seen: new Set([1]) }), Error, 'Set at key "seen"');
  assertThrows(() => encodeValidated({ by: new Map() }), Error, 'Map at key "by"');
  assertThrows(() => encodeValidated({ f: () => 1 }), Error, 'function at key "f"');
  assertThrows(
    () => encodeValidated({ a: [{ ratio: Number.NaN }] }),
    Error,
    'number NaN at key "a.0.ratio"',
  );
  assertThrows(() => encodeValidated({ big: 1n }), Error, 'bigint at key "big"');
});

Deno.test("prevalidated: data that looks like an encoded regex stays data", () => {
  const value = { odd: { $regex: ["a", ""] }, regexes: [["x"]], data: null };
  assertEquals(decodeValidated(encodeValidated(value)), value);
  assertStrictEquals(decodeValidated<RegExp>(encodeValidated(/top/g)).source, "top");
});

Deno.test("prevalidated: an absent optional key stays absent", () => {
  const back = decodeValidated<Record<string, unknown>>(encodeValidated({ a: 1, b: undefined }));
  assertEquals(Object.keys(back), ["a"]);
});

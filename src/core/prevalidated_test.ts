import { deepStrictEqual, ok, strictEqual, throws } from "node:assert/strict";
import { decodeValidated, encodeValidated } from "./prevalidated.ts";

Deno.test("prevalidated: regexes survive the round trip, compiled, with their flags", () => {
  const value = {
    rules: [{ match: { line_regex: { source: "^\\s+❯ 1\\. Yes", re: /^\s+❯ 1\. Yes/u } } }],
    nested: [[/a+/giu]],
    plain: { n: 3, s: "x", b: false, none: null, list: [1, "2"] },
  };
  const back = decodeValidated<typeof value>(encodeValidated(value));
  deepStrictEqual(back, value);
  const re = back.rules[0].match.line_regex.re;
  ok(re instanceof RegExp);
  strictEqual(re.flags, "u");
  ok(re.test("  ❯ 1. Yes"));
  strictEqual(back.nested[0][0].flags, "giu");
});

Deno.test("prevalidated: a value JSON would change is refused at build time, naming its key", () => {
  throws(() => encodeValidated({ when: new Date(0) }), /Date at key "when"/);
  throws(() => encodeValidated({ seen: new Set([1]) }), /Set at key "seen"/);
  throws(() => encodeValidated({ by: new Map() }), /Map at key "by"/);
  throws(() => encodeValidated({ f: () => 1 }), /function at key "f"/);
  throws(() => encodeValidated({ a: [{ ratio: Number.NaN }] }), /number NaN at key "a.0.ratio"/);
  throws(() => encodeValidated({ big: 1n }), /bigint at key "big"/);
});

Deno.test("prevalidated: data that looks like an encoded regex stays data", () => {
  const value = { odd: { $regex: ["a", ""] }, regexes: [["x"]], data: null };
  deepStrictEqual(decodeValidated(encodeValidated(value)), value);
  strictEqual(decodeValidated<RegExp>(encodeValidated(/top/g)).source, "top");
});

Deno.test("prevalidated: an absent optional key stays absent", () => {
  const back = decodeValidated<Record<string, unknown>>(encodeValidated({ a: 1, b: undefined }));
  deepStrictEqual(Object.keys(back), ["a"]);
});

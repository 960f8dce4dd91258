/**
 * Prints a parsed manifest regex in RE2 syntax with the same meaning: every
 * atom is written as the exact code points it matches (JavaScript's `\s` and
 * `.` are wider than RE2's), groups become non-capturing, and anchors keep
 * their whole-input meaning (neither side has the m flag).
 *
 * ```ts
 * import { parseRegex } from "./syntax.ts";
 * import { re2Source } from "./re2.ts";
 * re2Source(parseRegex("^a\\.")); // "^a\\x{2E}"
 * ```
 * @module
 */
import { MAX_CODE_POINT } from "./charset.ts";
import type { CharsNode, RegexNode } from "./syntax.ts";

/** The RE2 source of a parsed regex. */
export function re2Source(node: RegexNode): string {
  switch (node.kind) {
    case "chars":
      return printChars(node);
    case "seq":
      return node.items.map(re2Source).join("");
    case "alt":
      return node.branches.map(re2Source).join("|");
    case "group":
      return `(?:${re2Source(node.body)})`;
    case "repeat": {
      const body = node.body.kind === "chars" || node.body.kind === "group"
        ? re2Source(node.body)
        : `(?:${re2Source(node.body)})`;
      return body + quantifier(node.min, node.max);
    }
    case "assert":
      return { start: "^", end: "$", word: "\\b", nonword: "\\B" }[node.which];
  }
}

function quantifier(min: number, max: number): string {
  if (min === 0 && max === Infinity) return "*";
  if (min === 1 && max === Infinity) return "+";
  if (min === 0 && max === 1) return "?";
  if (max === Infinity) return `{${min},}`;
  return min === max ? `{${min}}` : `{${min},${max}}`;
}

function codePoint(cp: number): string {
  if ((cp >= 0x30 && cp <= 0x39) || (cp >= 0x41 && cp <= 0x5a) || (cp >= 0x61 && cp <= 0x7a)) {
    return String.fromCodePoint(cp);
  }
  return `\\x{${cp.toString(16).toUpperCase()}}`;
}

function printChars(node: CharsNode): string {
  const { ranges, properties, negated } = node;
  if (!negated && properties.length === 0 && ranges.length === 1 && ranges[0][0] === ranges[0][1]) {
    return codePoint(ranges[0][0]);
  }
  if (!negated && properties.length === 0 && ranges.length === 0) {
    // JavaScript's `[]` matches nothing; RE2 has no empty class.
    return `[^\\x{0}-\\x{${MAX_CODE_POINT.toString(16).toUpperCase()}}]`;
  }
  const items = ranges.map(([lo, hi]) =>
    lo === hi ? codePoint(lo) : `${codePoint(lo)}-${codePoint(hi)}`
  );
  for (const p of properties) items.push(`\\${p.negated ? "P" : "p"}{${p.name}}`);
  return `[${negated ? "^" : ""}${items.join("")}]`;
}

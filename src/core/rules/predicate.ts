/**
 * Evaluates a rule's predicate tree (D28) over the rows of a region.
 *
 * ```ts
 * import { evaluatePredicate } from "./predicate.ts";
 * import { predicateSchema } from "../manifest/predicate_schema.ts";
 * const p = predicateSchema.parse({ all: [{ contains: "Allow once" }, { not: { contains: "Reject" } }] });
 * evaluatePredicate(p, ["  Allow once"]); // true
 * ```
 * @module
 */

import type { Predicate } from "../manifest/predicate_schema.ts";

/**
 * Whether `predicate` holds over `lines`:
 * - `contains` and `regex` look at the lines joined by `\n`;
 * - `line_regex` holds when some single line matches;
 * - `last_line` picks the bottommost line matching `select` and tests its
 *   nested predicate on that line alone; with no such line it is false;
 * - `any`, `all` and `not` combine as their names say.
 */
export function evaluatePredicate(predicate: Predicate, lines: readonly string[]): boolean {
  return evaluate(predicate, new RegionText(lines));
}

// The joined text is built at most once per region, and only when a
// `contains` or `regex` leaf asks for it.
class RegionText {
  readonly lines: readonly string[];
  #text: string | undefined;

  constructor(lines: readonly string[]) {
    this.lines = lines;
  }

  get text(): string {
    this.#text ??= this.lines.join("\n");
    return this.#text;
  }
}

function evaluate(p: Predicate, region: RegionText): boolean {
  if (p.contains !== undefined) return region.text.includes(p.contains);
  if (p.regex !== undefined) return p.regex.re.test(region.text);
  if (p.line_regex !== undefined) {
    const re = p.line_regex.re;
    return region.lines.some((line) => re.test(line));
  }
  if (p.last_line !== undefined) {
    const { select, match } = p.last_line;
    for (let i = region.lines.length - 1; i >= 0; i--) {
      const line = region.lines[i];
      if (select.re.test(line)) return evaluate(match, new RegionText([line]));
    }
    return false;
  }
  if (p.any !== undefined) return p.any.some((q) => evaluate(q, region));
  if (p.all !== undefined) return p.all.every((q) => evaluate(q, region));
  if (p.not !== undefined) return !evaluate(p.not, region);
  // Unreachable for a parsed predicate: the schema demands exactly one key.
  return false;
}

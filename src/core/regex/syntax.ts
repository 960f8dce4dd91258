/**
 * A reader of manifest regexes: JavaScript syntax in u mode (the dialect the
 * manifests are written in) into a small tree, for the RE2 printer and the
 * backtracking vet. The source must already have compiled as
 * `new RegExp(source, "u")`, so the reader checks no syntax of its own; it
 * only refuses what a linear-time engine cannot run: lookarounds,
 * backreferences and inline modifiers, each with a message that names it.
 *
 * ```ts
 * import { parseRegex } from "./syntax.ts";
 * parseRegex("^a+").kind; // "seq"
 * ```
 * @module
 */
import {
  ANY,
  type CharSet,
  complement,
  DIGITS,
  LINE_TERMINATORS,
  single,
  union,
  WHITESPACE,
  WORD,
} from "./charset.ts";

/** A Unicode property escape, in RE2's spelling (`L`, `Greek`). */
export interface PropertyEscape {
  name: string;
  negated: boolean;
}

/**
 * One atom: the code points in `ranges` or in any of `properties`, or every
 * other code point when `negated`. Without properties the reader folds the
 * negation into `ranges`.
 */
export interface CharsNode {
  kind: "chars";
  ranges: CharSet;
  properties: readonly PropertyEscape[];
  negated: boolean;
}

/** A parsed regex. Groups carry no capture: tma only ever asks whether a pattern matches. */
export type RegexNode =
  | CharsNode
  | { kind: "seq"; items: readonly RegexNode[] }
  | { kind: "alt"; branches: readonly RegexNode[] }
  | { kind: "repeat"; body: RegexNode; min: number; max: number }
  | { kind: "group"; body: RegexNode }
  | { kind: "assert"; which: "start" | "end" | "word" | "nonword" };

/** A construct the linear-time engine cannot run; the message says which and what to do. */
export class UnsupportedRegexError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "UnsupportedRegexError";
  }
}

/** Parses a u-mode source that `new RegExp(source, "u")` accepted. */
export function parseRegex(source: string): RegexNode {
  const reader = new Reader(source);
  const node = reader.disjunction();
  if (!reader.done()) {
    throw new UnsupportedRegexError(`unexpected ")" in ${JSON.stringify(source)}`);
  }
  return node;
}

/** The chars node of a plain set. */
function chars(ranges: CharSet): CharsNode {
  return { kind: "chars", ranges, properties: [], negated: false };
}

const CONTROL_ESCAPES: Readonly<Record<string, number>> = { t: 9, n: 10, v: 11, f: 12, r: 13 };

const CLASS_ESCAPES: Readonly<Record<string, CharSet>> = {
  d: DIGITS,
  D: complement(DIGITS),
  w: WORD,
  W: complement(WORD),
  s: WHITESPACE,
  S: complement(WHITESPACE),
};

/** How a JavaScript `\p{…}` key names a set in RE2: scripts and categories only. */
const PROPERTY_KEYS: Readonly<Record<string, true>> = {
  Script: true,
  sc: true,
  General_Category: true,
  gc: true,
};

class Reader {
  readonly #cps: number[];
  #at = 0;

  constructor(readonly source: string) {
    this.#cps = Array.from(source, (ch) => ch.codePointAt(0)!);
  }

  done(): boolean {
    return this.#at >= this.#cps.length;
  }

  #peek(offset = 0): string {
    const cp = this.#cps[this.#at + offset];
    return cp === undefined ? "" : String.fromCodePoint(cp);
  }

  #next(): string {
    return String.fromCodePoint(this.#cps[this.#at++]);
  }

  #startsWith(text: string): boolean {
    return [...text].every((ch, i) => this.#peek(i) === ch);
  }

  disjunction(): RegexNode {
    const branches = [this.#alternative()];
    while (this.#peek() === "|") {
      this.#next();
      branches.push(this.#alternative());
    }
    return branches.length === 1 ? branches[0] : { kind: "alt", branches };
  }

  #alternative(): RegexNode {
    const items: RegexNode[] = [];
    while (!this.done() && this.#peek() !== "|" && this.#peek() !== ")") {
      items.push(this.#quantified(this.#term()));
    }
    return items.length === 1 ? items[0] : { kind: "seq", items };
  }

  #term(): RegexNode {
    const ch = this.#next();
    switch (ch) {
      case "^":
        return { kind: "assert", which: "start" };
      case "$":
        return { kind: "assert", which: "end" };
      case ".":
        return chars(complement(LINE_TERMINATORS));
      case "(":
        return this.#group();
      case "[":
        return this.#class();
      case "\\":
        return this.#atomEscape();
      default:
        return chars(single(ch.codePointAt(0)!));
    }
  }

  #group(): RegexNode {
    if (this.#startsWith("?=") || this.#startsWith("?!")) {
      throw new UnsupportedRegexError(
        "uses a lookahead ((?= or (?!), which a linear-time engine cannot run; rewrite it without",
      );
    }
    if (this.#startsWith("?<=") || this.#startsWith("?<!")) {
      throw new UnsupportedRegexError(
        "uses a lookbehind ((?<= or (?<!), which a linear-time engine cannot run; rewrite it without",
      );
    }
    if (this.#startsWith("?:")) {
      this.#at += 2;
    } else if (this.#startsWith("?<")) {
      while (this.#next() !== ">");
    } else if (this.#peek() === "?") {
      throw new UnsupportedRegexError(
        "uses an inline modifier group ((?i: and the like); write the pattern without it",
      );
    }
    const body = this.disjunction();
    this.#next(); // ")"
    return { kind: "group", body };
  }

  #atomEscape(): RegexNode {
    const ch = this.#peek();
    if (ch === "b" || ch === "B") {
      this.#next();
      return { kind: "assert", which: ch === "b" ? "word" : "nonword" };
    }
    if ((ch >= "1" && ch <= "9") || ch === "k") {
      throw new UnsupportedRegexError(
        "uses a backreference (\\1 or \\k<name>), which a linear-time engine cannot run; " +
          "rewrite it without",
      );
    }
    return this.#escapeAtom();
  }

  /** An escape after `\` that stands for characters (a set or one code point). */
  #escapeAtom(inClass = false): CharsNode {
    const ch = this.#next();
    const set = CLASS_ESCAPES[ch];
    if (set !== undefined) return chars(set);
    if (ch === "p" || ch === "P") return this.#property(ch === "P");
    return chars(single(this.#charEscape(ch, inClass)));
  }

  #charEscape(ch: string, inClass: boolean): number {
    if (ch in CONTROL_ESCAPES) return CONTROL_ESCAPES[ch];
    if (ch === "0") return 0;
    if (ch === "b" && inClass) return 8;
    if (ch === "c") return this.#next().codePointAt(0)! % 32;
    if (ch === "x") return this.#hex(2);
    if (ch === "u") return this.#unicodeEscape();
    return ch.codePointAt(0)!; // an identity escape of a syntax character, or "-"
  }

  #hex(digits: number): number {
    let text = "";
    for (let i = 0; i < digits; i++) text += this.#next();
    return parseInt(text, 16);
  }

  #unicodeEscape(): number {
    if (this.#peek() === "{") {
      this.#next();
      let text = "";
      while (this.#peek() !== "}") text += this.#next();
      this.#next();
      return parseInt(text, 16);
    }
    const unit = this.#hex(4);
    // In u mode an escaped surrogate pair is one code point.
    if (unit >= 0xd800 && unit <= 0xdbff && this.#startsWith("\\u") && this.#peek(2) !== "{") {
      const low = parseInt([2, 3, 4, 5].map((i) => this.#peek(i)).join(""), 16);
      if (low >= 0xdc00 && low <= 0xdfff) {
        this.#at += 6;
        return 0x10000 + ((unit - 0xd800) << 10) + (low - 0xdc00);
      }
    }
    return unit;
  }

  #property(negated: boolean): CharsNode {
    this.#next(); // "{"
    let text = "";
    while (this.#peek() !== "}") text += this.#next();
    this.#next();
    const [key, value] = text.includes("=") ? text.split("=", 2) : [undefined, text];
    if (key !== undefined && !PROPERTY_KEYS[key]) {
      throw new UnsupportedRegexError(
        `uses \\p{${text}}, which the linear-time engine cannot run; only general ` +
          "categories and scripts (\\p{L}, \\p{Script=Greek}) are supported",
      );
    }
    return { kind: "chars", ranges: [], properties: [{ name: value, negated }], negated: false };
  }

  #class(): CharsNode {
    let negated = false;
    if (this.#peek() === "^") {
      this.#next();
      negated = true;
    }
    const ranges: CharSet[] = [];
    const properties: PropertyEscape[] = [];
    while (this.#peek() !== "]") {
      const from = this.#classAtom();
      if (this.#peek() === "-" && this.#peek(1) !== "]" && this.#peek(1) !== "") {
        this.#next();
        const to = this.#classAtom();
        ranges.push([[lone(from), lone(to)]]);
        continue;
      }
      ranges.push(from.ranges);
      properties.push(...from.properties);
    }
    this.#next(); // "]"
    const set = union(...ranges);
    if (properties.length > 0) return { kind: "chars", ranges: set, properties, negated };
    return chars(negated ? complement(set) : set);
  }

  #classAtom(): CharsNode {
    const ch = this.#next();
    if (ch === "\\") return this.#escapeAtom(true);
    return chars(single(ch.codePointAt(0)!));
  }

  #quantified(atom: RegexNode): RegexNode {
    const ch = this.#peek();
    let min: number;
    let max: number;
    if (ch === "*") [min, max] = [0, Infinity];
    else if (ch === "+") [min, max] = [1, Infinity];
    else if (ch === "?") [min, max] = [0, 1];
    else if (ch === "{" && /^\{\d+(,\d*)?\}/.test(this.source.slice(this.#offset()))) {
      const m = /^\{(\d+)(,(\d*))?\}/.exec(this.source.slice(this.#offset()))!;
      min = Number(m[1]);
      max = m[2] === undefined ? min : m[3] === "" ? Infinity : Number(m[3]);
      this.#at += [...m[0]].length - 1;
    } else {
      return atom;
    }
    this.#next();
    if (this.#peek() === "?") this.#next(); // laziness does not change whether it matches
    return { kind: "repeat", body: atom, min, max };
  }

  /** The UTF-16 offset of the reader's position in `source`. */
  #offset(): number {
    return String.fromCodePoint(...this.#cps.slice(0, this.#at)).length;
  }
}

/** The one code point of a class range's end. */
function lone(node: CharsNode): number {
  return node.ranges[0]?.[0] ?? 0;
}

/** What a chars node can match, over-approximated when it names properties (for the vet). */
export function reachOf(node: CharsNode): CharSet {
  if (node.properties.length > 0) return ANY;
  return node.negated ? complement(node.ranges) : node.ranges;
}

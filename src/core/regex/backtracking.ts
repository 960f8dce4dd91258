/**
 * The build-time vet of the bundled manifests' regexes, which keep the
 * native (backtracking) engine: a pattern is refused when some input can
 * make a backtracking matcher take more than linear time in its length.
 *
 * The test is the ambiguity criterion for backtracking matchers (Weideman,
 * van der Merwe, Berglund and Watson, 2016), run on the pattern's position
 * automaton, with a loop on any character in front unless the pattern is
 * anchored at `^`, because `RegExp.prototype.test` retries at every offset:
 *
 * - exponential: one state reaches itself by two different paths on the
 *   same text (`(a+)+`, `(a|a)*`);
 * - polynomial: two different looping states p and q, where the same text
 *   loops on p, leads from p to q and loops on q (`\d+\d+x`, `a*b` searched
 *   unanchored, `\s{2,}.*\s`).
 *
 * `^` is exact: without the m flag it matches only where the input starts,
 * so it is a position entered on a start-of-input symbol no character
 * matches (the input is read as that symbol, then the text). `(?:^|\n)`
 * then loops only through its `\n`. It is conservative otherwise: `$` and
 * `\b` count as matching anywhere and a property escape as any character,
 * so it can refuse a safe pattern but never passes an unsafe one.
 *
 * ```ts
 * import { parseRegex } from "./syntax.ts";
 * import { backtrackingRisk } from "./backtracking.ts";
 * backtrackingRisk(parseRegex("^\\s*Select model\\s*$")); // null
 * backtrackingRisk(parseRegex("(a+)+$")); // "exponential: …"
 * ```
 * @module
 */
import { ANY, type CharSet, intersect, intersects, MAX_CODE_POINT, single } from "./charset.ts";
import { reachOf, type RegexNode } from "./syntax.ts";

/** The start-of-input symbol `^` is entered on: past every code point, so no label of text holds it. */
const START_OF_INPUT: CharSet = single(MAX_CODE_POINT + 1);

/** More positions than this (a large `{n,m}`) are refused as too big to vet. */
export const MAX_POSITIONS = 3000;

interface Fragment {
  nullable: boolean;
  first: number[];
  last: number[];
}

/** The position (Glushkov) automaton: one state per atom occurrence, entered on its label. */
class Positions {
  readonly labels: CharSet[] = [];
  readonly follow: Set<number>[] = [];
  /**
   * A loop whose body can match the empty text (`(a*)*`): its ways to split
   * a run share the automaton's edges, so the product test cannot see them.
   */
  nullableLoop = false;

  add(label: CharSet): number {
    if (this.labels.length >= MAX_POSITIONS) {
      throw new RangeError(`the pattern expands to more than ${MAX_POSITIONS} positions`);
    }
    this.labels.push(label);
    this.follow.push(new Set());
    return this.labels.length - 1;
  }

  link(from: readonly number[], to: readonly number[]): void {
    for (const f of from) for (const t of to) this.follow[f].add(t);
  }

  build(node: RegexNode): Fragment {
    switch (node.kind) {
      case "chars": {
        const p = this.add(reachOf(node));
        return { nullable: false, first: [p], last: [p] };
      }
      case "assert": {
        if (node.which !== "start") return { nullable: true, first: [], last: [] };
        const p = this.add(START_OF_INPUT);
        return { nullable: false, first: [p], last: [p] };
      }
      case "group":
        return this.build(node.body);
      case "alt": {
        const parts = node.branches.map((b) => this.build(b));
        return {
          nullable: parts.some((p) => p.nullable),
          first: parts.flatMap((p) => p.first),
          last: parts.flatMap((p) => p.last),
        };
      }
      case "seq":
        return node.items.map((item) => () => this.build(item)).reduce(
          (acc, next) => this.concat(acc, next()),
          { nullable: true, first: [], last: [] } as Fragment,
        );
      case "repeat":
        return this.repeat(node.body, node.min, node.max);
    }
  }

  concat(a: Fragment, b: Fragment): Fragment {
    this.link(a.last, b.first);
    return {
      nullable: a.nullable && b.nullable,
      first: a.nullable ? [...a.first, ...b.first] : a.first,
      last: b.nullable ? [...a.last, ...b.last] : b.last,
    };
  }

  /** `body{min,max}` as min copies, then a star, or nested optional copies (unambiguous). */
  repeat(body: RegexNode, min: number, max: number): Fragment {
    let out: Fragment = { nullable: true, first: [], last: [] };
    for (let i = 0; i < min; i++) out = this.concat(out, this.build(body));
    if (max === Infinity) {
      const loop = this.build(body);
      if (loop.nullable && loop.first.length > 0) this.nullableLoop = true;
      this.link(loop.last, loop.first);
      return this.concat(out, { ...loop, nullable: true });
    }
    // (body (body (body)?)?)? for the optional copies.
    const optional = (left: number): Fragment => {
      if (left === 0) return { nullable: true, first: [], last: [] };
      const head = this.build(body);
      const tail = optional(left - 1);
      return { ...this.concat(head, tail), nullable: true };
    };
    return this.concat(out, optional(max - min));
  }
}

/** Whether every match must start at offset 0. */
function anchoredAtStart(node: RegexNode): boolean {
  switch (node.kind) {
    case "assert":
      return node.which === "start";
    case "group":
      return anchoredAtStart(node.body);
    case "seq":
      return node.items.length > 0 && anchoredAtStart(node.items[0]);
    case "alt":
      return node.branches.every(anchoredAtStart);
    case "repeat":
      return node.min > 0 && anchoredAtStart(node.body);
    default:
      return false;
  }
}

/** Strongly connected components (Tarjan, iterative); returns each node's component id. */
function components(count: number, next: (n: number) => Iterable<number>): Int32Array {
  const index = new Int32Array(count).fill(-1);
  const low = new Int32Array(count);
  const comp = new Int32Array(count).fill(-1);
  const onStack = new Uint8Array(count);
  const stack: number[] = [];
  let counter = 0;
  let comps = 0;
  for (let root = 0; root < count; root++) {
    if (index[root] !== -1) continue;
    const work: [number, Iterator<number>][] = [[root, next(root)[Symbol.iterator]()]];
    index[root] = low[root] = counter++;
    stack.push(root);
    onStack[root] = 1;
    while (work.length > 0) {
      const [v, it] = work[work.length - 1];
      const step = it.next();
      if (!step.done) {
        const w = step.value;
        if (index[w] === -1) {
          index[w] = low[w] = counter++;
          stack.push(w);
          onStack[w] = 1;
          work.push([w, next(w)[Symbol.iterator]()]);
        } else if (onStack[w]) {
          low[v] = Math.min(low[v], index[w]);
        }
        continue;
      }
      work.pop();
      if (work.length > 0) {
        const parent = work[work.length - 1][0];
        low[parent] = Math.min(low[parent], low[v]);
      }
      if (low[v] === index[v]) {
        let w: number;
        do {
          w = stack.pop()!;
          onStack[w] = 0;
          comp[w] = comps;
        } while (w !== v);
        comps++;
      }
    }
  }
  return comp;
}

/**
 * Why a backtracking matcher could take super-linear time on this pattern,
 * or null when it cannot. Throws RangeError for a pattern too large to vet.
 */
export function backtrackingRisk(node: RegexNode): string | null {
  const nfa = new Positions();
  const root = nfa.build(node);
  if (!anchoredAtStart(node)) {
    // The search loop of RegExp.prototype.test: skip any character, then try.
    const skip = nfa.add(ANY);
    nfa.link([skip], [skip, ...root.first]);
  }
  if (nfa.nullableLoop) {
    return "exponential: a repetition whose body can match nothing can split the same " +
      "text in many ways (as in (a*)* or (x?\\s*)+)";
  }
  const n = nfa.labels.length;
  const follow = nfa.follow;
  const comp = components(n, (p) => follow[p]);
  const looping = (p: number) => [...follow[p]].some((q) => comp[q] === comp[p]);
  const pairs = new Map<number, CharSet>();
  const both = (a: number, b: number): CharSet => {
    const key = a < b ? a * n + b : b * n + a;
    let hit = pairs.get(key);
    if (hit === undefined) {
      hit = intersect(nfa.labels[a], nfa.labels[b]);
      pairs.set(key, hit);
    }
    return hit;
  };
  return exponentialRisk({ n, follow, comp, looping, both }) ??
    polynomialRisk({ n, follow, comp, looping, both, labels: nfa.labels });
}

interface Graph {
  n: number;
  follow: readonly Set<number>[];
  comp: Int32Array;
  looping(p: number): boolean;
  both(a: number, b: number): CharSet;
}

/** Two distinct paths from a state back to itself on one text, inside one component. */
function exponentialRisk(g: Graph): string | null {
  const { n, follow, comp } = g;
  const pairCount = n * n;
  const next = function* (pair: number): Iterable<number> {
    const a = Math.floor(pair / n);
    const b = pair % n;
    for (const a2 of follow[a]) {
      if (comp[a2] !== comp[a]) continue;
      for (const b2 of follow[b]) {
        if (comp[b2] !== comp[b] || comp[b2] !== comp[a2]) continue;
        if (g.both(a2, b2).length > 0) yield a2 * n + b2;
      }
    }
  };
  const pairComp = components(pairCount, (pair) => {
    const a = Math.floor(pair / n);
    const b = pair % n;
    return comp[a] === comp[b] && g.looping(a) ? next(pair) : [];
  });
  const diagonal = new Set<number>();
  for (let p = 0; p < n; p++) if (g.looping(p)) diagonal.add(pairComp[p * n + p]);
  for (let pair = 0; pair < pairCount; pair++) {
    const a = Math.floor(pair / n);
    const b = pair % n;
    if (a !== b && comp[a] === comp[b] && diagonal.has(pairComp[pair])) {
      return "exponential: a repetition can match the same text in more than one way " +
        "(nested or overlapping repetition, as in (a+)+ or (a|a)*)";
    }
  }
  return null;
}

/** p loops, p leads to q, q loops, all on one text: a backtracker retries every split. */
function polynomialRisk(g: Graph & { labels: readonly CharSet[] }): string | null {
  const { n, follow } = g;
  const loops = [...Array(n).keys()].filter(g.looping);
  for (const p of loops) {
    for (const q of loops) {
      if (p === q || !reaches(follow, p, q)) continue;
      if (tripleReach(g, p, q)) {
        return "polynomial: two repetitions, one after the other, can match the same run " +
          "of text (as in \\s*\\s*x, or a*b searched anywhere), so a failing match retries " +
          "every split between them";
      }
    }
  }
  return null;
}

function reaches(follow: readonly Set<number>[], from: number, to: number): boolean {
  const seen = new Set<number>([from]);
  const queue = [from];
  while (queue.length > 0) {
    const v = queue.pop()!;
    for (const w of follow[v]) {
      if (w === to) return true;
      if (!seen.has(w)) {
        seen.add(w);
        queue.push(w);
      }
    }
  }
  return false;
}

/** Is there a text on which (p, p, q) steps to (p, q, q), each walk its own? */
function tripleReach(g: Graph & { labels: readonly CharSet[] }, p: number, q: number): boolean {
  const { n, follow, comp } = g;
  const key = (a: number, b: number, c: number) => (a * n + b) * n + c;
  const seen = new Set<number>([key(p, p, q)]);
  const queue: [number, number, number][] = [[p, p, q]];
  while (queue.length > 0) {
    const [a, b, c] = queue.pop()!;
    for (const a2 of follow[a]) {
      if (comp[a2] !== comp[p]) continue;
      for (const b2 of follow[b]) {
        const ab = g.both(a2, b2);
        if (ab.length === 0) continue;
        for (const c2 of follow[c]) {
          if (comp[c2] !== comp[q] || !intersects(ab, g.labels[c2])) continue;
          if (a2 === p && b2 === q && c2 === q) return true;
          const k = key(a2, b2, c2);
          if (!seen.has(k)) {
            seen.add(k);
            queue.push([a2, b2, c2]);
          }
        }
      }
    }
  }
  return false;
}

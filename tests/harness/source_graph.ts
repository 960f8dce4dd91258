/**
 * The source tree read as a graph of modules, for the layering test: every
 * module's text with comments and literals masked, the imports it makes
 * (static, type-only or dynamic, with their lines), and the checks that walk
 * that graph. Nothing is imported or run; a check takes a graph, so a test can
 * build a small one by hand and prove that a rule fails when it should.
 * @module
 */

/** One module's text with comments removed and string literals masked. */
export interface Masked {
  /** The code, each string literal replaced by `"#N"` or a template by `` `#N` ``. */
  code: string;
  /** The literal values, by N (a template's expressions are shown as `${}`). */
  strings: string[];
}

const REGEX_BEFORE = new Set("(,=:[!&|?{};+-*%<>~^".split(""));
const REGEX_AFTER_WORDS = new Set([
  "return",
  "typeof",
  "case",
  "do",
  "else",
  "in",
  "of",
  "new",
  "delete",
  "void",
  "throw",
  "instanceof",
  "yield",
  "await",
]);

/**
 * Strips comments and masks string, template and regex literals, so a word
 * inside a comment, a JSDoc example or a string (an embedded hook file, say)
 * is never taken for code. Line breaks are kept, so offsets map to lines.
 */
export function mask(source: string): Masked {
  const strings: string[] = [];
  let i = 0;

  function readQuoted(quote: string): string {
    let value = "";
    i++;
    while (i < source.length && source[i] !== quote) {
      if (source[i] === "\\") {
        value += source.slice(i, i + 2);
        i += 2;
      } else {
        value += source[i++];
      }
    }
    i++;
    return value;
  }

  function readTemplate(): { text: string; expressions: string } {
    let text = "";
    let expressions = "";
    i++;
    while (i < source.length && source[i] !== "`") {
      if (source[i] === "\\") {
        text += source.slice(i, i + 2);
        i += 2;
      } else if (source[i] === "$" && source[i + 1] === "{") {
        i += 2;
        expressions += `(${readCode("}")})`;
        i++;
        text += "${}";
      } else {
        text += source[i++];
      }
    }
    i++;
    return { text, expressions };
  }

  function readRegex(): void {
    let inClass = false;
    i++;
    while (i < source.length) {
      const c = source[i];
      if (c === "\\") i += 2;
      else if (c === "[") (inClass = true), i++;
      else if (c === "]") (inClass = false), i++;
      else if (c === "/" && !inClass) break;
      else if (c === "\n") break;
      else i++;
    }
    i++;
    while (i < source.length && /[a-z]/i.test(source[i])) i++;
  }

  function regexAllowed(out: string): boolean {
    const trimmed = out.trimEnd();
    if (trimmed === "") return true;
    if (REGEX_BEFORE.has(trimmed[trimmed.length - 1])) return true;
    const word = /([A-Za-z_$][\w$]*)$/.exec(trimmed)?.[1];
    return word !== undefined && REGEX_AFTER_WORDS.has(word);
  }

  /** Reads code until `stop` (a closing brace at depth zero) or the end. */
  function readCode(stop?: string): string {
    let out = "";
    let depth = 0;
    while (i < source.length) {
      const c = source[i];
      const next = source[i + 1];
      if (stop && c === stop && depth === 0) return out;
      if (c === "{") depth++;
      if (c === "}") depth--;
      if (c === "/" && next === "/") {
        while (i < source.length && source[i] !== "\n") i++;
      } else if (c === "/" && next === "*") {
        const end = source.indexOf("*/", i + 2);
        const stopAt = end < 0 ? source.length : end + 2;
        out += source.slice(i, stopAt).replace(/[^\n]/g, "");
        i = stopAt;
      } else if (c === '"' || c === "'") {
        strings.push(readQuoted(c));
        out += `"#${strings.length - 1}"`;
      } else if (c === "`") {
        const { text, expressions } = readTemplate();
        strings.push(text);
        out += `\`#${strings.length - 1}\`${expressions}`;
      } else if (c === "/" && regexAllowed(out)) {
        readRegex();
        out += "/R/";
      } else {
        out += c;
        i++;
      }
    }
    return out;
  }

  return { code: readCode(), strings };
}

/** A module of the tree, read and masked. */
export interface Module {
  /** The path from the repository root, with `/`. */
  path: string;
  masked: Masked;
  /** Every specifier it imports or re-exports, static or dynamic, with its line. */
  imports: Import[];
}

/** One import or re-export of a module. */
export interface Import {
  specifier: string;
  kind: ImportKind;
  line: number;
}

/** How a module is reached: loaded with its importer, erased at run time, or loaded on demand. */
export type ImportKind = "static" | "type" | "dynamic";

const IMPORT_PATTERNS: [RegExp, ImportKind][] = [
  // import type { X } from "..."; export type { X } from "..."
  [/\b(?:import|export)\s+type\s+[\w\s{},*$]*?\bfrom\s*"#(\d+)"/g, "type"],
  // import x from "..."; export * from "..."; export { x } from "..."
  [/\b(?:import|export)\s+(?!type\s)[\w\s{},*$]*?\bfrom\s*"#(\d+)"/g, "static"],
  // import "...";
  [/\bimport\s*"#(\d+)"/g, "static"],
  // import("...") and import(`...`)
  [/\bimport\s*\(\s*["`]#(\d+)["`]/g, "dynamic"],
];

export function lineOf(text: string, index: number): number {
  return text.slice(0, index).split("\n").length;
}

export function readImports(masked: Masked): Import[] {
  const found: (Import & { index: number })[] = [];
  for (const [pattern, kind] of IMPORT_PATTERNS) {
    for (const match of masked.code.matchAll(pattern)) {
      const specifier = masked.strings[Number(match[1])];
      found.push({ specifier, kind, line: lineOf(masked.code, match.index), index: match.index });
    }
  }
  return found.sort((a, b) => a.index - b.index).map(({ index: _, ...rest }) => rest);
}

/** Every module of a tree (or of a test's hand-made one), by repository path. */
export type Graph = ReadonlyMap<string, Module>;

/**
 * A module read from its text: masked, with its imports.
 *
 * ```ts
 * const module = moduleOf("src/a.ts", 'import { b } from "./b.ts";');
 * module.imports[0].specifier; // "./b.ts"
 * ```
 */
export function moduleOf(path: string, source: string): Module {
  const masked = mask(source);
  return { path, masked, imports: readImports(masked) };
}

/**
 * A graph of hand-written modules, for testing the checks themselves.
 *
 * ```ts
 * const graph = graphOf({ "src/core/a.ts": 'import "../tmux/b.ts";', "src/tmux/b.ts": "" });
 * graph.size; // 2
 * ```
 */
export function graphOf(sources: Record<string, string>): Graph {
  return new Map(Object.entries(sources).map(([path, text]) => [path, moduleOf(path, text)]));
}

const VIRTUAL_ROOT = "file:///repository/";

/**
 * The repository path a relative specifier names, or undefined for any other
 * specifier (`npm:`, `node:`, a URL).
 *
 * ```ts
 * resolveLocal("src/cli/main.ts", "../core/errors.ts"); // "src/core/errors.ts"
 * ```
 */
export function resolveLocal(from: string, specifier: string): string | undefined {
  if (!specifier.startsWith("./") && !specifier.startsWith("../")) return undefined;
  const url = new URL(specifier, new URL(from, VIRTUAL_ROOT));
  return decodeURIComponent(url.pathname.slice(new URL(VIRTUAL_ROOT).pathname.length));
}

/** One local import of a module, resolved. */
export interface Edge {
  from: string;
  to: string;
  kind: ImportKind;
  line: number;
}

/**
 * The local imports of one module, resolved to repository paths.
 *
 * ```ts
 * const graph = graphOf({ "src/a.ts": 'import type { B } from "./b.ts";' });
 * edgesOf(graph, "src/a.ts"); // [{ from: "src/a.ts", to: "src/b.ts", kind: "type", line: 1 }]
 * ```
 */
export function edgesOf(graph: Graph, path: string): Edge[] {
  return (graph.get(path)?.imports ?? []).flatMap(({ specifier, kind, line }) => {
    const to = resolveLocal(path, specifier);
    return to === undefined ? [] : [{ from: path, to, kind, line }];
  });
}

/** Whether an import kind is followed by a walk. */
export type Follow = (kind: ImportKind) => boolean;

const EVERY_KIND: Follow = () => true;

/**
 * The shortest chain of local imports from `start` to a module that
 * `forbidden` names, as a list of paths; undefined when there is none.
 *
 * ```ts
 * const graph = graphOf({ "src/a.ts": 'import "./b.ts";', "src/b.ts": 'import "./c.ts";' });
 * forbiddenChain(graph, "src/a.ts", { forbidden: (p) => p === "src/c.ts" });
 * // ["src/a.ts", "src/b.ts", "src/c.ts"]
 * ```
 */
export function forbiddenChain(
  graph: Graph,
  start: string,
  options: { forbidden: (path: string) => boolean; follow?: Follow },
): string[] | undefined {
  const follow = options.follow ?? EVERY_KIND;
  const seen = new Set([start]);
  const queue: string[][] = [[start]];
  while (queue.length > 0) {
    const chain = queue.shift()!;
    for (const edge of edgesOf(graph, chain[chain.length - 1])) {
      if (!follow(edge.kind) || seen.has(edge.to)) continue;
      seen.add(edge.to);
      if (options.forbidden(edge.to)) return [...chain, edge.to];
      queue.push([...chain, edge.to]);
    }
  }
  return undefined;
}

/**
 * Every import cycle of the graph, one per strongly connected group of
 * modules, each as a closed chain (`[a, b, a]`); empty when the graph is
 * acyclic. Every import kind counts: a type-only or dynamic cycle still ties
 * the two modules together.
 *
 * ```ts
 * const graph = graphOf({ "a.ts": 'import "./b.ts";', "b.ts": 'import("./a.ts");' });
 * importCycles(graph); // [["a.ts", "b.ts", "a.ts"]]
 * ```
 */
export function importCycles(graph: Graph): string[][] {
  // Tarjan's strongly connected components, then one concrete cycle through
  // each component that has more than one module or imports itself.
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const groups: string[][] = [];
  let next = 0;
  const targets = (path: string) =>
    [...new Set(edgesOf(graph, path).map((e) => e.to))].filter((to) => graph.has(to));
  function connect(path: string): void {
    index.set(path, next);
    low.set(path, next);
    next++;
    stack.push(path);
    onStack.add(path);
    for (const to of targets(path)) {
      if (!index.has(to)) {
        connect(to);
        low.set(path, Math.min(low.get(path)!, low.get(to)!));
      } else if (onStack.has(to)) {
        low.set(path, Math.min(low.get(path)!, index.get(to)!));
      }
    }
    if (low.get(path) === index.get(path)) {
      const group: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        group.push(member);
      } while (member !== path);
      if (group.length > 1 || targets(path).includes(path)) groups.push(group);
    }
  }
  for (const path of [...graph.keys()].sort()) if (!index.has(path)) connect(path);
  return groups.map((group) => {
    const start = [...group].sort()[0];
    return cycleFrom(graph, start, new Set(group)) ?? [start, start];
  });
}

/** A shortest closed chain from `start` back to itself inside `members`. */
function cycleFrom(graph: Graph, start: string, members: Set<string>): string[] | undefined {
  const queue: string[][] = [[start]];
  const seen = new Set<string>();
  while (queue.length > 0) {
    const chain = queue.shift()!;
    for (const { to } of edgesOf(graph, chain[chain.length - 1])) {
      if (to === start) return [...chain, start];
      if (!members.has(to) || seen.has(to)) continue;
      seen.add(to);
      queue.push([...chain, to]);
    }
  }
  return undefined;
}

async function* walk(folder: URL): AsyncGenerator<URL> {
  for await (const entry of Deno.readDir(folder)) {
    const url = new URL(entry.name + (entry.isDirectory ? "/" : ""), folder);
    if (entry.isDirectory) yield* walk(url);
    else if (entry.isFile && entry.name.endsWith(".ts")) yield url;
  }
}

/**
 * Reads every `.ts` module of `folders` (those that exist) and the named
 * `files` of the tree at `root` into a graph.
 *
 * ```ts
 * const graph = await loadGraph(new URL("../../", import.meta.url), { folders: ["src/"], files: ["mod.ts"] });
 * graph.has("mod.ts"); // true
 * ```
 */
export async function loadGraph(
  root: URL,
  selection: { folders: readonly string[]; files?: readonly string[] },
): Promise<Map<string, Module>> {
  const urls: URL[] = (selection.files ?? []).map((file) => new URL(file, root));
  for (const folder of selection.folders) {
    const url = new URL(folder, root);
    if ((await Deno.stat(url).catch(() => null))?.isDirectory) {
      for await (const file of walk(url)) urls.push(file);
    }
  }
  const graph = new Map<string, Module>();
  for (const url of urls.sort((a, b) => a.href.localeCompare(b.href))) {
    const path = decodeURIComponent(url.pathname.slice(root.pathname.length));
    graph.set(path, moduleOf(path, await Deno.readTextFile(url)));
  }
  return graph;
}

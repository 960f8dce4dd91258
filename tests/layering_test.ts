/**
 * The layering rules of the source tree, read statically from the text of
 * every module (nothing is imported or run):
 *
 * - `src/core/` is pure: no `Deno.`, no clock, no timers, and no import (even
 *   transitive, even type-only) of `src/tmux/`, `src/runtime/`, `src/cli/`,
 *   `src/install/` or `src/actions/`.
 * - `src/tmux/` is the only code that spawns `tmux` or `ps`, and it imports
 *   nothing from the layers above it.
 * - `src/deps/` is the only place an external package is imported: elsewhere
 *   every specifier is relative (or a `node:` builtin), so no module needs an
 *   import map or a local deno.json.
 *
 * Test files (`*_test.ts`) are held only to the last rule.
 * @module
 */
import { assert, assertEquals } from "./harness/assert.ts";

const ROOT = new URL("../", import.meta.url);

/** One module's text with comments removed and string literals masked. */
interface Masked {
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
function mask(source: string): Masked {
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
interface Module {
  /** The path from the repository root, with `/`. */
  path: string;
  masked: Masked;
  /** Every specifier it imports or re-exports, static or dynamic, with its line. */
  imports: Import[];
}

/** One import or re-export of a module. */
interface Import {
  specifier: string;
  kind: ImportKind;
  line: number;
}

/** How a module is reached: loaded with its importer, erased at run time, or loaded on demand. */
type ImportKind = "static" | "type" | "dynamic";

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

function lineOf(text: string, index: number): number {
  return text.slice(0, index).split("\n").length;
}

function readImports(masked: Masked): Import[] {
  const found: (Import & { index: number })[] = [];
  for (const [pattern, kind] of IMPORT_PATTERNS) {
    for (const match of masked.code.matchAll(pattern)) {
      const specifier = masked.strings[Number(match[1])];
      found.push({ specifier, kind, line: lineOf(masked.code, match.index), index: match.index });
    }
  }
  return found.sort((a, b) => a.index - b.index).map(({ index: _, ...rest }) => rest);
}

async function* walk(folder: URL): AsyncGenerator<URL> {
  for await (const entry of Deno.readDir(folder)) {
    const url = new URL(entry.name + (entry.isDirectory ? "/" : ""), folder);
    if (entry.isDirectory) yield* walk(url);
    else if (entry.isFile && entry.name.endsWith(".ts")) yield url;
  }
}

function relative(url: URL): string {
  return decodeURIComponent(url.pathname.slice(ROOT.pathname.length));
}

async function loadModules(folders: string[], files: string[]): Promise<Map<string, Module>> {
  const urls: URL[] = files.map((file) => new URL(file, ROOT));
  for (const folder of folders) {
    const url = new URL(folder, ROOT);
    if ((await Deno.stat(url).catch(() => null))?.isDirectory) {
      for await (const file of walk(url)) urls.push(file);
    }
  }
  const modules = new Map<string, Module>();
  for (const url of urls) {
    const masked = mask(await Deno.readTextFile(url));
    modules.set(relative(url), { path: relative(url), masked, imports: readImports(masked) });
  }
  return modules;
}

/** The repository path a relative specifier names, or undefined for any other specifier. */
function resolveLocal(from: string, specifier: string): string | undefined {
  if (!specifier.startsWith("./") && !specifier.startsWith("../")) return undefined;
  return relative(new URL(specifier, new URL(from, ROOT)));
}

const isTest = (path: string) => path.endsWith("_test.ts");

const SOURCE = await loadModules(["src/"], ["mod.ts"]);
const EVERYTHING = new Map([...SOURCE, ...await loadModules(["tests/", "scripts/"], [])]);

/**
 * The first chain of local imports from `start` that reaches a file under one
 * of `forbidden`, as a list of paths; undefined when there is none.
 */
function forbiddenChain(
  start: string,
  forbidden: readonly string[],
  follow: (kind: ImportKind) => boolean = () => true,
): string[] | undefined {
  const seen = new Set([start]);
  const queue: string[][] = [[start]];
  while (queue.length > 0) {
    const chain = queue.shift()!;
    const module = SOURCE.get(chain[chain.length - 1]);
    for (const { specifier, kind } of module?.imports ?? []) {
      if (!follow(kind)) continue;
      const target = resolveLocal(module!.path, specifier);
      if (!target || seen.has(target)) continue;
      seen.add(target);
      if (forbidden.some((folder) => target.startsWith(folder))) return [...chain, target];
      queue.push([...chain, target]);
    }
  }
  return undefined;
}

function report(title: string, problems: string[]): void {
  assert(problems.length === 0, `${title}:\n  ${problems.join("\n  ")}`);
}

const ABOVE_CORE = ["src/tmux/", "src/runtime/", "src/cli/", "src/install/", "src/actions/"];
const ABOVE_TMUX = ["src/runtime/", "src/cli/", "src/install/", "src/actions/"];

const IMPURE: [RegExp, string][] = [
  [/\bDeno\s*\./g, "Deno."],
  [/\bDate\s*\.\s*now\b/g, "Date.now"],
  [/\bnew\s+Date\s*\(/g, "new Date("],
  [/\bperformance\s*\.\s*now\b/g, "performance.now"],
  [/\bsetTimeout\b/g, "setTimeout"],
];

Deno.test("the layering test reads imports, not comments or strings", () => {
  const masked = mask([
    '/** import { x } from "../tmux/exec.ts"; Deno.exit() */',
    "// Date.now()",
    'import { a } from "./a.ts";',
    "import type {",
    "  B,",
    '} from "./b.ts";',
    "export * from './c.ts';",
    "const text = \"import { y } from 'npm:y'\";",
    'const re = /"/g; const load = () => import(`./d.ts`);',
    "const cmd = $`tmux ${args} x`;",
    "const when = `${Date.now()}`;",
  ].join("\n"));
  const imports = readImports(masked).map((i) => `${i.line}:${i.specifier}`);
  assert(
    JSON.stringify(imports) === JSON.stringify(["3:./a.ts", "4:./b.ts", "7:./c.ts", "9:./d.ts"]),
    `got ${JSON.stringify(imports)}`,
  );
  assert(!/Deno/.test(masked.code), masked.code);
  assert(/\(Date\.now\(\)\)/.test(masked.code), "a template's expressions stay code");
  assert(masked.strings.includes("tmux ${} x"), JSON.stringify(masked.strings));
});

Deno.test("src/core/ reads no clock, no timer and nothing of Deno", () => {
  const problems: string[] = [];
  for (const module of SOURCE.values()) {
    if (!module.path.startsWith("src/core/") || isTest(module.path)) continue;
    for (const [pattern, name] of IMPURE) {
      for (const match of module.masked.code.matchAll(pattern)) {
        problems.push(`${module.path}:${lineOf(module.masked.code, match.index)} uses ${name}`);
      }
    }
  }
  report("src/core/ must stay pure (every time and every I/O is passed in)", problems);
});

Deno.test("src/core/ imports nothing of tmux, runtime, cli, install or actions, even transitively", () => {
  const problems: string[] = [];
  for (const module of SOURCE.values()) {
    if (!module.path.startsWith("src/core/") || isTest(module.path)) continue;
    const chain = forbiddenChain(module.path, ABOVE_CORE);
    if (chain) problems.push(`${module.path} imports ${chain.at(-1)} (${chain.join(" -> ")})`);
  }
  report("src/core/ must not depend on the layers above it", problems);
});

Deno.test("src/tmux/ imports nothing of runtime, cli, install or actions, even transitively", () => {
  const problems: string[] = [];
  for (const module of SOURCE.values()) {
    if (!module.path.startsWith("src/tmux/") || isTest(module.path)) continue;
    const chain = forbiddenChain(module.path, ABOVE_TMUX);
    if (chain) problems.push(`${module.path} imports ${chain.at(-1)} (${chain.join(" -> ")})`);
  }
  report("src/tmux/ must not depend on the layers above it", problems);
});

/**
 * What `tma status` loads on every status-line poll: the entry, the command,
 * and the loaders its context imports on demand (src/cli/context.ts).
 */
const STATUS_PATH = [
  "mod.ts",
  "src/cli/commands/status.ts",
  "src/runtime/config/load.ts",
  "src/runtime/manifest/load.ts",
  "src/runtime/cycle/snapshot_start.ts",
  "src/tmux/server.ts",
];

Deno.test("D64: the status path loads no zod, TOML or dax at start-up", () => {
  const heavy = ["src/deps/zod.ts", "src/deps/toml.ts", "src/deps/dax.ts", "src/deps/jsonc.ts"];
  const problems: string[] = [];
  for (const start of STATUS_PATH) {
    assert(SOURCE.has(start), `${start} is gone: update STATUS_PATH`);
    // Type-only imports are erased and dynamic ones load on first use, so
    // only static value imports count.
    const chain = forbiddenChain(start, heavy, (kind) => kind === "static");
    if (chain) problems.push(`${chain.join(" -> ")} (load it with import() where it is needed)`);
  }
  report("a status-line poll must not pay for schema or shell libraries", problems);
});

Deno.test("the layering test tells static, type-only and dynamic imports apart", () => {
  const masked = mask(
    'import type { A } from "./a.ts";\nimport { type B, c } from "./b.ts";\n' +
      'export type { D } from "./d.ts";\nexport * from "./e.ts";\nconst f = await import("./f.ts");\n',
  );
  assertEquals(readImports(masked).map((i) => `${i.specifier}:${i.kind}`), [
    "./a.ts:type",
    "./b.ts:static",
    "./d.ts:type",
    "./e.ts:static",
    "./f.ts:dynamic",
  ]);
});

Deno.test("only src/tmux/ spawns tmux or ps", () => {
  const spawns: RegExp[] = [
    /\bDeno\s*\.\s*Command\s*\(\s*["`]#(\d+)["`]/g,
    /\bspawnWithDeadline\s*\(\s*["`]#(\d+)["`]/g,
    /\$\s*`#(\d+)`/g,
  ];
  const problems: string[] = [];
  for (const module of SOURCE.values()) {
    if (module.path.startsWith("src/tmux/") || isTest(module.path)) continue;
    for (const pattern of spawns) {
      for (const match of module.masked.code.matchAll(pattern)) {
        const program = /^\s*(tmux|ps)(?=\s|$)/.exec(module.masked.strings[Number(match[1])]);
        if (!program) continue;
        const line = lineOf(module.masked.code, match.index);
        problems.push(`${module.path}:${line} spawns ${program[1]} (go through src/tmux/)`);
      }
    }
  }
  report("tmux and ps are spawned only by src/tmux/ (the choke point)", problems);
});

Deno.test("external packages are imported only in src/deps/, by relative path everywhere else", () => {
  const problems: string[] = [];
  for (const module of EVERYTHING.values()) {
    if (module.path.startsWith("src/deps/")) continue;
    for (const { specifier, line } of module.imports) {
      if (/^(\.\.?\/|node:)/.test(specifier)) continue;
      const kind = /^(npm|jsr|https?):/.exec(specifier)?.[1] ?? "bare";
      problems.push(`${module.path}:${line} imports ${kind} specifier "${specifier}"`);
    }
  }
  report(
    "import external packages through a file of src/deps/ (full pinned npm: specifiers)",
    problems,
  );
});

Deno.test("every relative import of src/ names a file that exists", async () => {
  const problems: string[] = [];
  for (const module of SOURCE.values()) {
    for (const { specifier, line } of module.imports) {
      const target = resolveLocal(module.path, specifier);
      if (!target) continue;
      if (!(await Deno.stat(new URL(target, ROOT)).catch(() => null))?.isFile) {
        problems.push(`${module.path}:${line} imports ${specifier}, which does not exist`);
      }
    }
  }
  report("broken relative imports (a bundle or a compiled binary would fail on them)", problems);
});

/**
 * The layout of the single-file bundle: which code is parsed when
 * `dist/tma.js` starts, and which waits inside the file until a command asks
 * for it (issue 14, item 3).
 *
 * Every start of the bundle pays for the size of its text: Deno copies the
 * file several times on its way to V8 (about 6 ms per MiB here, even for a
 * comment), and V8's code cache grows with every function it finds. zod and
 * re2js are more than half of the minified program, and only a user's own
 * manifests and config, and the telemetry readers, use them. A
 * {@link LAZY_CHUNKS} module (a `src/deps/` module, which imports only its
 * package) is therefore bundled on its own and kept in the main file as a
 * gzipped string inside a function that never runs at start-up, so V8
 * neither compiles it nor caches it; the build maps the module, wherever it
 * is imported, to a stand-in (an import map) whose top-level await loads the
 * chunk on first use.
 *
 * `deno bundle` also hoists a bundled package's `node:` imports to the top
 * of the file, where they are static: importing any `node:` module starts
 * Deno's Node compatibility layer, about an empty script's start-up again,
 * which the module graph never pays on the hook, status or version paths.
 * The layout drops the `node:module` banner `deno bundle` writes for
 * CommonJS `require` calls when nothing calls `require`, and fails the build
 * on any static `node:` import left at start-up.
 *
 * ```ts
 * const main = 'const { z } = await import("tma-lazy:src/deps/zod.ts");';
 * const chunk = "var a = 1; export { a as z };";
 * const out = await layoutBundle(main, new Map([["src/deps/zod.ts", chunk]]));
 * out.includes('__tmaLazyChunk("src/deps/zod.ts")'); // true
 * ```
 * @module
 */

/** A module kept out of the start-up parse, and why. */
export interface LazyChunk {
  /** Its path from the repository root: a module of `src/deps/`. */
  path: string;
  /** Why it is kept apart, for whoever changes the table. */
  why: string;
}

/**
 * The modules the bundle carries as lazy chunks. Each must be a `src/deps/`
 * module that imports only its package and exports values by name
 * (`export { a, b as c } from "npm:..."`), which the build checks.
 */
export const LAZY_CHUNKS: readonly LazyChunk[] = [
  {
    path: "src/deps/zod.ts",
    why: "440 KiB minified; only user manifests and config, actions' outcomes and the " +
      "telemetry readers validate with it, never a hook, status or version start-up",
  },
  {
    path: "src/deps/re2js.ts",
    why: "150 KiB minified; only a user manifest's patterns run on it (R10)",
  },
];

/** The scheme the stand-ins import a chunk by; the layout turns each into a loader call. */
export const LAZY_SCHEME = "tma-lazy:";

/**
 * The value names a `src/deps/` module exports (`export { a, b as c } from
 * "npm:..."` gives `a` and `c`); type-only exports are left out. Throws when
 * the module does anything else, which a stand-in could not reproduce.
 *
 * ```ts
 * exportedNames('export { parse as parseToml, TomlError } from "npm:smol-toml@1.9.1";');
 * // ["parseToml", "TomlError"]
 * ```
 */
export function exportedNames(source: string, path = "the module"): string[] {
  const code = source.replace(/\/\*[\s\S]*?\*\//g, "").replace(/^\s*\/\/.*$/gm, "");
  const names: string[] = [];
  for (const statement of code.split(";").map((s) => s.trim()).filter(Boolean)) {
    if (/^export\s+type\s*\{/.test(statement)) continue;
    const match = /^export\s*\{([^}]*)\}\s*from\s*["']npm:[^"']+["']$/.exec(statement);
    if (!match) {
      throw new BundleLayoutError(
        `${path}: a lazy chunk may only re-export its package by name ` +
          `(export { a, b as c } from "npm:..."), not: ${statement.split("\n")[0]}`,
      );
    }
    for (const item of match[1].split(",").map((s) => s.trim()).filter(Boolean)) {
      if (item.startsWith("type ")) continue;
      names.push(item.split(/\s+as\s+/).pop()!.trim());
    }
  }
  if (names.length === 0) throw new BundleLayoutError(`${path} exports no value`);
  return names;
}

/**
 * The stand-in the import map puts in a chunk's place: the same value
 * exports, read from the chunk once it is loaded (a top-level await, so
 * whatever imports it waits for it, in the bundle as in any module graph).
 *
 * ```ts
 * standInSource("src/deps/zod.ts", ["z"]);
 * // 'export const { z } = await import("tma-lazy:src/deps/zod.ts");\n'
 * ```
 */
export function standInSource(path: string, names: readonly string[]): string {
  return `export const { ${names.join(", ")} } = await import(${
    JSON.stringify(LAZY_SCHEME + path)
  });\n`;
}

/**
 * The banner `deno bundle --platform deno` writes for bundled CommonJS
 * `require` calls; it imports `node:module` at start-up.
 */
const REQUIRE_BANNER =
  'import { createRequire as __deno_internal_createRequire } from "node:module";\n' +
  "var __require = __deno_internal_createRequire(import.meta.url);\n";

/**
 * The specifiers of the static imports at the top of a bundle (after a
 * shebang line), where `deno bundle` hoists all of them, minified or not.
 *
 * ```ts
 * staticImports('import{a}from"node:fs";import "./b.js";var x=1;'); // ["node:fs", "./b.js"]
 * ```
 */
export function staticImports(body: string): string[] {
  let rest = body.startsWith("#!") ? body.slice(body.indexOf("\n") + 1) : body;
  const specifiers: string[] = [];
  const statement = /^\s*(?:\/\/[^\n]*\n\s*)*import\s*(?:[^"';]*?\bfrom\s*)?(["'])([^"']+)\1\s*;?/;
  for (;;) {
    const match = statement.exec(rest);
    if (!match) return specifiers;
    specifiers.push(match[2]);
    rest = rest.slice(match[0].length);
  }
}

/**
 * The loader the main file carries: each chunk, gzipped and in base64, inside
 * a function that runs only when the chunk is first asked for (so neither
 * V8's start-up parse nor its code cache holds it), inflated and compiled
 * once as a function returning its exports. Not imported as a module: Deno
 * would parse a `data:` module again for its imports on every run, which
 * cost a user manifest's `tma ls` 50 ms more here than the chunk inline.
 */
function loaderSource(chunks: ReadonlyMap<string, string>): string {
  const cases = [...chunks].map(([path, packed]) =>
    `    case ${JSON.stringify(path)}: return ${JSON.stringify(packed)};`
  );
  return [
    "// Lazy chunks (scripts/bundle_layout.ts): parsed and evaluated on first use only.",
    "function __tmaChunkSource(path) {",
    "  switch (path) {",
    ...cases,
    "  }",
    "}",
    "var __tmaChunkModules = new Map();",
    "function __tmaLazyChunk(path) {",
    "  let module = __tmaChunkModules.get(path);",
    "  if (module === undefined) {",
    "    const packed = new Blob([Uint8Array.fromBase64(__tmaChunkSource(path))]);",
    '    module = new Response(packed.stream().pipeThrough(new DecompressionStream("gzip")))',
    "      .text()",
    "      .then((body) => new Function(body)());",
    "    __tmaChunkModules.set(path, module);",
    "  }",
    "  return module;",
    "}",
    "",
  ].join("\n");
}

/**
 * A chunk's own bundle as the body of a strict function that returns its
 * exports (`export { a as z };` becomes `return { z: a };`). Throws when the
 * chunk imports anything, reads `import.meta`, or does not parse as a
 * function body (a top-level await).
 *
 * ```ts
 * chunkBody("var a = 1; export { a as z };", "src/deps/zod.ts");
 * // '"use strict";\nvar a = 1; \nreturn { "z": a };'
 * ```
 */
export function chunkBody(source: string, path: string): string {
  const imports = staticImports(source);
  if (imports.length > 0) {
    throw new BundleLayoutError(
      `${path}: a lazy chunk cannot import anything (it imports ${imports.join(", ")})`,
    );
  }
  if (/\bimport\.meta\b/.test(source)) {
    throw new BundleLayoutError(`${path}: a lazy chunk cannot read import.meta`);
  }
  // esbuild ends a bundle with its one export statement (and maybe a licence comment).
  const exports = /\bexport\s*\{([^}]*)\}\s*;?(?:\s|\/\*[\s\S]*?\*\/|\/\/[^\n]*)*$/.exec(source);
  if (!exports) {
    throw new BundleLayoutError(`${path}: its bundle does not end with one export statement`);
  }
  const fields = exports[1].split(",").map((item) => item.trim()).filter(Boolean).map((item) => {
    const [local, exported = local] = item.split(/\s+as\s+/).map((name) => name.trim());
    return `${JSON.stringify(exported)}: ${local}`;
  });
  const body = `"use strict";\n${source.slice(0, exports.index)}\nreturn { ${fields.join(", ")} };`;
  try {
    new Function(body);
  } catch (error) {
    throw new BundleLayoutError(`${path}: its bundle does not run as a function body (${error})`);
  }
  return body;
}

/**
 * A chunk's body as the loader carries it: gzipped, in base64.
 *
 * ```ts
 * const packed = await packChunk('"use strict";\nreturn { z: 1 };');
 * packed.length > 0; // true
 * ```
 */
export async function packChunk(body: string): Promise<string> {
  const gzipped = new Blob([body]).stream().pipeThrough(new CompressionStream("gzip"));
  return new Uint8Array(await new Response(gzipped).arrayBuffer()).toBase64();
}

/** Thrown when the bundle cannot be laid out as the table asks; the message says the fix. */
export class BundleLayoutError extends Error {
  override name = "BundleLayoutError";
}

/**
 * Rewrites `main` (bundled with each chunk's stand-in in its place) so every
 * stand-in's import of a chunk goes through the embedded loader, and
 * `chunks` (path to its own bundle) become the loader's table. Throws when a
 * chunk is never imported, or when a static `node:` import would remain.
 */
export async function layoutBundle(
  main: string,
  chunks: ReadonlyMap<string, string>,
): Promise<string> {
  let body = main;
  const rewritten = new Map<string, string>();
  for (const [path, source] of chunks) {
    const specifier = new RegExp(
      `import\\(\\s*["']${escapeRegExp(LAZY_SCHEME + path)}["']\\s*\\)`,
      "g",
    );
    if ((body.match(specifier)?.length ?? 0) === 0) {
      throw new BundleLayoutError(
        `${path} is never imported: drop it from LAZY_CHUNKS in scripts/bundle_layout.ts`,
      );
    }
    body = body.replace(specifier, `__tmaLazyChunk(${JSON.stringify(path)})`);
    rewritten.set(path, await packChunk(chunkBody(source, path)));
  }
  // With the chunks out, nothing may call require: the banner goes too.
  if (body.includes(REQUIRE_BANNER) && !/\b__require\(/.test(body.replace(REQUIRE_BANNER, ""))) {
    body = body.replace(REQUIRE_BANNER, "");
  }
  const node = staticImports(body).find((specifier) => specifier.startsWith("node:"));
  if (node !== undefined) {
    throw new BundleLayoutError(
      `the bundle's start-up still imports a node: module (${node}): ` +
        "find the package that brings it and add its src/deps/ module to LAZY_CHUNKS",
    );
  }
  return rewritten.size === 0 ? body : insertAfterPreamble(body, loaderSource(rewritten));
}

/** Puts `text` after a leading shebang line, if any. */
function insertAfterPreamble(body: string, text: string): string {
  if (!body.startsWith("#!")) return text + body;
  const end = body.indexOf("\n") + 1;
  return body.slice(0, end) + text + body.slice(end);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

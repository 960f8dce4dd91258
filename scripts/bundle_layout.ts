/**
 * The layout of the single-file bundle: which code is parsed and evaluated
 * when `dist/tma.js` starts, and which waits inside the file until a command
 * asks for it (issue 14, item 3).
 *
 * `deno bundle` inlines a dynamically imported module as a lazily evaluated
 * function, but hoists that module's own `node:` imports to the top of the
 * file, where they are static. Importing any `node:` module starts Deno's
 * Node compatibility layer, which costs a start-up about as much again as an
 * empty script: the module graph never pays it on the hook, status or
 * version paths, so the bundle must not either. A {@link LAZY_CHUNKS} module
 * is therefore bundled on its own, kept in the main file as a string, and
 * imported from a `data:` URL the first time the code asks for it.
 *
 * ```ts
 * const main = 'const { $ } = await import("../deps/dax.ts");';
 * const out = layoutBundle(main, new Map([["src/deps/dax.ts", "export const $ = 1;"]]));
 * out.includes('__tmaLazyChunk("src/deps/dax.ts")'); // true
 * ```
 * @module
 */

/** A module kept out of the start-up parse, and why. */
export interface LazyChunk {
  /** Its path from the repository root. */
  path: string;
  /** Why it is kept apart, for whoever changes the table. */
  why: string;
}

/**
 * The modules the bundle carries as lazy chunks. Each must be self-contained
 * (only package imports) and imported only dynamically (`await
 * import(...)`), which the build checks.
 */
export const LAZY_CHUNKS: readonly LazyChunk[] = [
  // Empty since issue 13 took dax off the cold tmux path: dax-sh carried
  // @deno/shim-deno, whose node: imports started the Node layer on every
  // run of the bundle. A package like it goes here, by its src/deps/ module.
];

/** The pattern `deno bundle --external` takes for a chunk: any importer's relative path to it. */
export function externalPattern(chunk: LazyChunk): string {
  return `*/${chunk.path.split("/").slice(-2).join("/")}`;
}

/**
 * The banner `deno bundle --platform deno` writes for bundled CommonJS
 * `require` calls; it imports `node:module` at start-up.
 */
const REQUIRE_BANNER =
  'import { createRequire as __deno_internal_createRequire } from "node:module";\n' +
  "var __require = __deno_internal_createRequire(import.meta.url);\n";

/** What a lazy chunk's own require banner reads the host file's URL from. */
const HOST_URL = "__TMA_BUNDLE_URL__";

/** A static `node:` import at the start of a line: what the start-up must not hold. */
const STATIC_NODE_IMPORT = /^import\b[^;\n]*\bfrom\s*["']node:[^"']+["'];?$/m;

/** The loader the main file carries: one `data:` URL import per chunk, made once. */
function loaderSource(chunks: ReadonlyMap<string, string>): string {
  const table = [...chunks].map(([path, source]) =>
    `  ${JSON.stringify(path)}: ${JSON.stringify(source)},`
  );
  return [
    "// Lazy chunks (scripts/bundle_layout.ts): evaluated on first use only.",
    "var __tmaChunkSources = {",
    ...table,
    "};",
    "var __tmaChunkModules = new Map();",
    "function __tmaLazyChunk(path) {",
    "  let module = __tmaChunkModules.get(path);",
    "  if (module === undefined) {",
    `    const source = __tmaChunkSources[path].replace(${JSON.stringify(HOST_URL)}, ` +
    "JSON.stringify(import.meta.url));",
    '    module = import("data:text/javascript," + encodeURIComponent(source));',
    "    __tmaChunkModules.set(path, module);",
    "  }",
    "  return module;",
    "}",
    "",
  ].join("\n");
}

/** Thrown when the bundle cannot be laid out as the table asks; the message says the fix. */
export class BundleLayoutError extends Error {
  override name = "BundleLayoutError";
}

/**
 * Rewrites `main` (bundled with each chunk external) so every dynamic import
 * of a chunk goes through the embedded loader, and `chunks` (path to its own
 * bundle) become the loader's table. Throws when a chunk is imported
 * statically or not at all, or when a static `node:` import would remain.
 */
export function layoutBundle(main: string, chunks: ReadonlyMap<string, string>): string {
  let body = main;
  const rewritten = new Map<string, string>();
  for (const [path, source] of chunks) {
    const tail = path.split("/").slice(-2).join("/");
    const specifier = new RegExp(
      `import\\(\\s*["'](?:\\.\\.?/)+${escapeRegExp(tail)}["']\\s*\\)`,
      "g",
    );
    if (new RegExp(`from\\s*["'](?:\\.\\.?/)+${escapeRegExp(tail)}["']`).test(body)) {
      throw new BundleLayoutError(
        `${path} is imported statically; import it with await import(...) so it stays a lazy chunk`,
      );
    }
    const uses = body.match(specifier)?.length ?? 0;
    if (uses === 0) {
      throw new BundleLayoutError(
        `${path} is never imported dynamically: drop it from LAZY_CHUNKS in scripts/bundle_layout.ts`,
      );
    }
    body = body.replace(specifier, `__tmaLazyChunk(${JSON.stringify(path)})`);
    rewritten.set(path, withHostUrl(source));
  }
  // With the chunks out, nothing may call require: the banner goes too.
  if (body.includes(REQUIRE_BANNER) && !/\b__require\(/.test(body.replace(REQUIRE_BANNER, ""))) {
    body = body.replace(REQUIRE_BANNER, "");
  }
  const left = STATIC_NODE_IMPORT.exec(body);
  if (left !== null) {
    throw new BundleLayoutError(
      `the bundle's start-up still imports a node: module (${left[0].trim()}): ` +
        "find the package that brings it and add its src/deps/ module to LAZY_CHUNKS",
    );
  }
  return rewritten.size === 0 ? body : insertAfterPreamble(body, loaderSource(rewritten));
}

/**
 * A chunk runs from a `data:` URL, which `createRequire` cannot take: its
 * require banner gets the host file's URL instead.
 */
function withHostUrl(source: string): string {
  return source.replace(
    "__deno_internal_createRequire(import.meta.url)",
    `__deno_internal_createRequire(${HOST_URL})`,
  );
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

/**
 * The bundle's layout (scripts/bundle_layout.ts): a lazy chunk's stand-in
 * loads it through the embedded loader, once, on first use; the chunk's text
 * sits where start-up never parses it; and a layout that would leave a
 * static `node:` import at start-up, a chunk nothing imports, or a chunk the
 * loader cannot run, fails the build with the fix in its message.
 * @module
 */
import { assert, assertEquals, assertMatch, assertThrows } from "./harness/assert.ts";
import {
  BundleLayoutError,
  chunkBody,
  exportedNames,
  layoutBundle,
  LAZY_CHUNKS,
  standInSource,
  staticImports,
} from "../scripts/bundle_layout.ts";

const CHUNK = "var counter = 0;\nfunction next() { return ++counter; }\nexport { next as tick };\n";
const chunks = new Map([["src/deps/zod.ts", CHUNK]]);

Deno.test("layoutBundle: a stand-in's import goes through the loader; the chunk is packed out of sight", async () => {
  const main = "#!/usr/bin/env -S deno run\n" +
    'export const { tick } = await import("tma-lazy:src/deps/zod.ts");\n';
  const out = await layoutBundle(main, chunks);
  assert(out.startsWith("#!/usr/bin/env -S deno run\n"), "the shebang stays first");
  assert(!out.includes('import("tma-lazy:'), out);
  assert(out.includes('await __tmaLazyChunk("src/deps/zod.ts")'), out);
  // Gzipped: the chunk's text is nowhere in the file.
  assert(!out.includes("counter"), out);
});

Deno.test("layoutBundle: the loader evaluates a chunk once, on first use, with its exports", async () => {
  const main =
    'export async function load() { return await import("tma-lazy:src/deps/zod.ts"); }\n';
  const source = await layoutBundle(main, chunks);
  const url = `data:text/javascript,${encodeURIComponent(source)}`;
  const { load } = await import(url);
  const first = await load();
  assertEquals(first.tick(), 1);
  const again = await load();
  assertEquals(again.tick(), 2, "the chunk ran twice");
  assertEquals(Object.keys(again), ["tick"]);
});

Deno.test("layoutBundle: a chunk nothing imports is refused", async () => {
  const error = await layoutBundle("export {};\n", chunks).then(() => null, (e) => e);
  assert(error instanceof BundleLayoutError, String(error));
  assertMatch(error.message, /drop it from LAZY_CHUNKS/);
});

Deno.test("layoutBundle: a static node: import left at start-up is refused, minified or not", async () => {
  for (
    const main of [
      'import * as net from "node:net";\nawait import("tma-lazy:src/deps/zod.ts");\nnet;\n',
      'import{a as b}from"./x.js";import*as n from"node:net";await import("tma-lazy:src/deps/zod.ts");',
    ]
  ) {
    const error = await layoutBundle(main, chunks).then(() => null, (e) => e);
    assert(error instanceof BundleLayoutError, String(error));
    assertMatch(error.message, /still imports a node: module \(node:net\)/);
  }
});

Deno.test("layoutBundle: the require banner goes when nothing calls require, and stays otherwise", async () => {
  const banner = 'import { createRequire as __deno_internal_createRequire } from "node:module";\n' +
    "var __require = __deno_internal_createRequire(import.meta.url);\n";
  const lazy = 'await import("tma-lazy:src/deps/zod.ts");\n';
  assert(!(await layoutBundle(banner + lazy, chunks)).includes("node:module"));
  const error = await layoutBundle(banner + 'var p = __require("node:path");\n' + lazy, chunks)
    .then(() => null, (e) => e);
  assert(error instanceof BundleLayoutError, String(error));
  assertMatch(error.message, /node:module/);
});

Deno.test("chunkBody: a chunk that imports, reads import.meta or awaits at its top is refused", () => {
  const cases: [string, RegExp][] = [
    ['import{x}from"./y.js";export{x};', /cannot import anything \(it imports \.\/y\.js\)/],
    ["var u = import.meta.url; export { u };", /cannot read import\.meta/],
    ["var v = await 1; export { v };", /does not run as a function body/],
    ["var w = 1;", /does not end with one export statement/],
  ];
  for (const [source, message] of cases) {
    const error = assertThrows(() => chunkBody(source, "src/deps/x.ts"), BundleLayoutError);
    assertMatch(error.message, message);
  }
  // A licence comment after the export statement is fine.
  assert(chunkBody("var a = 1; export { a as b };\n/*! MIT */\n", "src/deps/x.ts"));
});

Deno.test("exportedNames: a deps module's value exports, and nothing else it could do", () => {
  assertEquals(
    exportedNames(
      '/** doc */\nexport { parse as parseToml, TomlError } from "npm:smol-toml@1.9.1";\n' +
        'export type { X } from "npm:smol-toml@1.9.1";\n',
    ),
    ["parseToml", "TomlError"],
  );
  assertThrows(() => exportedNames("export const a = 1;\n", "src/deps/a.ts"), BundleLayoutError);
  assertEquals(
    standInSource("src/deps/zod.ts", ["z"]),
    'export const { z } = await import("tma-lazy:src/deps/zod.ts");\n',
  );
});

Deno.test("LAZY_CHUNKS: every chunk is a src/deps/ module a stand-in can replace", async () => {
  for (const chunk of LAZY_CHUNKS) {
    assert(chunk.path.startsWith("src/deps/"), chunk.path);
    const source = await Deno.readTextFile(new URL(`../${chunk.path}`, import.meta.url));
    assert(exportedNames(source, chunk.path).length > 0);
  }
});

Deno.test("staticImports: the hoisted imports of a bundle, minified or not", () => {
  assertEquals(staticImports('#!/bin/x\nimport{a}from"node:fs";import "./b.js";var x=1;'), [
    "node:fs",
    "./b.js",
  ]);
  assertEquals(staticImports("var x = 'import \"node:fs\"';"), []);
});

/**
 * The bundle's layout (scripts/bundle_layout.ts): a lazy chunk's dynamic
 * imports go through the embedded loader, and a layout that would leave a
 * static `node:` import at start-up, or a chunk imported statically, fails
 * the build with the fix in its message.
 * @module
 */
import { assert, assertEquals, assertMatch, assertThrows } from "./harness/assert.ts";
import { BundleLayoutError, layoutBundle } from "../scripts/bundle_layout.ts";

const BANNER = 'import { createRequire as __deno_internal_createRequire } from "node:module";\n' +
  "var __require = __deno_internal_createRequire(import.meta.url);\n";
const CHUNK = BANNER + 'var fs = __require("node:fs");\nexport const $ = fs;\n';
const chunks = new Map([["src/deps/dax.ts", CHUNK]]);

Deno.test("layoutBundle: a chunk's dynamic import goes through the loader, the banner goes", () => {
  const main = "#!/usr/bin/env -S deno run\n" + BANNER +
    'async function cold() { const { $ } = await import("../deps/dax.ts"); return $; }\n';
  const out = layoutBundle(main, chunks);
  assert(out.startsWith("#!/usr/bin/env -S deno run\n"), "the shebang stays first");
  assert(!out.includes('import("../deps/dax.ts")'), out);
  assert(out.includes('await __tmaLazyChunk("src/deps/dax.ts")'), out);
  assert(!/^import .*from "node:/m.test(out), "a static node: import is left");
  // The chunk itself keeps its require, reading the host file's URL.
  assert(out.includes("__deno_internal_createRequire(__TMA_BUNDLE_URL__)"), out);
});

Deno.test("layoutBundle: the loader evaluates a chunk once, on first use", async () => {
  const main = 'export async function cold() { return (await import("../deps/dax.ts")).$; }\n';
  const source = layoutBundle(main, new Map([["src/deps/dax.ts", "export const $ = {};\n"]]));
  const url = `data:text/javascript,${encodeURIComponent(source)}`;
  const { cold } = await import(url);
  const first = await cold();
  assertEquals(await cold(), first);
});

Deno.test("layoutBundle: a static import of a chunk is refused", () => {
  const main = 'import { $ } from "../deps/dax.ts";\nawait import("../deps/dax.ts");\n';
  const error = assertThrows(() => layoutBundle(main, chunks), BundleLayoutError);
  assertMatch(error.message, /imported statically; import it with await import/);
});

Deno.test("layoutBundle: a chunk nothing imports is refused", () => {
  const error = assertThrows(() => layoutBundle("export {};\n", chunks), BundleLayoutError);
  assertMatch(error.message, /drop it from LAZY_CHUNKS/);
});

Deno.test("layoutBundle: a static node: import left at start-up is refused", () => {
  const main = 'import * as net from "node:net";\nawait import("../deps/dax.ts");\nnet;\n';
  const error = assertThrows(() => layoutBundle(main, chunks), BundleLayoutError);
  assertMatch(error.message, /still imports a node: module \(import \* as net from "node:net";\)/);
});

Deno.test("layoutBundle: the require banner stays while the main file still calls require", () => {
  const main = BANNER + 'var p = __require("node:path");\nawait import("../deps/dax.ts");\n';
  assertThrows(() => layoutBundle(main, chunks), BundleLayoutError, "node:module");
});

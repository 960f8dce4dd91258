/**
 * The generated `src/assets/bundled.ts` must match `manifests/` and `integrations/`:
 * the compiled binary, the bundle and a run from a URL read the manifests
 * only through it (U45).
 * @module
 */
import { assert } from "./harness/assert.ts";
import { renderBundledAssets, renderPrevalidatedAssets } from "../scripts/embed_assets.ts";

Deno.test("deno task embed U45: src/assets/bundled.ts is current with manifests/ and integrations/", async () => {
  const file = new URL("../src/assets/bundled.ts", import.meta.url);
  const current = await Deno.readTextFile(file).catch(() => "");
  const expected = await renderBundledAssets();
  assert(
    current === expected,
    `${file.pathname} is stale (it differs from manifests/ and integrations/): run \`deno task embed\``,
  );
});

Deno.test("deno task embed D64: src/assets/prevalidated.ts is current with manifests/ and the config schema", async () => {
  const file = new URL("../src/assets/prevalidated.ts", import.meta.url);
  const current = await Deno.readTextFile(file).catch(() => "");
  const expected = await renderPrevalidatedAssets();
  assert(
    current === expected,
    `${file.pathname} is stale (it differs from manifests/ or the config defaults): ` +
      "run `deno task embed`",
  );
});

/**
 * The generated `src/assets/bundled.ts` must match `manifests/` and `integrations/`:
 * the compiled binary, the bundle and a run from a URL read the manifests
 * only through it (U45).
 * @module
 */
import { assert } from "./harness/assert.ts";
import {
  patternRisks,
  renderBundledAssets,
  renderPrevalidatedAssets,
  renderPrevalidatedHookAssets,
} from "../scripts/embed_assets.ts";

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

Deno.test("deno task embed D64: src/assets/prevalidated_hooks.ts is current with manifests/", async () => {
  const file = new URL("../src/assets/prevalidated_hooks.ts", import.meta.url);
  const current = await Deno.readTextFile(file).catch(() => "");
  assert(
    current === await renderPrevalidatedHookAssets(),
    `${file.pathname} is stale (it differs from manifests/): run \`deno task embed\``,
  );
});

Deno.test("deno task embed R11: a bundled pattern that can backtrack super-linearly is refused", async () => {
  const { encodeValidated } = await import("../src/core/prevalidated.ts");
  const { parseAgentManifest } = await import("../src/core/manifest/parse.ts");
  const text = 'min_engine_version = "0.1.0"\n[identity]\nprocess_names = ["x"]\n' +
    '[capture]\nvisible = ["working"]\n[[rules]]\nstate = "working"\npriority = 1\n' +
    "region = \"visible\"\nmatch = { line_regex = '(a+)+$' }\n";
  const agents = { x: parseAgentManifest(text, { path: "bundled:manifests/x.toml", stem: "x" }) };
  const risks = patternRisks(encodeValidated(agents), "manifests/");
  assert(risks.length === 1, risks.join("\n"));
  assert(risks[0].startsWith('manifests/x.toml: rules[0].match.line_regex: pattern "(a+)+$"'));
  assert(risks[0].includes("exponential"), risks[0]);
});

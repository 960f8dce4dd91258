/**
 * Runs every real capture in `../shared/fixtures/captures/` (read-only
 * evidence kept next to the repository) through `classifyScreen` with the
 * bundled manifest of its `# agent:`, and checks its `# state:` header. A
 * header of `unknown` means the screen alone asserts neither blocked nor
 * working (see `src/core/rules/fixture_check.ts`). Skips when `../shared`
 * is absent.
 */
import { assertEquals } from "./harness/assert.ts";
import { parseAgentManifest, type ParsedAgentManifest } from "../src/core/manifest/parse.ts";
import { checkScreenFile } from "../src/core/rules/fixture_check.ts";
import { parseScreenFile } from "../src/core/rules/screen_file.ts";

const REPO = new URL("../", import.meta.url);
const CAPTURES = new URL("../../shared/fixtures/captures/", import.meta.url);

function listCaptures(): string[] {
  try {
    return [...Deno.readDirSync(CAPTURES)]
      .filter((e) => e.isFile && e.name.endsWith(".txt"))
      .map((e) => e.name)
      .sort();
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) return [];
    throw err;
  }
}

const names = listCaptures();
const manifests = new Map<string, ParsedAgentManifest>();

function manifestFor(agent: string): ParsedAgentManifest {
  let m = manifests.get(agent);
  if (!m) {
    const url = new URL(`manifests/${agent}.toml`, REPO);
    m = parseAgentManifest(Deno.readTextFileSync(url), { path: url.pathname, stem: agent });
    manifests.set(agent, m);
  }
  return m;
}

if (names.length === 0) {
  Deno.test({
    name: "shared captures classify as their headers say",
    ignore: true,
    fn() {},
  });
  console.log(`note: ${CAPTURES.pathname} is absent; shared capture tests skipped`);
}

for (const name of names) {
  Deno.test(`classifyScreen() M27: shared capture ${name} classifies as its header says`, () => {
    const file = parseScreenFile(Deno.readTextFileSync(new URL(name, CAPTURES)), name);
    assertEquals(checkScreenFile(manifestFor(file.agent), file), []);
  });
}

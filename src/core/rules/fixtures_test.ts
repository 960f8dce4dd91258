/**
 * M27: every screen fixture of our own (`fixtures/screens/`) and every
 * recorded real screen (`fixtures/real/`) classifies as its header says, and
 * every bundled rule is backed by two firing fixtures at two widths (our
 * pinned screens and the recorded real ones both count) plus one look-alike
 * of our own it stays silent on.
 */
import { assertEquals } from "../../../tests/harness/assert.ts";
import { parseAgentManifest, type ParsedAgentManifest } from "../manifest/parse.ts";
import { classifyScreen } from "./classify.ts";
import { checkScreenFile, parseRulePins } from "./fixture_check.ts";
import { parseScreenFile, type ScreenFile } from "./screen_file.ts";

const REPO = new URL("../../../", import.meta.url);
const AGENTS = ["claude", "codex", "cursor", "gemini", "opencode", "pi"] as const;

const manifests = new Map<string, ParsedAgentManifest>(
  AGENTS.map((agent) => {
    const url = new URL(`manifests/${agent}.toml`, REPO);
    return [
      agent,
      parseAgentManifest(Deno.readTextFileSync(url), { path: url.pathname, stem: agent }),
    ];
  }),
);

interface Fixture {
  folder: string;
  name: string;
  file: ScreenFile;
}

function loadFolder(folder: string): Fixture[] {
  const dir = new URL(folder, REPO);
  let names: string[];
  try {
    names = [...Deno.readDirSync(dir)]
      // Screen fixtures are named `<agent>_<state>[_<variant>]_w<width>.txt`;
      // other files there (process trees) are not screens.
      .filter((e) => e.isFile && /_w\d+\.txt$/.test(e.name))
      .map((e) => e.name)
      .sort();
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) return [];
    throw err;
  }
  return names.map((name) => ({
    folder,
    name,
    file: parseScreenFile(Deno.readTextFileSync(new URL(name, dir)), `${folder}${name}`),
  }));
}

const own = loadFolder("fixtures/screens/");
const real = loadFolder("fixtures/real/");

function widthOf(name: string): number | null {
  const m = /_w(\d+)\b/.exec(name);
  return m ? Number(m[1]) : null;
}

for (const { folder, name, file } of [...own, ...real]) {
  Deno.test(`screen fixtures M27: ${folder}${name} reads as ${file.state}`, () => {
    const manifest = manifests.get(file.agent);
    if (!manifest) throw new Error(`${name}: no bundled manifest for agent "${file.agent}"`);
    assertEquals(checkScreenFile(manifest, file), []);
  });
}

Deno.test("screen fixtures M27: fixtures/screens holds screens for every bundled agent", () => {
  const agents = new Set(own.map((f) => f.file.agent));
  assertEquals([...AGENTS].filter((a) => !agents.has(a)), []);
});

Deno.test("screen fixtures M27: every bundled rule fires at two widths and stays silent on a look-alike", () => {
  const gaps: string[] = [];
  for (const agent of AGENTS) {
    const manifest = manifests.get(agent)!;
    const mine = own.filter((f) => f.file.agent === agent);
    const recorded = real.filter((f) => f.file.agent === agent).map(({ name, file }) => ({
      name,
      file,
      reading: classifyScreen(manifest, {
        capture: file.capture,
        title: file.title,
        height: file.height,
      }),
    }));
    manifest.rules.forEach((rule, index) => {
      const widths = new Set<number>();
      let negatives = 0;
      for (const { name, file } of mine) {
        const pins = parseRulePins(file);
        // A pin counts as firing evidence when the rule decides the screen's
        // state (or opens a history view), not when it merely co-renders.
        const fires = pins.fire.some((p) => p.index === index) &&
          (rule.skip_state_update || rule.state === file.state);
        const width = widthOf(name);
        if (fires && width !== null) widths.add(width);
        if (pins.silent.some((p) => p.index === index)) negatives++;
      }
      // A recorded real screen carries no pins (only its state header is
      // ours to edit), so it counts when the rule matched and asserts the
      // state the header gives; look-alikes stay in fixtures/screens.
      for (const { name, file, reading } of recorded) {
        const fires = reading.results[index].matched &&
          (rule.skip_state_update || rule.state === file.state);
        const width = widthOf(name);
        if (fires && width !== null) widths.add(width);
      }
      if (widths.size < 2) {
        gaps.push(`${agent} rules[${index}]: fires at ${widths.size} width(s), needs 2`);
      }
      if (negatives < 1) gaps.push(`${agent} rules[${index}]: no look-alike fixture`);
    });
  }
  assertEquals(gaps, []);
});

/**
 * Config and manifest loading from a scratch HOME: resolution order,
 * defaults, loud errors that name the file and key, user manifests shadowing
 * bundled ones, and a broken user manifest skipped with one line.
 */
import { assert, assertEquals, assertRejects, assertStringIncludes } from "./harness/assert.ts";
import { configPath, loadConfig } from "../src/runtime/config/load.ts";
import { ConfigError } from "../src/core/config/parse.ts";
import { bundledManifests, loadManifests } from "../src/runtime/manifest/load.ts";
import { defaultConfig } from "../src/core/config/schema.ts";
import { parseActionManifest, parseAgentManifest } from "../src/core/manifest/parse.ts";
import { BUNDLED_ACTIONS, BUNDLED_AGENTS } from "../src/assets/bundled.ts";
import { bundledHookManifest } from "../src/runtime/manifest/bundled_hook.ts";
import { encodeValidated } from "../src/core/prevalidated.ts";

async function scratchHome(): Promise<{ home: string; env: (name: string) => string | undefined }> {
  const home = await Deno.makeTempDir({ prefix: "tma-home-" });
  const vars: Record<string, string> = { HOME: home };
  return { home, env: (name) => vars[name] };
}

Deno.test("loaders G1: --config beats TMA_CONFIG beats XDG_CONFIG_HOME beats ~/.config", () => {
  const env = (vars: Record<string, string>) => (name: string) => vars[name];
  assertEquals(configPath({ flag: "/a.toml", env: env({ TMA_CONFIG: "/b.toml" }) }), "/a.toml");
  assertEquals(configPath({ env: env({ TMA_CONFIG: "/b.toml", HOME: "/h" }) }), "/b.toml");
  assertEquals(
    configPath({ env: env({ XDG_CONFIG_HOME: "/x", HOME: "/h" }) }),
    "/x/tma/config.toml",
  );
  assertEquals(configPath({ env: env({ HOME: "/h" }) }), "/h/.config/tma/config.toml");
});

Deno.test("loaders G2: an absent config file means every default; a partial one keeps the rest", async () => {
  const { home, env } = await scratchHome();
  try {
    assertEquals(await loadConfig({ env }), defaultConfig());
    await Deno.mkdir(`${home}/.config/tma`, { recursive: true });
    await Deno.writeTextFile(`${home}/.config/tma/config.toml`, "[fold]\ndwell_secs = 7\n");
    const config = await loadConfig({ env });
    assertEquals(config.fold.dwell_secs, 7);
    assertEquals(config.fold.hook_decay_secs, 60);
    assertEquals(config.status.blocked, { glyph: "⚑", color: "red" });
    assertEquals(config.hooks.hold_ms, 25000);
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("loaders G3: an unknown key or a wrong type fails loudly, naming the file and the key", async () => {
  const { home, env } = await scratchHome();
  try {
    const path = `${home}/bad.toml`;
    await Deno.writeTextFile(path, "[notify]\nbogus = 1\n");
    const unknown = await assertRejects(() => loadConfig({ flag: path, env }), ConfigError);
    assertStringIncludes(unknown.message, path);
    assertStringIncludes(unknown.message, "bogus");
    await Deno.writeTextFile(path, '[hooks]\nhold_ms = "soon"\n');
    const wrong = await assertRejects(() => loadConfig({ flag: path, env }), ConfigError);
    assertStringIncludes(wrong.message, "[hooks] hold_ms");
    await Deno.writeTextFile(path, "[fold\n");
    const syntax = await assertRejects(() => loadConfig({ flag: path, env }), ConfigError);
    assertStringIncludes(syntax.message, "line 1");
    assertEquals(syntax.exitCode, 1);
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("loaders M1, M3: every bundled manifest and action parses", () => {
  const { agents, actions } = bundledManifests();
  assertEquals([...agents.keys()].sort(), [
    "claude",
    "codex",
    "cursor",
    "gemini",
    "opencode",
    "pi",
  ]);
  assertEquals(
    [...actions.keys()].sort(),
    ["approve", "compact", "deny", "interrupt", "question_reject", "steer", "steer_now"],
  );
});

Deno.test("loaders D64: the pre-validated bundled manifests equal a fresh TOML + zod parse of every file", () => {
  const { agents, actions } = bundledManifests();
  for (const [stem, text] of Object.entries(BUNDLED_AGENTS)) {
    const path = `bundled:manifests/${stem}.toml`;
    // A fresh parse compiles for the linear engine, the bundle for the native
    // one: the same data and the same sources either way.
    assertEquals(
      encodeValidated(agents.get(stem)),
      encodeValidated(parseAgentManifest(text, { path, stem })),
      stem,
    );
  }
  for (const [stem, text] of Object.entries(BUNDLED_ACTIONS)) {
    const path = `bundled:manifests/actions/${stem}.toml`;
    assertEquals(
      encodeValidated(actions.get(stem)),
      encodeValidated(parseActionManifest(text, { path, stem })),
      stem,
    );
  }
  // Every regex is a live RegExp again, not its encoded form.
  const claude = agents.get("claude")!;
  const rule = claude.rules.find((r) => r.state === "blocked")!;
  assert(JSON.stringify(rule.match).includes("❯ 1"), "the blocked rule anchors on the cursor row");
  const firstRegex = claude.hooks!.map.find((e) => e.matcher)!.matcher!;
  assert(firstRegex.re instanceof RegExp && firstRegex.re.test("permission_prompt"));
});

Deno.test("loaders D64: each bundled hook slice (what tma event decodes alone) equals its manifest's", () => {
  for (const [stem, text] of Object.entries(BUNDLED_AGENTS)) {
    const { name, path, identity, hooks } = parseAgentManifest(text, {
      path: `bundled:manifests/${stem}.toml`,
      stem,
    });
    // The fresh parse compiles for the linear engine, the slice for the native one.
    assertEquals(
      encodeValidated(bundledHookManifest(stem)),
      encodeValidated({ name, path, identity, hooks }),
      stem,
    );
  }
  const claude = bundledHookManifest("claude")!.hooks!.map.find((e) => e.matcher)!.matcher!;
  assert(claude.re instanceof RegExp && claude.re.test("permission_prompt"), "a live RegExp");
  assertEquals(bundledHookManifest("nobody"), undefined);
  assertEquals(bundledHookManifest("constructor"), undefined);
});

Deno.test("loaders G2, D64: the config default read without a file is the schema's own default", async () => {
  const { prevalidatedDefaultConfig } = await import("../src/runtime/config/load.ts");
  assertEquals(prevalidatedDefaultConfig(), defaultConfig());
});

Deno.test("loaders M2, M3: a user manifest shadows by stem; a broken one is skipped with one line", async () => {
  const { home, env } = await scratchHome();
  try {
    const dir = `${home}/.config/tma/agents`;
    await Deno.mkdir(dir, { recursive: true });
    await Deno.writeTextFile(
      `${dir}/claude.toml`,
      'min_engine_version = "0.1"\n[identity]\nprocess_names = ["claude-dev"]\n[capture]\n',
    );
    await Deno.writeTextFile(
      `${dir}/broken.toml`,
      'min_engine_version = "0.1"\n[identity]\nbogus = 1\n',
    );
    await Deno.writeTextFile(`${dir}/newer.toml`, 'min_engine_version = "99.0"\n[identity]\n');
    const lines: string[] = [];
    const loaded = await loadManifests({
      env,
      config: defaultConfig(),
      warn: (l) => lines.push(l),
    });
    assertEquals(loaded.agents.get("claude")!.identity.process_names, ["claude-dev"]);
    assert(loaded.agents.has("codex"));
    assertEquals(loaded.agents.has("broken"), false);
    assertEquals(lines.length, 2);
    assert(lines.every((l) => l.startsWith("tma: skipping manifest ")), lines.join("\n"));
    assertStringIncludes(lines.join("\n"), "broken.toml");
    assertStringIncludes(lines.join("\n"), "upgrade");
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("loaders C2: --manifest-dir loads that directory's agents as a closed set", async () => {
  const { home, env } = await scratchHome();
  try {
    await Deno.writeTextFile(
      `${home}/solo.toml`,
      'min_engine_version = "0.1"\n[identity]\nprocess_names = ["solo"]\n[capture]\n',
    );
    const loaded = await loadManifests({ manifestDir: home, env, config: defaultConfig() });
    assertEquals([...loaded.agents.keys()], ["solo"]);
    assertEquals(loaded.models.map((m) => m.profile.name), ["solo"]);
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("loaders D34, G28: [[agent]] disables an agent or adds process names", async () => {
  const { home, env } = await scratchHome();
  try {
    const config = defaultConfig();
    config.agent = [
      { name: "pi", enabled: false, process_names: [] },
      { name: "claude", enabled: true, process_names: ["claude-nightly"] },
    ];
    const loaded = await loadManifests({ env, config });
    assertEquals(loaded.models.some((m) => m.profile.name === "pi"), false);
    const claude = loaded.models.find((m) => m.profile.name === "claude")!;
    assert(claude.profile.processNames.includes("claude-nightly"));
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

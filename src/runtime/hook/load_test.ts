import { assert, assertEquals } from "../../../tests/harness/assert.ts";
import { loadHookManifest, loadHookSettings } from "./load.ts";

const SHADOW = `min_engine_version = "0.1"
[identity]
process_names = ["claude"]
[hooks]
covers = ["working"]
[[hooks.map]]
event = "Custom"
claim = { state = "working" }
[capture]
`;

async function withHome(
  fn: (home: string, env: (n: string) => string | undefined) => Promise<void>,
) {
  const home = await Deno.makeTempDir({ prefix: "tma-hook-load-" });
  const vars: Record<string, string> = { HOME: home, XDG_CONFIG_HOME: `${home}/.config` };
  try {
    await fn(home, (name) => vars[name]);
  } finally {
    await Deno.remove(home, { recursive: true });
  }
}

Deno.test("loadHookManifest() M1: a user shadow manifest replaces the bundled one for its agent", async () => {
  await withHome(async (home, env) => {
    await Deno.mkdir(`${home}/.config/tma/agents`, { recursive: true });
    await Deno.writeTextFile(`${home}/.config/tma/agents/claude.toml`, SHADOW);
    const m = await loadHookManifest("claude", { env });
    assertEquals(m?.hooks?.map.map((e) => e.event), ["Custom"]);
    assertEquals(m?.path, `${home}/.config/tma/agents/claude.toml`);
    // Other agents still come from the bundled set.
    assert((await loadHookManifest("gemini", { env }))?.path.startsWith("bundled:"));
  });
});

Deno.test("loadHookManifest() M3: a broken user shadow falls back to the bundled manifest, and says why", async () => {
  await withHome(async (home, env) => {
    await Deno.mkdir(`${home}/.config/tma/agents`, { recursive: true });
    await Deno.writeTextFile(`${home}/.config/tma/agents/claude.toml`, "[hooks\n");
    const skipped: string[] = [];
    const m = await loadHookManifest("claude", { env, onSkip: (p) => skipped.push(p) });
    assertEquals(m?.path, "bundled:manifests/claude.toml");
    assertEquals(skipped.length, 1);
  });
});

Deno.test("loadHookManifest() C101: an unknown agent, or a name that is not a stem, loads nothing", async () => {
  await withHome(async (_home, env) => {
    assertEquals(await loadHookManifest("nosuch", { env }), null);
    assertEquals(await loadHookManifest("../claude", { env }), null);
    assertEquals(await loadHookManifest("", { env }), null);
  });
});

Deno.test("loadHookManifest() C2: --manifest-dir is a closed set", async () => {
  await withHome(async (home, env) => {
    await Deno.mkdir(`${home}/only`);
    await Deno.writeTextFile(`${home}/only/claude.toml`, SHADOW);
    assertEquals(
      (await loadHookManifest("claude", { env, manifestDir: `${home}/only` }))?.hooks?.map.length,
      1,
    );
    assertEquals(await loadHookManifest("gemini", { env, manifestDir: `${home}/only` }), null);
  });
});

Deno.test("loadHookManifest() C5, G1: config comes from --config, then TMA_CONFIG, then the XDG path", async () => {
  await withHome(async (home) => {
    await Deno.mkdir(`${home}/.config/tma`, { recursive: true });
    await Deno.writeTextFile(`${home}/.config/tma/config.toml`, "[hooks]\nhold_ms = 1\n");
    await Deno.writeTextFile(`${home}/env.toml`, "[hooks]\nhold_ms = 2\n");
    await Deno.writeTextFile(`${home}/flag.toml`, "[hooks]\nhold_ms = 3\n");
    const vars: Record<string, string> = { HOME: home, XDG_CONFIG_HOME: `${home}/.config` };
    const env = (name: string) => vars[name];
    assertEquals((await loadHookSettings({ env })).holdMs, 1);
    vars.TMA_CONFIG = `${home}/env.toml`;
    assertEquals((await loadHookSettings({ env })).holdMs, 2);
    assertEquals((await loadHookSettings({ env, flag: `${home}/flag.toml` })).holdMs, 3);
    assertEquals((await loadHookSettings({ env, disabled: true })).holdMs, 25_000);
    assertEquals((await loadHookSettings({ env, flag: `${home}/missing.toml` })).problem, null);
  });
});

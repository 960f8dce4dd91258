import { assertEquals, assertThrows } from "../../../tests/harness/assert.ts";
import { BUNDLED_AGENTS } from "../../assets/bundled.ts";
import { parseAgentManifest } from "../manifest/parse.ts";
import { HookManifestError, readHookManifest } from "./hook_manifest.ts";

const HEAD = 'min_engine_version = "0.1"\n[identity]\nprocess_names = ["mycli"]\n[capture]\n';
const origin = { path: "mycli.toml", stem: "mycli" };

function plain(value: unknown): unknown {
  // Compiled regexes compare by their verbatim source.
  return JSON.parse(
    JSON.stringify(value, (_k, v) => (v instanceof RegExp ? `/${v.source}/${v.flags}` : v)),
  );
}

Deno.test("readHookManifest() agrees with the full schema on every bundled agent", () => {
  for (const [stem, text] of Object.entries(BUNDLED_AGENTS)) {
    const full = parseAgentManifest(text, { path: stem, stem });
    const lite = readHookManifest(text, { path: stem, stem });
    assertEquals(plain(lite.hooks), plain(full.hooks), stem);
    assertEquals(plain(lite.identity), plain(full.identity), stem);
    assertEquals(lite.name, stem);
  }
});

Deno.test("readHookManifest() folds claim details through [details] aliases", () => {
  const m = readHookManifest(
    HEAD + '[hooks]\ncovers = ["working"]\n[[hooks.map]]\nevent = "Limit"\n' +
      'claim = { state = "working", detail = "ratelimit" }\n' +
      '[details]\nrate_limit = { aliases = ["ratelimit"] }\n',
    origin,
  );
  assertEquals(m.hooks?.map[0].claim, { state: "working", detail: "rate_limit" });
});

Deno.test("readHookManifest() refuses what the loader would refuse in the keys it reads", () => {
  const bad = [
    "", // no min_engine_version
    'min_engine_version = "99.0"\n[identity]\nprocess_names = ["x"]\n',
    HEAD +
    '[hooks]\ncovers = ["idle"]\n[[hooks.map]]\nevent = "Go"\nclaim = { state = "working" }\n',
    HEAD +
    '[hooks]\ncovers = ["idle"]\n[[hooks.map]]\nevent = "Go"\nclaim = { state = "unknown" }\n',
    HEAD + '[hooks]\ncovers = ["idle"]\n[[hooks.map]]\nevent = "Go"\nmatcher = "("\n' +
    'claim = { state = "idle" }\n',
    HEAD + '[hooks]\ncovers = ["lifecycle"]\n[[hooks.map]]\nevent = "Go"\n' +
    'claim = { lifecycle = "start", state = "idle" }\n',
    HEAD + '[hooks]\ncovers = ["idle"]\n[[hooks.map]]\nevent = "Go"\n' +
    'claim = { state = "idle", detail = "Bad Token" }\n',
    "[identity\n",
  ];
  for (const text of bad) assertThrows(() => readHookManifest(text, origin), HookManifestError);
});

Deno.test("readHookManifest() reads a manifest with no [hooks] as hook-less", () => {
  assertEquals(readHookManifest(HEAD, origin).hooks, undefined);
});

Deno.test("readHookManifest() D47: [hooks.order] and phases, refused as the schema refuses them", () => {
  const hooks = '[hooks]\ncovers = ["working"]\n[[hooks.map]]\nevent = "Go"\n' +
    'claim = { state = "working" }\n';
  const order = '[hooks.order]\nturn = ["prompt_id"]\ncall = ["tool_name"]\n';
  const good = HEAD + hooks + "phase = 1\n" + order;
  const m = readHookManifest(good, origin);
  assertEquals(m.hooks?.order, { turn: ["prompt_id"], call: ["tool_name"] });
  assertEquals(m.hooks?.map[0].phase, 1);
  assertEquals(plain(m.hooks), plain(parseAgentManifest(good, origin).hooks));
  const bad = [
    HEAD + hooks + "phase = 1\n", // a phase orders nothing without [hooks.order]
    HEAD + hooks + "phase = 10\n" + order,
    HEAD + hooks + "phase = 1.5\n" + order,
    HEAD + hooks + "[hooks.order]\nturn = []\n",
    HEAD + hooks + '[hooks.order]\nturn = ["prompt_id"]\ncall = "tool_name"\n',
  ];
  for (const text of bad) {
    assertThrows(() => readHookManifest(text, origin), HookManifestError);
    assertThrows(() => parseAgentManifest(text, origin), Error);
  }
  assertThrows(
    () => readHookManifest(bad[0], origin),
    HookManifestError,
    "mycli.toml: hooks.map[0].phase: orders nothing without [hooks.order]",
  );
});

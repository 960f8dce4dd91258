/**
 * What `tma event` loads, and only that: the named agent's manifest (a user
 * shadow `$XDG_CONFIG_HOME/tma/agents/<agent>.toml`, else the bundled one;
 * or, with `--manifest-dir`, that directory's file alone) and the few config
 * keys a hook reads. Never the other agents, never the full config schema.
 * @module
 */
import type { HookManifest } from "../../core/hook/hook_manifest.ts";
import { type HookSettings, readHookSettings } from "../../core/hook/settings.ts";
import type { ParsedAgentManifest } from "../../core/manifest/parse.ts";
import { bundledHookManifest } from "../manifest/bundled_hook.ts";
import { configDir, type EnvReader } from "../paths.ts";

/** An agent name that is safe to put in a file name: a manifest stem. */
const AGENT_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]*$/;

/** Where the manifests of one event come from. */
export interface ManifestPlace {
  /** `--manifest-dir`: a closed set, no bundled corpus (C2). */
  manifestDir?: string;
  env: EnvReader;
}

/** What loading one agent's manifest may run into. */
type LoadPlace = ManifestPlace & { onSkip?: (problem: string) => void };

/**
 * The user's file for an agent (the shadow in `$XDG_CONFIG_HOME/tma/agents/`,
 * or the `--manifest-dir` file), or null when there is none.
 */
async function userManifestText(
  agent: string,
  place: ManifestPlace,
): Promise<{ text: string; path: string } | null> {
  if (!AGENT_NAME.test(agent)) return null;
  const dir = place.manifestDir ?? `${configDir(place.env)}/agents`;
  const path = `${dir}/${agent}.toml`;
  const text = await readOptional(path);
  return text === null ? null : { text, path };
}

/**
 * An agent's manifest: the user's file read by `parse`, else (or when that
 * file is broken, M3; `onSkip` hears why) the bundled manifest as the build
 * validated it, never its TOML parsed again. With `--manifest-dir` there is
 * no bundled fallback (C2).
 */
async function loadManifest<T>(
  agent: string,
  place: LoadPlace,
  parse: (text: string, origin: { path: string; stem: string }) => Promise<T>,
  fromBundled: (agent: string) => T | undefined | Promise<T | undefined>,
): Promise<T | null> {
  const user = await userManifestText(agent, place);
  if (user !== null) {
    try {
      return await parse(user.text, { path: user.path, stem: agent });
    } catch (error) {
      place.onSkip?.(error instanceof Error ? error.message : String(error));
    }
  }
  if (place.manifestDir || !AGENT_NAME.test(agent)) return null;
  return (await fromBundled(agent)) ?? null;
}

/**
 * The hook slice of an agent's manifest, or null for an unknown agent. A
 * user file is read with the light hook reader (the full schema would cost
 * every event tens of ms).
 */
export function loadHookManifest(agent: string, place: LoadPlace): Promise<HookManifest | null> {
  return loadManifest(
    agent,
    place,
    async (text, origin) =>
      (await import("../../core/hook/hook_manifest.ts")).readHookManifest(text, origin),
    bundledHookManifest,
  );
}

/**
 * The full parsed manifest, for the context channel (whose intake reads
 * `[telemetry]`). A user file gets the full schema, loaded only on that path.
 */
export function loadFullManifest(
  agent: string,
  place: LoadPlace,
): Promise<ParsedAgentManifest | null> {
  return loadManifest(
    agent,
    place,
    async (text, origin) =>
      (await import("../../core/manifest/parse.ts")).parseAgentManifest(text, origin),
    // Every bundled manifest's module loads only on this path.
    async (name) => (await import("../manifest/bundled.ts")).bundledAgents().get(name),
  );
}

/** Where config comes from (C5, G1). */
export interface SettingsSource {
  /** `--config`. */
  flag?: string;
  /** `--no-config`. */
  disabled?: boolean;
  env: EnvReader;
}

/**
 * The hook's config keys: `--config`, then `TMA_CONFIG`, then
 * `$XDG_CONFIG_HOME/tma/config.toml`; a missing file means defaults, and
 * smol-toml is loaded only when there is a file to parse.
 */
export async function loadHookSettings(source: SettingsSource): Promise<HookSettings> {
  const path = source.flag || source.env("TMA_CONFIG") || `${configDir(source.env)}/config.toml`;
  if (source.disabled) return readHookSettings(null, { path });
  let text: string | null;
  try {
    text = await readOptional(path);
  } catch (error) {
    // An unreadable file is a broken config: defaults, reply lane off.
    return { ...readHookSettings(null, { path }), replyLane: false, problem: `${path}: ${error}` };
  }
  if (text === null) return readHookSettings(null, { path });
  const { parseToml } = await import("../../deps/toml.ts");
  return readHookSettings(text, { path, parseToml });
}

async function readOptional(path: string): Promise<string | null> {
  try {
    return await Deno.readTextFile(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound || error instanceof Deno.errors.NotADirectory) {
      return null;
    }
    throw error;
  }
}

/**
 * What `tma event` loads, and only that: the named agent's manifest (a user
 * shadow `$XDG_CONFIG_HOME/tma/agents/<agent>.toml`, else the bundled text;
 * or, with `--manifest-dir`, that directory's file alone) and the few config
 * keys a hook reads. Never the other agents, never the full config schema.
 * @module
 */
import { BUNDLED_AGENTS } from "../assets/bundled.ts";
import { type HookManifest, readHookManifest } from "../core/hook/hook_manifest.ts";
import { type HookSettings, readHookSettings } from "../core/hook/settings.ts";
import type { ParsedAgentManifest } from "../core/manifest/parse.ts";
import { configDir, type EnvReader } from "./paths.ts";

/** An agent name that is safe to put in a file name: a manifest stem. */
const AGENT_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]*$/;

/** One manifest's text and where it came from. */
export interface ManifestText {
  text: string;
  path: string;
  /** Whether it is the user's file (so a broken one falls back to the bundled text). */
  user: boolean;
}

/** Where the manifests of one event come from. */
export interface ManifestPlace {
  /** `--manifest-dir`: a closed set, no bundled corpus (C2). */
  manifestDir?: string;
  env: EnvReader;
}

/**
 * The candidate texts of one agent's manifest, best first: the user shadow
 * then the bundled file; with `--manifest-dir`, only that directory's file.
 */
export async function manifestTexts(agent: string, place: ManifestPlace): Promise<ManifestText[]> {
  if (!AGENT_NAME.test(agent)) return [];
  const dir = place.manifestDir ?? `${configDir(place.env)}/agents`;
  const out: ManifestText[] = [];
  const path = `${dir}/${agent}.toml`;
  const text = await readOptional(path);
  if (text !== null) out.push({ text, path, user: true });
  if (!place.manifestDir && Object.hasOwn(BUNDLED_AGENTS, agent)) {
    out.push({ text: BUNDLED_AGENTS[agent], path: `bundled:manifests/${agent}.toml`, user: false });
  }
  return out;
}

/**
 * The hook slice of an agent's manifest, or null for an unknown agent. A
 * user file that cannot be read falls back to the bundled one, as the
 * loader does (M3); `onSkip` hears why.
 */
export async function loadHookManifest(
  agent: string,
  place: ManifestPlace & { onSkip?: (problem: string) => void },
): Promise<HookManifest | null> {
  for (const candidate of await manifestTexts(agent, place)) {
    try {
      return readHookManifest(candidate.text, { path: candidate.path, stem: agent });
    } catch (error) {
      place.onSkip?.(error instanceof Error ? error.message : String(error));
    }
  }
  return null;
}

/**
 * The full parsed manifest, for the context channel (whose intake reads
 * `[telemetry]`). Loaded only on that path: the full schema is the costly
 * part of a manifest.
 */
export async function loadFullManifest(
  agent: string,
  place: ManifestPlace & { onSkip?: (problem: string) => void },
): Promise<ParsedAgentManifest | null> {
  const { parseAgentManifest } = await import("../core/manifest/parse.ts");
  for (const candidate of await manifestTexts(agent, place)) {
    try {
      return parseAgentManifest(candidate.text, { path: candidate.path, stem: agent });
    } catch (error) {
      place.onSkip?.(error instanceof Error ? error.message : String(error));
    }
  }
  return null;
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
 * `$XDG_CONFIG_HOME/tma/config.toml`; a missing file means defaults.
 */
export async function loadHookSettings(source: SettingsSource): Promise<HookSettings> {
  const path = source.flag || source.env("TMA_CONFIG") || `${configDir(source.env)}/config.toml`;
  if (source.disabled) return readHookSettings(null, path);
  try {
    return readHookSettings(await readOptional(path), path);
  } catch (error) {
    // An unreadable file is a broken config: defaults, reply lane off.
    return { ...readHookSettings(null, path), replyLane: false, problem: `${path}: ${error}` };
  }
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

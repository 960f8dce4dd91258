/**
 * Loads agent and action manifests (M1-M3, M29): the bundled set embedded in
 * the program, then user files from `$XDG_CONFIG_HOME/tma/agents/` and
 * `.../actions/` shadowing them by stem; or, with `--manifest-dir`, that one
 * directory's agents as a closed set. A broken user file is skipped with one
 * line naming it; a broken bundled file is a build bug and throws.
 * @module
 */
import { BUNDLED_ACTIONS, BUNDLED_AGENTS } from "../assets/bundled.ts";
import { type AgentModel, buildModels } from "../core/agent_model.ts";
import type { Config } from "../core/config/schema.ts";
import {
  parseActionManifest,
  parseAgentManifest,
  type ParsedActionManifest,
  type ParsedAgentManifest,
} from "../core/manifest/parse.ts";
import { configDir, type EnvReader } from "./paths.ts";

/** A user manifest that failed to load. */
export interface SkippedManifest {
  path: string;
  error: string;
}

/** Everything a command needs from the manifests. */
export interface LoadedManifests {
  agents: Map<string, ParsedAgentManifest>;
  actions: Map<string, ParsedActionManifest>;
  /** One model per enabled agent, for the cycle. */
  models: AgentModel[];
  skipped: SkippedManifest[];
}

/** Where manifests come from. */
export interface ManifestSources {
  /** `--manifest-dir`: agents only from here, no bundled corpus (C2). */
  manifestDir?: string;
  env: EnvReader;
  config: Config;
  /** Receives one line per skipped file (poll surfaces print it; `tma event` stays silent). */
  warn?: (line: string) => void;
}

/** Parses the bundled agents and actions; throws on any error (M3). */
export function bundledManifests(): {
  agents: Map<string, ParsedAgentManifest>;
  actions: Map<string, ParsedActionManifest>;
} {
  const agents = new Map<string, ParsedAgentManifest>();
  for (const [stem, text] of Object.entries(BUNDLED_AGENTS)) {
    agents.set(stem, parseAgentManifest(text, { path: `bundled:manifests/${stem}.toml`, stem }));
  }
  const actions = new Map<string, ParsedActionManifest>();
  for (const [stem, text] of Object.entries(BUNDLED_ACTIONS)) {
    actions.set(
      stem,
      parseActionManifest(text, { path: `bundled:manifests/actions/${stem}.toml`, stem }),
    );
  }
  return { agents, actions };
}

/** Loads the manifests a command runs with. */
export async function loadManifests(sources: ManifestSources): Promise<LoadedManifests> {
  const skipped: SkippedManifest[] = [];
  const bundled = bundledManifests();
  const agents = sources.manifestDir ? new Map<string, ParsedAgentManifest>() : bundled.agents;
  const actions = bundled.actions;
  const userDir = configDir(sources.env);
  const agentDir = sources.manifestDir ?? `${userDir}/agents`;
  for (const [stem, path, text] of await readTomlFiles(agentDir)) {
    try {
      agents.set(stem, parseAgentManifest(text, { path, stem }));
    } catch (error) {
      skipped.push({ path, error: error instanceof Error ? error.message : String(error) });
    }
  }
  for (const [stem, path, text] of await readTomlFiles(`${userDir}/actions`)) {
    try {
      actions.set(stem, parseActionManifest(text, { path, stem }));
    } catch (error) {
      skipped.push({ path, error: error instanceof Error ? error.message : String(error) });
    }
  }
  for (const skip of skipped) sources.warn?.(`tma: skipping manifest ${skip.path}: ${skip.error}`);
  return {
    agents,
    actions,
    models: buildModels(agents.values(), sources.config.agent),
    skipped,
  };
}

/** `[stem, path, text]` of every `.toml` file in a directory; none when it is absent. */
async function readTomlFiles(dir: string): Promise<[string, string, string][]> {
  const files: [string, string, string][] = [];
  try {
    for await (const entry of Deno.readDir(dir)) {
      if (!entry.isFile || !entry.name.endsWith(".toml")) continue;
      const path = `${dir}/${entry.name}`;
      files.push([entry.name.slice(0, -".toml".length), path, await Deno.readTextFile(path)]);
    }
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
  return files.sort(([a], [b]) => a.localeCompare(b));
}

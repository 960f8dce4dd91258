/**
 * Loads agent and action manifests: the bundled set embedded in the program,
 * then user files from `$XDG_CONFIG_HOME/tma/agents/` and `.../actions/`
 * shadowing them by stem; or, with `--manifest-dir`, that one directory's
 * agents as a closed set (M1-M3, M29). A broken user file is skipped with one
 * line naming it; a broken bundled file is a build bug and throws.
 * @module
 */
import { type AgentModel, buildModels } from "../../core/agent_model.ts";
import type { Config } from "../../core/config/schema.ts";
import type { ParsedActionManifest, ParsedAgentManifest } from "../../core/manifest/parse.ts";
import { bundledActions, bundledAgents } from "./bundled.ts";
import { configDir, type EnvReader } from "../paths.ts";

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

/**
 * The bundled agents and actions, as the build validated them (M3: a broken
 * bundled file fails `deno task embed`, and a test pins this equal to a fresh
 * zod parse of every file). Decoding costs a `JSON.parse`, where parsing the
 * TOML with zod on every status-line poll cost tens of ms (D64).
 */
export function bundledManifests(): {
  agents: Map<string, ParsedAgentManifest>;
  actions: Map<string, ParsedActionManifest>;
} {
  return { agents: bundledAgents(), actions: bundledActions() };
}

/** Loads the manifests a command runs with. */
export async function loadManifests(sources: ManifestSources): Promise<LoadedManifests> {
  const skipped: SkippedManifest[] = [];
  const bundled = bundledManifests();
  const agents = sources.manifestDir ? new Map<string, ParsedAgentManifest>() : bundled.agents;
  const actions = bundled.actions;
  const userDir = configDir(sources.env);
  const agentDir = sources.manifestDir ?? `${userDir}/agents`;
  const agentFiles = readTomlFiles(agentDir);
  const actionFiles = readTomlFiles(`${userDir}/actions`);
  if (agentFiles.length + actionFiles.length > 0) {
    // TOML and zod load only when there is a user file to parse (D64).
    const { parseActionManifest, parseAgentManifest } = await import(
      "../../core/manifest/parse.ts"
    );
    parseInto(agents, agentFiles, parseAgentManifest, skipped);
    parseInto(actions, actionFiles, parseActionManifest, skipped);
  }
  for (const skip of skipped) sources.warn?.(`tma: skipping manifest ${skip.path}: ${skip.error}`);
  return {
    agents,
    actions,
    models: buildModels(agents.values(), sources.config.agent),
    skipped,
  };
}

/** Parses user files into `into` by stem; a file that fails is recorded in `skipped` (M3). */
function parseInto<T>(
  into: Map<string, T>,
  files: readonly [string, string, string][],
  parse: (text: string, origin: { path: string; stem: string }) => T,
  skipped: SkippedManifest[],
): void {
  for (const [stem, path, text] of files) {
    try {
      into.set(stem, parse(text, { path, stem }));
    } catch (error) {
      skipped.push({ path, error: error instanceof Error ? error.message : String(error) });
    }
  }
}

/**
 * `[stem, path, text]` of every `.toml` file in a directory; none when it is
 * absent. Synchronous, like the config read: a few small files, and no
 * worker thread to start on the status path (D64).
 */
function readTomlFiles(dir: string): [string, string, string][] {
  const files: [string, string, string][] = [];
  try {
    for (const entry of Deno.readDirSync(dir)) {
      if (!entry.isFile || !entry.name.endsWith(".toml")) continue;
      const path = `${dir}/${entry.name}`;
      files.push([entry.name.slice(0, -".toml".length), path, Deno.readTextFileSync(path)]);
    }
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
  return files.sort(([a], [b]) => a.localeCompare(b));
}

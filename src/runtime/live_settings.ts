/**
 * Config and manifests re-read on every tick of a long-running surface
 * (`wait`, `subscribe`, `watch`; G4, M26, C40). A reload that fails keeps
 * the last good set (R18) and names the broken file on stderr once per
 * breakage, not once per tick (C73); the first load has no fallback and
 * fails the command, as it would a one-shot.
 *
 * ```ts
 * const live = new LiveSettings({
 *   globals: { noConfig: false },
 *   env: (name) => Deno.env.get(name),
 *   warn: (line) => console.error(line),
 * });
 * const { config, models } = await live.load(); // again on every tick
 * ```
 * @module
 */
import type { AgentModel } from "../core/agent_model.ts";
import type { Config } from "../core/config/schema.ts";
import { loadConfig } from "./config/load.ts";
import { loadManifests } from "./manifest/load.ts";
import type { EnvReader } from "./paths.ts";

/** Where the settings come from: the global flags that name them. */
export interface LiveSources {
  globals: { config?: string; noConfig: boolean; manifestDir?: string };
  env: EnvReader;
  /** Gets each problem line once per breakage. */
  warn(line: string): void;
}

/** The settings one tick runs with. */
export interface TickSettings {
  config: Config;
  models: AgentModel[];
}

/** Reloads config and manifests per tick, keeping the last good set. */
export class LiveSettings {
  readonly #sources: LiveSources;
  #last: TickSettings | null = null;
  /** The problems already reported; a line is reported again only after it went away. */
  #reported = new Set<string>();

  constructor(sources: LiveSources) {
    this.#sources = sources;
  }

  /** This tick's settings. Throws only when the very first load fails. */
  async load(): Promise<TickSettings> {
    const problems = new Set<string>();
    let config: Config;
    try {
      config = await loadConfig({
        flag: this.#sources.globals.config,
        disabled: this.#sources.globals.noConfig,
        env: this.#sources.env,
      });
    } catch (error) {
      if (this.#last === null) throw error;
      const message = error instanceof Error ? error.message : String(error);
      problems.add(`tma: keeping the previous config: ${message}`);
      config = this.#last.config;
    }
    const manifests = await loadManifests({
      manifestDir: this.#sources.globals.manifestDir,
      env: this.#sources.env,
      config,
      warn: (line) => problems.add(line),
    });
    for (const line of problems) {
      if (!this.#reported.has(line)) this.#sources.warn(line);
    }
    this.#reported = problems;
    this.#last = { config, models: manifests.models };
    return this.#last;
  }
}

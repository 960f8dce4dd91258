/**
 * A surface's refresh (U32, U35): re-read config and manifests (a broken
 * reload keeps the last good set and is reported once, C73, R18), run one
 * guarded-poll cycle that stamps every pane (D53; a scoped watcher is still
 * a full producer, C68), and return every agent row with git labels.
 * @module
 */
import type { Config } from "../core/config/schema.ts";
import type { AgentModel } from "../core/agent_model.ts";
import type { TmuxServer } from "../tmux/exec.ts";
import { loadConfig } from "./config/load.ts";
import { listAgents } from "./cycle/listing.ts";
import { GitLabeler } from "./cycle/git.ts";
import { loadManifests } from "./manifest/load.ts";
import type { EnvReader } from "./paths.ts";
import type { SurfaceRead } from "./surface.ts";

/** Where a refresher reads config and manifests from. */
export interface RefresherOptions {
  server: TmuxServer;
  env: EnvReader;
  configFlag?: string;
  noConfig?: boolean;
  manifestDir?: string;
  now(): number;
  /** Receives each distinct reload failure once. */
  warn(line: string): void;
}

/** How long git labels are reused before a branch switch is picked up. */
const GIT_MEMO_MS = 30_000;

/** Refreshes a surface; keeps the last good config and manifests between ticks. */
export class Refresher {
  #options: RefresherOptions;
  #config: Config | null = null;
  #models: AgentModel[] = [];
  #reported = new Set<string>();
  #labeler = new GitLabeler();
  #labelerAt = 0;

  constructor(options: RefresherOptions) {
    this.#options = options;
  }

  /** The config in force (the last one that loaded). */
  get config(): Config | null {
    return this.#config;
  }

  #report(line: string): void {
    if (this.#reported.has(line)) return;
    this.#reported.add(line);
    this.#options.warn(line);
  }

  async #reload(): Promise<void> {
    const o = this.#options;
    try {
      this.#config = await loadConfig({ flag: o.configFlag, disabled: o.noConfig, env: o.env });
    } catch (error) {
      this.#report(`tma: config not reloaded: ${error instanceof Error ? error.message : error}`);
    }
    if (!this.#config) throw new Error("no config could be loaded");
    try {
      const loaded = await loadManifests({
        manifestDir: o.manifestDir,
        env: o.env,
        config: this.#config,
        warn: (line) => this.#report(line),
      });
      this.#models = loaded.models;
    } catch (error) {
      this.#report(
        `tma: manifests not reloaded: ${error instanceof Error ? error.message : error}`,
      );
    }
  }

  /** One refresh: every agent row of the server, after a guarded cycle. */
  async refresh(): Promise<SurfaceRead> {
    await this.#reload();
    const now = this.#options.now();
    if (now - this.#labelerAt > GIT_MEMO_MS) {
      this.#labeler = new GitLabeler();
      this.#labelerAt = now;
    }
    const listing = await listAgents({
      server: this.#options.server,
      models: this.#models,
      config: this.#config!,
      now: this.#options.now,
      git: true,
      labeler: this.#labeler,
      stampedeGuard: true,
    });
    return { rows: listing.rows, panes: listing.cycle.panes };
  }
}

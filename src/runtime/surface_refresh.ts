/**
 * A surface's refresh (U32, U35): re-read config and manifests (a broken
 * reload keeps the last good set and is reported once, C73, R18), run one
 * guarded-poll cycle that stamps every pane (D53; a scoped watcher is still
 * a full producer, C68), and return every agent row with git labels.
 * @module
 */
import type { Config } from "../core/config/schema.ts";
import type { TmuxServer } from "../tmux/exec.ts";
import { listAgents } from "./cycle/listing.ts";
import { GitLabeler } from "./cycle/git.ts";
import { LiveSettings } from "./live_settings.ts";
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
  #live: LiveSettings;
  #config: Config | null = null;
  #labeler = new GitLabeler();
  #labelerAt = 0;

  constructor(options: RefresherOptions) {
    this.#options = options;
    // The same reload as the waiters' (wait, subscribe): one place keeps the last good set.
    this.#live = new LiveSettings({
      globals: {
        config: options.configFlag,
        noConfig: options.noConfig ?? false,
        manifestDir: options.manifestDir,
      },
      env: options.env,
      warn: options.warn,
    });
  }

  /** The config in force (the last one that loaded). */
  get config(): Config | null {
    return this.#config;
  }

  /** One refresh: every agent row of the server, after a guarded cycle. */
  async refresh(): Promise<SurfaceRead> {
    const { config, models } = await this.#live.load();
    this.#config = config;
    const now = this.#options.now();
    if (now - this.#labelerAt > GIT_MEMO_MS) {
      this.#labeler = new GitLabeler();
      this.#labelerAt = now;
    }
    const listing = await listAgents({
      server: this.#options.server,
      models,
      config,
      now: this.#options.now,
      git: true,
      labeler: this.#labeler,
      stampedeGuard: true,
      // A watcher is a polling producer like the others (U25 `from_poll`).
      notify: { env: this.#options.env },
    });
    return { rows: listing.rows, panes: listing.cycle.panes };
  }
}

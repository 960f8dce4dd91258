/**
 * What every command receives: the global options, and lazily resolved
 * config, server and manifests, so a command pays only for what it uses.
 * @module
 */
import type { Config } from "../core/config/schema.ts";
import type { TmuxServer } from "../tmux/exec.ts";
import type { LoadedManifests } from "../runtime/manifest/load.ts";
import type { StartedSnapshot } from "../runtime/cycle/snapshot_start.ts";

/** The global options of C2-C10. */
export interface GlobalOptions {
  manifestDir?: string;
  socketName?: string;
  socketPath?: string;
  config?: string;
  noConfig: boolean;
  client?: string;
  debugTiming: boolean;
}

/** The environment a command runs in; tests pass their own. */
export interface CommandContext {
  globals: GlobalOptions;
  env(name: string): string | undefined;
  /** The wall clock in epoch ms (the only clock a command reads). */
  now(): number;
  out(text: string): void;
  err(text: string): void;
  config(): Promise<Config>;
  server(): Promise<TmuxServer>;
  manifests(): Promise<LoadedManifests>;
  /**
   * The cycle's `list-panes` and process snapshot, started on the first
   * call and shared after: `main` starts it before loading a listing
   * command, so the children work while the command loads (D64).
   */
  snapshot(): Promise<StartedSnapshot>;
}

/** Builds the real context over `Deno`. */
export function createContext(globals: GlobalOptions): CommandContext {
  const encoder = new TextEncoder();
  let config: Promise<Config> | undefined;
  let manifests: Promise<LoadedManifests> | undefined;
  let snapshot: Promise<StartedSnapshot> | undefined;
  const env = (name: string) => Deno.env.get(name);
  const ctx: CommandContext = {
    globals,
    env,
    now: () => Date.now(),
    out: (text) => {
      Deno.stdout.writeSync(encoder.encode(text));
    },
    err: (text) => {
      Deno.stderr.writeSync(encoder.encode(text));
    },
    config: () => {
      config ??= import("../runtime/config/load.ts").then((m) =>
        m.loadConfig({ flag: globals.config, disabled: globals.noConfig, env })
      );
      return config;
    },
    server: async () => {
      const { serverFromGlobals } = await import("../tmux/server.ts");
      const cfg = await ctx.config();
      return serverFromGlobals(globals, { env, configBin: cfg.tmux.bin });
    },
    snapshot: () => {
      snapshot ??= (async () => {
        // The process snapshot needs no server or config: it starts first.
        const processes = (await import("../tmux/ps.ts")).snapshotProcesses();
        processes.catch(() => undefined);
        const [m, server] = await Promise.all([
          import("../runtime/cycle/snapshot_start.ts"),
          ctx.server(),
        ]);
        return m.startSnapshot(server, ctx.now(), processes);
      })();
      return snapshot;
    },
    manifests: () => {
      manifests ??= Promise.all([import("../runtime/manifest/load.ts"), ctx.config()]).then((
        [m, cfg],
      ) =>
        m.loadManifests({
          manifestDir: globals.manifestDir,
          env,
          config: cfg,
          warn: (line) => ctx.err(`${line}\n`),
        })
      );
      return manifests;
    },
  };
  return ctx;
}

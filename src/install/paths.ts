/**
 * Where each agent's files live: a flag beats its environment variable, which
 * beats the agent's own home (C82, G33, I1).
 * @module
 */
import { type EnvReader, homeDir, installConfigDir, xdgConfigHome } from "../runtime/paths.ts";
import { WRAPPER_NAME } from "./hook_command.ts";
import { dirName } from "./shell.ts";

/** Every file `install-hooks` reads or writes. */
export interface InstallPaths {
  claudeSettings: string;
  geminiSettings: string;
  codexConfig: string;
  codexHooks: string;
  cursorHooks: string;
  cursorCliConfig: string;
  opencodePlugin: string;
  piExtension: string;
  /** tma's bookkeeping directory (`statusline-state.toml`, `hooks-state-<server>.toml`). */
  configDir: string;
  /** Where the `tma-hook` wrapper is written. */
  wrapper: string;
}

/** Path flags as given on the command line (flag names without `--`). */
export type PathFlags = Partial<
  Record<
    | "settings"
    | "gemini-settings"
    | "config-dir"
    | "wrapper-path"
    | "opencode-plugin"
    | "codex-config"
    | "codex-hooks"
    | "cursor-hooks"
    | "cursor-cli-config"
    | "pi-extension",
    string
  >
>;

/** Options of `resolveInstallPaths`. */
export interface ResolvePathsOptions {
  flags: PathFlags;
  env: EnvReader;
  /** The running executable (`Deno.execPath()`), for the default wrapper path. */
  execPath: string;
}

/**
 * The default wrapper path: beside the `tma` executable when tma is a
 * compiled binary (I1). Run from source (`deno run mod.ts`, where the
 * executable is deno itself) there is no tma file to sit beside, so the
 * wrapper goes to `~/.local/bin/tma-hook`, the per-user bin folder most
 * shells put on PATH.
 */
export function defaultWrapperPath(env: EnvReader, execPath: string): string {
  const name = execPath.slice(execPath.lastIndexOf("/") + 1);
  if (/^deno(\.exe)?$/.test(name)) return `${homeDir(env)}/.local/bin/${WRAPPER_NAME}`;
  return `${dirName(execPath)}/${WRAPPER_NAME}`;
}

/**
 * Resolves every path.
 *
 * ```ts
 * resolveInstallPaths({ flags: {}, env: (k) => ({ HOME: "/h" })[k], execPath: "/usr/bin/deno" }).claudeSettings;
 * // "/h/.claude/settings.json"
 * ```
 */
export function resolveInstallPaths(options: ResolvePathsOptions): InstallPaths {
  const { flags, env } = options;
  const home = homeDir(env);
  const pick = (flag: keyof PathFlags, envName: string, fallback: string) =>
    flags[flag] || env(envName) || fallback;
  const codexHome = env("CODEX_HOME") || `${home}/.codex`;
  const piDir = env("PI_CODING_AGENT_DIR") || `${home}/.pi/agent`;
  return {
    claudeSettings: pick("settings", "TMA_CLAUDE_SETTINGS", `${home}/.claude/settings.json`),
    geminiSettings: pick("gemini-settings", "TMA_GEMINI_SETTINGS", `${home}/.gemini/settings.json`),
    codexConfig: pick("codex-config", "TMA_CODEX_CONFIG", `${codexHome}/config.toml`),
    codexHooks: pick("codex-hooks", "TMA_CODEX_HOOKS", `${codexHome}/hooks.json`),
    cursorHooks: pick("cursor-hooks", "TMA_CURSOR_HOOKS", `${home}/.cursor/hooks.json`),
    cursorCliConfig: pick(
      "cursor-cli-config",
      "TMA_CURSOR_CLI_CONFIG",
      `${home}/.cursor/cli-config.json`,
    ),
    opencodePlugin: pick(
      "opencode-plugin",
      "TMA_OPENCODE_PLUGIN",
      `${xdgConfigHome(env)}/opencode/plugin/tma.js`,
    ),
    piExtension: pick("pi-extension", "TMA_PI_EXTENSION", `${piDir}/extensions/tma.js`),
    configDir: installConfigDir(env, flags["config-dir"]),
    wrapper: pick("wrapper-path", "TMA_WRAPPER_PATH", defaultWrapperPath(env, options.execPath)),
  };
}

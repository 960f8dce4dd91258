/**
 * Where tma's own files live (G32, G33, U3). Every function takes the
 * environment as a parameter, so tests resolve paths under a scratch HOME.
 * @module
 */

/** Reads one environment variable. */
export type EnvReader = (name: string) => string | undefined;

/** The user's home directory. */
export function homeDir(env: EnvReader): string {
  return env("HOME") ?? env("USERPROFILE") ?? "/";
}

/** `$XDG_CONFIG_HOME`, else `~/.config`. */
export function xdgConfigHome(env: EnvReader): string {
  return env("XDG_CONFIG_HOME") || `${homeDir(env)}/.config`;
}

/** tma's config directory: `$XDG_CONFIG_HOME/tma` (or `~/.config/tma`). */
export function configDir(env: EnvReader): string {
  return `${xdgConfigHome(env)}/tma`;
}

/** The directory of install bookkeeping files: `TMA_CONFIG_DIR`, else the config directory. */
export function installConfigDir(env: EnvReader, flag?: string): string {
  return flag || env("TMA_CONFIG_DIR") || configDir(env);
}

/** `$XDG_RUNTIME_DIR`, else `$TMPDIR`, else `/tmp` (U3). */
export function runtimeDir(env: EnvReader): string {
  return env("XDG_RUNTIME_DIR") || env("TMPDIR") || "/tmp";
}

/**
 * The owner of tma's runtime folder, or null when there is none (no daemon
 * or drainer ever ran): one stat, which a hook makes before it loads any of
 * the daemon's client code.
 */
export function runtimeOwner(env: EnvReader): number | null {
  try {
    return Deno.statSync(`${runtimeDir(env).replace(/\/+$/, "")}/tma`).uid;
  } catch {
    return null;
  }
}

/** tma's state directory: `$XDG_STATE_HOME/tma` (or `~/.local/state/tma`). */
export function stateDir(env: EnvReader): string {
  return `${env("XDG_STATE_HOME") || `${homeDir(env)}/.local/state`}/tma`;
}

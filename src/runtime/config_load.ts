/**
 * Finds and reads `config.toml` (G1): `--config`, then `TMA_CONFIG`, then
 * `$XDG_CONFIG_HOME/tma/config.toml`, then `~/.config/tma/config.toml`. A
 * missing file means all defaults (G2).
 * @module
 */
import { parseConfig } from "../core/config/parse.ts";
import { type Config, defaultConfig } from "../core/config/schema.ts";
import { configDir } from "./paths.ts";

/** Where the config comes from. */
export interface ConfigSource {
  /** `--config`. */
  flag?: string;
  /** `--no-config`: defaults only, no file read. */
  disabled?: boolean;
  env(name: string): string | undefined;
}

/** The path the config is read from, whether or not it exists. */
export function configPath(source: ConfigSource): string {
  if (source.flag) return source.flag;
  const fromEnv = source.env("TMA_CONFIG");
  if (fromEnv) return fromEnv;
  return `${configDir(source.env)}/config.toml`;
}

/** Reads and validates the config; throws `ConfigError` on a bad file. */
export async function loadConfig(source: ConfigSource): Promise<Config> {
  if (source.disabled) return defaultConfig();
  const path = configPath(source);
  let text: string;
  try {
    text = await Deno.readTextFile(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return defaultConfig();
    throw error;
  }
  return parseConfig(text, path);
}

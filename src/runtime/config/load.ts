/**
 * Finds and reads `config.toml`: `--config`, then `TMA_CONFIG`, then
 * `$XDG_CONFIG_HOME/tma/config.toml`, then `~/.config/tma/config.toml` (G1).
 * A missing file means all defaults (G2).
 * @module
 */
import { PREVALIDATED_DEFAULT_CONFIG } from "../../assets/prevalidated.ts";
import type { Config } from "../../core/config/schema.ts";
import { decodeValidated } from "../../core/prevalidated.ts";
import { configDir } from "../paths.ts";

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

/**
 * The all-defaults configuration as the build validated it: no TOML or zod
 * on the status path of a machine without a config file (D64). A test pins
 * it equal to `defaultConfig()`.
 */
export function prevalidatedDefaultConfig(): Config {
  return decodeValidated<Config>(PREVALIDATED_DEFAULT_CONFIG);
}

/** Reads and validates the config; throws `ConfigError` on a bad file. */
export async function loadConfig(source: ConfigSource): Promise<Config> {
  if (source.disabled) return prevalidatedDefaultConfig();
  const path = configPath(source);
  let text: string;
  try {
    // Synchronous: one small file, and the first async file op of a process
    // starts a worker thread that a status-line poll would wait for (D64).
    text = Deno.readTextFileSync(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return prevalidatedDefaultConfig();
    throw error;
  }
  const { parseConfig } = await import("../../core/config/parse.ts");
  return parseConfig(text, path);
}

/**
 * Parses config text into a `Config`, with errors that name the file, the
 * key path and what was expected (G3). Pure: the caller reads the file.
 * @module
 */
import { parseToml } from "../../deps/toml.ts";
import type { z } from "../../deps/zod.ts";
import { TmaError } from "../errors.ts";
import { type Config, configSchema } from "./schema.ts";

/** A config file that does not parse or validate. Exit 1. */
export class ConfigError extends TmaError {
  readonly path: string;
  constructor(path: string, detail: string) {
    super(`config ${path}: ${detail}`);
    this.name = "ConfigError";
    this.path = path;
  }
}

/**
 * Parses and validates config text.
 *
 * ```ts
 * parseConfig("[fold]\ndwell_secs = 5\n", "config.toml").fold.dwell_secs; // 5
 * ```
 */
export function parseConfig(text: string, path: string): Config {
  let raw: unknown;
  try {
    raw = parseToml(text);
  } catch (error) {
    throw new ConfigError(path, `not valid TOML: ${describeTomlError(error)}`);
  }
  const result = configSchema.safeParse(raw);
  if (!result.success) throw new ConfigError(path, describeIssue(result.error.issues[0]));
  return result.data;
}

/** One line for a TOML syntax error, with its line and column when known. */
export function describeTomlError(error: unknown): string {
  const message = error instanceof Error ? error.message.split("\n")[0] : String(error);
  const where = error as { line?: number; column?: number };
  return typeof where.line === "number"
    ? `${message} (line ${where.line}, column ${where.column ?? 0})`
    : message;
}

/** Renders a key path the way a TOML user writes it: `[notify.blocked] command`. */
export function tomlKeyPath(path: readonly PropertyKey[]): string {
  const keys = path.map(String);
  if (keys.length === 0) return "(top level)";
  if (keys.length === 1) return keys[0];
  const table = keys.slice(0, -1).filter((k) => !/^\d+$/.test(k)).join(".");
  return `[${table}] ${keys[keys.length - 1]}`;
}

function describeIssue(issue: z.core.$ZodIssue | undefined): string {
  if (!issue) return "invalid";
  if (issue.code === "unrecognized_keys") {
    const where = issue.path.length > 0 ? `in [${issue.path.map(String).join(".")}] ` : "";
    return `unknown key ${where}${
      issue.keys.map((k) => `"${k}"`).join(", ")
    }: remove it or check its spelling`;
  }
  return `${tomlKeyPath(issue.path)}: ${issue.message}`;
}

/**
 * A small argument parser for tma's command table: flags may come before or
 * after the subcommand (C3), `--flag value` and `--flag=value` both work, and
 * every usage error names the flag (exit 2).
 * @module
 */
import { UsageError } from "../core/errors.ts";

/** How one flag takes its value. */
export type FlagKind = "boolean" | "string" | "multi";

/** One flag of a command (or a global flag). */
export interface FlagSpec {
  name: string;
  short?: string;
  kind: FlagKind;
  /** One line for `--help`. */
  help: string;
  /** For string flags: the accepted values. */
  choices?: readonly string[];
  /** Left out of `--help`. */
  hidden?: boolean;
}

/** Parsed flags: booleans are true when given; strings hold the last value; multi flags every value. */
export interface ParsedFlags {
  [name: string]: boolean | string | string[] | undefined;
}

/** The result of parsing argv against a set of flags. */
export interface ParsedArgs {
  flags: ParsedFlags;
  positionals: string[];
}

/**
 * Parses `argv` against `specs`. A `--` ends flag parsing.
 *
 * ```ts
 * parseFlags(["--json", "x"], [{ name: "json", kind: "boolean", help: "" }]);
 * // { flags: { json: true }, positionals: ["x"] }
 * ```
 */
export function parseFlags(argv: readonly string[], specs: readonly FlagSpec[]): ParsedArgs {
  const byName = new Map(specs.map((spec) => [spec.name, spec]));
  const byShort = new Map(specs.filter((s) => s.short).map((spec) => [spec.short!, spec]));
  const flags: ParsedFlags = {};
  const positionals: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === "--") {
      positionals.push(...argv.slice(i + 1));
      break;
    }
    let spec: FlagSpec | undefined;
    let inline: string | undefined;
    let shown = arg;
    if (arg.startsWith("--")) {
      const eq = arg.indexOf("=");
      const name = eq < 0 ? arg.slice(2) : arg.slice(2, eq);
      inline = eq < 0 ? undefined : arg.slice(eq + 1);
      spec = byName.get(name);
      shown = `--${name}`;
      if (!spec) throw new UsageError(`unknown flag ${shown} (see --help)`);
    } else if (arg.startsWith("-") && arg.length === 2) {
      spec = byShort.get(arg.slice(1));
      if (!spec) throw new UsageError(`unknown flag ${arg} (see --help)`);
    } else {
      positionals.push(arg);
      continue;
    }
    if (spec.kind === "boolean") {
      if (inline !== undefined) throw new UsageError(`${shown} takes no value`);
      flags[spec.name] = true;
      continue;
    }
    let value = inline;
    if (value === undefined) {
      if (i + 1 >= argv.length) throw new UsageError(`${shown} needs a value`);
      value = argv[++i];
    }
    if (spec.choices && !spec.choices.includes(value)) {
      throw new UsageError(`${shown} must be one of ${spec.choices.join(", ")} (got "${value}")`);
    }
    if (spec.kind === "multi") {
      const list = (flags[spec.name] as string[] | undefined) ?? [];
      list.push(value);
      flags[spec.name] = list;
    } else {
      flags[spec.name] = value;
    }
  }
  return { flags, positionals };
}

/** Reads a string flag. */
export function stringFlag(flags: ParsedFlags, name: string): string | undefined {
  const value = flags[name];
  return typeof value === "string" ? value : undefined;
}

/** Reads a boolean flag. */
export function boolFlag(flags: ParsedFlags, name: string): boolean {
  return flags[name] === true;
}

/** Reads a multi flag. */
export function multiFlag(flags: ParsedFlags, name: string): string[] {
  const value = flags[name];
  return Array.isArray(value) ? value : [];
}

/** Formats the flag list of a help text. */
export function formatFlags(specs: readonly FlagSpec[]): string {
  const rows = specs.filter((s) => !s.hidden).map((spec) => {
    const short = spec.short ? `-${spec.short}, ` : "    ";
    const value = spec.kind === "boolean"
      ? ""
      : spec.choices
      ? ` <${spec.choices.join("|")}>`
      : " <VALUE>";
    return [`  ${short}--${spec.name}${value}`, spec.help];
  });
  const width = Math.max(0, ...rows.map(([left]) => left.length)) + 2;
  return rows.map(([left, help]) => left.padEnd(width) + help).join("\n");
}

/**
 * Whether the flags ask for other hosts (`--host`, `--all-hosts`, X9): the
 * fleet code loads only then, so a command without them runs as before.
 */
export function fleetAsked(flags: ParsedFlags): boolean {
  return flags["host"] !== undefined || flags["all-hosts"] === true;
}

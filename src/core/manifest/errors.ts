/**
 * The one error a manifest can fail with: which file, which key, what was
 * wrong and how to fix it, on one line.
 *
 * ```ts
 * import { ManifestError } from "./errors.ts";
 * const err = new ManifestError({
 *   path: "/home/u/.config/tma/agents/mine.toml",
 *   keyPath: "rules[0].region",
 *   problem: '"tail(5)" is not a region; use tail_lines(N), visible or title',
 * });
 * err.message; // "/home/u/.config/tma/agents/mine.toml: rules[0].region: \"tail(5)\" is …"
 * err.reason; // "rules[0].region: \"tail(5)\" is …"
 * ```
 * @module
 */

import { TmaError } from "../errors.ts";
import type { ZodError } from "../../deps/zod.ts";

/** What a {@linkcode ManifestError} is built from. */
export interface ManifestErrorInit {
  /** The manifest file, as the loader named it. */
  path: string;
  /** The offending key as a dotted path with indexes (`rules[2].match.all[0].regex`); empty for the whole file. */
  keyPath: string;
  /** What was wrong and the fix, without the file or key (one line). */
  problem: string;
}

/**
 * A manifest that cannot be loaded. `message` is `<path>: <reason>` and
 * `reason` is `<keyPath>: <problem>` (just `<problem>` for whole-file errors
 * such as bad TOML), so `reason` suits a line that already names the file,
 * like `tma: skipping manifest <path>: <reason>` (M3).
 */
export class ManifestError extends TmaError {
  /** The manifest file. */
  readonly path: string;
  /** The offending key path, or `""` for a whole-file error. */
  readonly keyPath: string;
  /** What was wrong and the fix, without the file or key. */
  readonly problem: string;
  /** The key and the problem, without the file. */
  readonly reason: string;

  constructor(init: ManifestErrorInit) {
    const problem = oneLine(init.problem);
    const reason = init.keyPath === "" ? problem : `${init.keyPath}: ${problem}`;
    super(`${init.path}: ${reason}`);
    this.name = "ManifestError";
    this.path = init.path;
    this.keyPath = init.keyPath;
    this.problem = problem;
    this.reason = reason;
  }
}

/** A zod issue as this module reads it (the fields every issue code may carry). */
interface IssueLike {
  code: string;
  path: PropertyKey[];
  message: string;
  input?: unknown;
  keys?: string[];
  values?: unknown[];
  expected?: string;
  origin?: string;
  minimum?: number | bigint;
  maximum?: number | bigint;
}

/**
 * Turns the first issue of a failed zod parse into a {@linkcode ManifestError}
 * for `path`. Parse with `{ reportInput: true }` so a missing key can be told
 * from a wrong value.
 */
export function manifestErrorFromZod(path: string, error: ZodError): ManifestError {
  const issues = error.issues as unknown as IssueLike[];
  // An unknown key is reported first: it is usually the cause of the other
  // issues (a misspelt required key also shows up as missing), and a missing
  // key at the same level becomes the spelling hint.
  const unknown = issues.find((i) => i.code === "unrecognized_keys");
  const issue = unknown ?? issues[0];
  let { keyPath, problem } = describeIssue(issue);
  if (unknown) {
    const level = formatKeyPath(unknown.path);
    const missing = issues
      .filter((i) => i.code === "invalid_type" && i.input === undefined && i.path.length > 0)
      .filter((i) => formatKeyPath(i.path.slice(0, -1)) === level)
      .map((i) => String(i.path[i.path.length - 1]));
    if (missing.length > 0) problem += ` (missing here: ${missing.join(", ")})`;
  }
  return new ManifestError({ path, keyPath, problem });
}

/** Formats a zod path as `a.b[2].c`. */
export function formatKeyPath(path: readonly PropertyKey[]): string {
  let out = "";
  for (const part of path) {
    if (typeof part === "number") out += `[${part}]`;
    else {
      const key = String(part);
      const bare = /^[A-Za-z0-9_-]+$/.test(key) ? key : JSON.stringify(key);
      out += out === "" ? bare : `.${bare}`;
    }
  }
  return out;
}

function describeIssue(issue: IssueLike): { keyPath: string; problem: string } {
  const keyPath = formatKeyPath(issue.path);
  switch (issue.code) {
    case "unrecognized_keys": {
      const key = issue.keys?.[0] ?? "?";
      return {
        keyPath: formatKeyPath([...issue.path, key]),
        problem: `unknown key "${key}"; remove it or fix its spelling`,
      };
    }
    case "invalid_type":
      if (!("input" in issue) || issue.input === undefined) {
        return { keyPath, problem: "missing required key; add it" };
      }
      return {
        keyPath,
        problem: `expected ${article(issue.expected ?? "value")}, got ${typeName(issue.input)}`,
      };
    case "invalid_value": {
      // A schema-specific message (set with `error:`) already says the fix.
      if (!issue.message.startsWith("Invalid option")) return { keyPath, problem: issue.message };
      const options = (issue.values ?? []).map((v) => String(v)).join(", ");
      return {
        keyPath,
        problem: `${JSON.stringify(issue.input)} is not allowed here; use one of ${options}`,
      };
    }
    case "too_small":
      if (issue.origin === "array") {
        return { keyPath, problem: `needs at least ${issue.minimum} entr${plural(issue.minimum)}` };
      }
      if (issue.origin === "string") return { keyPath, problem: "must not be empty" };
      return { keyPath, problem: `must be at least ${issue.minimum}` };
    case "too_big":
      if (issue.origin === "array") {
        return { keyPath, problem: `takes at most ${issue.maximum} entr${plural(issue.maximum)}` };
      }
      return { keyPath, problem: `must be at most ${issue.maximum}` };
    default:
      return { keyPath, problem: issue.message };
  }
}

function plural(n: number | bigint | undefined): string {
  return n === 1 || n === 1n ? "y" : "ies";
}

function article(expected: string): string {
  if (expected === "int") return "an integer";
  if (expected === "array") return "an array";
  if (expected === "object") return "a table";
  return /^[aeiou]/.test(expected) ? `an ${expected}` : `a ${expected}`;
}

function typeName(value: unknown): string {
  if (Array.isArray(value)) return "an array";
  if (value === null) return "null";
  if (value instanceof Date) return "a date";
  if (typeof value === "object") return "a table";
  if (typeof value === "number") {
    return Number.isInteger(value) ? `the number ${value}` : `${value}`;
  }
  if (typeof value === "string") return `the string ${JSON.stringify(value)}`;
  return typeof value;
}

function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, " ").trim();
}

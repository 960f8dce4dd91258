/**
 * Parses one agent or action manifest from its TOML text: the engine-version
 * gate first (M5, M30), then the strict schema. Pure: the caller reads the
 * file and names it.
 *
 * ```ts
 * import { parseAgentManifest } from "./parse.ts";
 * const m = parseAgentManifest(
 *   'min_engine_version = "0.1"\n[identity]\nprocess_names = ["mycli"]\n[capture]\n',
 *   { path: "/home/u/.config/tma/agents/mycli.toml", stem: "mycli" },
 * );
 * m.name; // "mycli"
 * ```
 * @module
 */

import { parseToml, TomlError } from "../../deps/toml.ts";
import { compareVersions, ENGINE_VERSION, parseVersion } from "../version.ts";
import { type ActionManifest, actionManifestSchema } from "./action_schema.ts";
import { type AgentManifest, agentManifestSchema } from "./agent_schema.ts";
import { ManifestError, manifestErrorFromZod } from "./errors.ts";

/** Where a manifest came from: the file (for messages) and its filename stem (its name). */
export interface ManifestOrigin {
  /** The file path as it should appear in messages (bundled files use a `bundled:` path). */
  path: string;
  /** The filename without `.toml`: the agent or action name (M2, M29). */
  stem: string;
}

/** A loaded agent manifest: the schema's output plus its name (the stem) and path. */
export type ParsedAgentManifest = Omit<AgentManifest, "name"> & {
  /** The agent name: the filename stem (M2). */
  readonly name: string;
  /** The file it was read from. */
  readonly path: string;
};

/** A loaded action manifest: the schema's output plus its path. */
export type ParsedActionManifest = ActionManifest & {
  /** The file it was read from. */
  readonly path: string;
};

/**
 * Parses and validates an agent manifest. Throws {@linkcode ManifestError}
 * naming the file, the key and the fix: bad TOML, a `min_engine_version`
 * newer than this engine (checked before the strict parse, so the message
 * says "upgrade tma" rather than "unknown key"), an unknown key at any
 * level, a bad region, an invalid regex, a bad token, or a `name` that is
 * not the stem.
 */
export function parseAgentManifest(text: string, origin: ManifestOrigin): ParsedAgentManifest {
  const doc = readToml(text, origin.path);
  checkEngineVersion(doc, origin.path);
  const result = agentManifestSchema.safeParse(doc, { reportInput: true });
  if (!result.success) throw manifestErrorFromZod(origin.path, result.error);
  const { name, ...rest } = result.data;
  if (name !== undefined && name !== origin.stem) {
    throw new ManifestError({
      path: origin.path,
      keyPath: "name",
      problem: `is "${name}" but the file is named ${origin.stem}.toml, and the stem is the ` +
        "agent's name; remove the key or rename the file",
    });
  }
  return { ...rest, name: origin.stem, path: origin.path };
}

/**
 * Parses and validates an action manifest, with the same gate and errors as
 * {@linkcode parseAgentManifest}; `name` is required and must equal the stem
 * (M31).
 */
export function parseActionManifest(text: string, origin: ManifestOrigin): ParsedActionManifest {
  const doc = readToml(text, origin.path);
  checkEngineVersion(doc, origin.path);
  const result = actionManifestSchema.safeParse(doc, { reportInput: true });
  if (!result.success) throw manifestErrorFromZod(origin.path, result.error);
  if (result.data.name !== origin.stem) {
    throw new ManifestError({
      path: origin.path,
      keyPath: "name",
      problem: `is "${result.data.name}" but must equal the file's stem "${origin.stem}"; ` +
        "rename one to match the other",
    });
  }
  return { ...result.data, path: origin.path };
}

/**
 * Refuses a document whose `min_engine_version` is missing, malformed or
 * newer than {@linkcode ENGINE_VERSION}. Runs on the raw TOML table, before
 * any strict parsing.
 */
export function checkEngineVersion(doc: Record<string, unknown>, path: string): void {
  const raw = doc.min_engine_version;
  if (raw === undefined) {
    throw new ManifestError({
      path,
      keyPath: "min_engine_version",
      problem: `missing required key; add min_engine_version = "${ENGINE_VERSION}"`,
    });
  }
  const wanted = typeof raw === "string" ? parseVersion(raw) : null;
  if (wanted === null) {
    throw new ManifestError({
      path,
      keyPath: "min_engine_version",
      problem: `${JSON.stringify(raw)} is not a version; write a string such as ` +
        `"${ENGINE_VERSION}" (major.minor[.patch])`,
    });
  }
  const engine = parseVersion(ENGINE_VERSION) ?? [0, 0, 0];
  if (compareVersions(wanted, engine) > 0) {
    throw new ManifestError({
      path,
      keyPath: "min_engine_version",
      problem: `this manifest needs tma ${raw} or newer and this is tma ${ENGINE_VERSION}; ` +
        "upgrade tma",
    });
  }
}

function readToml(text: string, path: string): Record<string, unknown> {
  try {
    return parseToml(text) as Record<string, unknown>;
  } catch (err) {
    if (err instanceof TomlError) {
      const first = err.message.split("\n")[0].replace(/^Invalid TOML document:\s*/, "");
      throw new ManifestError({
        path,
        keyPath: "",
        problem: `invalid TOML at line ${err.line}, column ${err.column}: ${first}; fix the syntax`,
      });
    }
    throw err;
  }
}

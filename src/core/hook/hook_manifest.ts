/**
 * The slice of one agent manifest the hook intake reads: `[identity]` and
 * `[hooks]`, with claim details folded through `[details]` aliases.
 *
 * Why not `parseAgentManifest`: the hook intake runs inside an agent's own
 * hook on every event, and building the full zod schema of a manifest costs
 * more than the rest of an event put together (see the benchmark in the
 * hook intake's notes). This reader checks every key it uses as strictly as
 * the schema does (the engine-version gate, claim shape, covers, regexes,
 * detail tokens) and ignores the sections it does not read; the full schema
 * still judges the whole file on every poll surface. Its output types are the
 * schema's own (`z.infer`), so the two cannot drift apart in shape.
 *
 * ```ts
 * import { readHookManifest } from "./hook_manifest.ts";
 * const m = readHookManifest(
 *   'min_engine_version = "0.1"\n[identity]\nprocess_names = ["mycli"]\n' +
 *     '[hooks]\ncovers = ["working"]\n[[hooks.map]]\nevent = "Go"\nclaim = { state = "working" }\n',
 *   { path: "mycli.toml", stem: "mycli" },
 * );
 * m.hooks?.map[0].event; // "Go"
 * ```
 * @module
 */
import { parseToml } from "../../deps/toml.ts";
import { TmaError } from "../errors.ts";
import type { HookMapEntry } from "../manifest/agent_schema.ts";
import type { CompiledRegex } from "../manifest/fields.ts";
import type { ManifestOrigin, ParsedAgentManifest } from "../manifest/parse.ts";
import { isObject } from "../object.ts";
import { compileLinear } from "../regex/linear.ts";
import { DETAIL_TOKEN, STATES } from "../state.ts";
import { compareVersions, ENGINE_VERSION, parseVersion } from "../version.ts";

/** What the hook intake knows of an agent: its name, file, identity and hook map. */
export type HookManifest = Pick<ParsedAgentManifest, "name" | "path" | "identity" | "hooks">;

/** A manifest the hook intake cannot use; the message names the file and the key. */
export class HookManifestError extends TmaError {
  constructor(path: string, key: string, problem: string) {
    super(`${path}: ${key ? `${key}: ` : ""}${problem}`);
    this.name = "HookManifestError";
  }
}

/** The states a hook claim may assert: every state but `unknown` (D16). */
const CLAIMABLE: readonly string[] = STATES.filter((s) => s !== "unknown");

/** What `[hooks].covers` may list. */
const COVERABLE: readonly string[] = [...CLAIMABLE, "lifecycle"];

type Table = Record<string, unknown>;

/**
 * Reads the hook slice of a manifest's TOML text. Throws
 * {@linkcode HookManifestError} on anything the full loader would refuse in
 * the keys read here.
 */
export function readHookManifest(text: string, origin: ManifestOrigin): HookManifest {
  let doc: Table;
  try {
    doc = parseToml(text) as Table;
  } catch (error) {
    const why = error instanceof Error ? error.message.split("\n")[0] : String(error);
    throw new HookManifestError(origin.path, "", `invalid TOML (${why}); fix the syntax`);
  }
  checkEngine(doc, origin.path);
  if (doc.name !== undefined && doc.name !== origin.stem) {
    throw new HookManifestError(origin.path, "name", `must equal the file's stem "${origin.stem}"`);
  }
  const aliases = readAliases(doc.details, origin.path);
  return {
    name: origin.stem,
    path: origin.path,
    identity: readIdentity(doc.identity, origin.path),
    hooks: doc.hooks === undefined
      ? undefined
      : readHooks(doc.hooks, { path: origin.path, aliases }),
  };
}

function checkEngine(doc: Table, path: string): void {
  const raw = doc.min_engine_version;
  const wanted = typeof raw === "string" ? parseVersion(raw) : null;
  if (wanted === null) {
    throw new HookManifestError(path, "min_engine_version", `missing or not a version string`);
  }
  if (compareVersions(wanted, parseVersion(ENGINE_VERSION) ?? [0, 0, 0]) > 0) {
    throw new HookManifestError(
      path,
      "min_engine_version",
      `needs tma ${raw} or newer and this is tma ${ENGINE_VERSION}; upgrade tma`,
    );
  }
}

function readIdentity(value: unknown, path: string): HookManifest["identity"] {
  if (!isObject(value)) throw new HookManifestError(path, "identity", "missing [identity] table");
  const names = value.process_names;
  if (
    !Array.isArray(names) || names.length === 0 ||
    !names.every((n) => typeof n === "string" && n !== "")
  ) {
    throw new HookManifestError(path, "identity.process_names", "needs at least one name");
  }
  return {
    process_names: names as string[],
    title_patterns: readRegexes(value.title_patterns, `${path}`, "identity.title_patterns"),
    args_patterns: readRegexes(value.args_patterns, `${path}`, "identity.args_patterns"),
  };
}

function readRegexes(value: unknown, path: string, key: string): CompiledRegex[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) throw new HookManifestError(path, key, "must be an array of regexes");
  return value.map((source, i) => compile(source, path, `${key}[${i}]`));
}

function compile(source: unknown, path: string, key: string): CompiledRegex {
  if (typeof source !== "string") throw new HookManifestError(path, key, "must be a string");
  try {
    // The manifest schema's engine: a user's pattern matches in linear time.
    return { source, re: compileLinear(source) };
  } catch (error) {
    throw new HookManifestError(path, key, error instanceof Error ? error.message : String(error));
  }
}

function readAliases(value: unknown, path: string): Map<string, string> {
  const index = new Map<string, string>();
  if (value === undefined) return index;
  if (!isObject(value)) throw new HookManifestError(path, "details", "must be a table");
  for (const [canonical, entry] of Object.entries(value)) {
    const list = isObject(entry) ? entry.aliases ?? [] : null;
    if (!Array.isArray(list) || !list.every((a) => typeof a === "string" && DETAIL_TOKEN.test(a))) {
      throw new HookManifestError(path, `details.${canonical}`, "aliases must be detail tokens");
    }
    for (const alias of list as string[]) index.set(alias, canonical);
  }
  return index;
}

function readHooks(
  value: unknown,
  context: { path: string; aliases: Map<string, string> },
): NonNullable<HookManifest["hooks"]> {
  const { path } = context;
  if (!isObject(value)) throw new HookManifestError(path, "hooks", "must be a table");
  const covers = value.covers ?? [];
  if (!Array.isArray(covers) || !covers.every((c) => COVERABLE.includes(c as string))) {
    throw new HookManifestError(path, "hooks.covers", `may list only ${COVERABLE.join(", ")}`);
  }
  const map = value.map ?? [];
  if (!Array.isArray(map)) throw new HookManifestError(path, "hooks.map", "must be an array");
  const order = readOrder(value.order, path);
  const entries = map.map((entry, i) =>
    readEntry(entry, { ...context, key: `hooks.map[${i}]`, covers: covers as string[] })
  );
  const phased = entries.findIndex((e) => e.phase !== undefined);
  if (phased >= 0 && order === undefined) {
    throw new HookManifestError(
      path,
      `hooks.map[${phased}].phase`,
      "orders nothing without [hooks.order]; add its turn (and call) fields or drop the phase",
    );
  }
  return {
    covers: covers as NonNullable<HookManifest["hooks"]>["covers"],
    map: entries,
    ...(order === undefined ? {} : { order }),
  };
}

function readOrder(value: unknown, path: string): NonNullable<HookManifest["hooks"]>["order"] {
  if (value === undefined) return undefined;
  if (!isObject(value)) throw new HookManifestError(path, "hooks.order", "must be a table");
  const names = (list: unknown, key: string, least: number): string[] => {
    if (
      !Array.isArray(list) || list.length < least ||
      !list.every((n) => typeof n === "string" && n !== "")
    ) {
      throw new HookManifestError(
        path,
        key,
        `must list${least ? " at least one" : ""} field names`,
      );
    }
    return list as string[];
  };
  return {
    turn: names(value.turn, "hooks.order.turn", 1),
    call: value.call === undefined ? [] : names(value.call, "hooks.order.call", 0),
  };
}

function readEntry(
  entry: unknown,
  context: { path: string; key: string; covers: string[]; aliases: Map<string, string> },
): HookMapEntry {
  const { path, key } = context;
  if (!isObject(entry)) throw new HookManifestError(path, key, "must be a table");
  if (typeof entry.event !== "string" || entry.event === "") {
    throw new HookManifestError(path, `${key}.event`, "needs a non-empty event name");
  }
  if (entry.turn_end !== undefined && typeof entry.turn_end !== "boolean") {
    throw new HookManifestError(path, `${key}.turn_end`, "must be true or false");
  }
  const phase = entry.phase;
  if (
    phase !== undefined && (typeof phase !== "number" || !Number.isInteger(phase) || phase < 0 ||
      phase > 9)
  ) {
    throw new HookManifestError(path, `${key}.phase`, "must be a whole number from 0 to 9");
  }
  const matcher = entry.matcher === undefined
    ? undefined
    : compile(entry.matcher, path, `${key}.matcher`);
  const claim = entry.claim;
  if (!isObject(claim)) throw new HookManifestError(path, `${key}.claim`, "must be a table");
  const base = {
    event: entry.event,
    matcher,
    turn_end: entry.turn_end === true,
    ...(phase === undefined ? {} : { phase: phase as number }),
  };
  if (claim.lifecycle !== undefined) {
    if (
      (claim.lifecycle !== "start" && claim.lifecycle !== "end") || claim.state !== undefined ||
      claim.detail !== undefined
    ) {
      throw new HookManifestError(
        path,
        `${key}.claim`,
        'lifecycle must be "start" or "end", alone',
      );
    }
    requireCovered("lifecycle", context);
    return { ...base, claim: { lifecycle: claim.lifecycle } };
  }
  if (typeof claim.state !== "string" || !CLAIMABLE.includes(claim.state)) {
    throw new HookManifestError(path, `${key}.claim.state`, "must be idle, working or blocked");
  }
  if (
    claim.detail !== undefined &&
    (typeof claim.detail !== "string" || !DETAIL_TOKEN.test(claim.detail))
  ) {
    throw new HookManifestError(path, `${key}.claim.detail`, "is not a detail token");
  }
  requireCovered(claim.state, context);
  const detail = claim.detail === undefined
    ? undefined
    : context.aliases.get(claim.detail) ?? claim.detail;
  return {
    ...base,
    claim: { state: claim.state as "idle" | "working" | "blocked", detail },
  };
}

function requireCovered(
  token: string,
  context: { path: string; key: string; covers: string[] },
): void {
  if (!context.covers.includes(token)) {
    throw new HookManifestError(
      context.path,
      `${context.key}.claim`,
      `claims "${token}", which [hooks].covers does not list`,
    );
  }
}

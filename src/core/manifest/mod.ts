/**
 * Agent and action manifests: the zod schemas, their types, and the pure
 * parsers the runtime loader calls with a file's text and name.
 *
 * ```ts
 * import { parseAgentManifest } from "./mod.ts";
 * const m = parseAgentManifest(
 *   'min_engine_version = "0.1"\n[identity]\nprocess_names = ["mycli"]\n[capture]\n',
 *   { path: "mycli.toml", stem: "mycli" },
 * );
 * m.identity.process_names; // ["mycli"]
 * ```
 * @module
 */

export * from "./action_schema.ts";
export * from "./agent_schema.ts";
export * from "./errors.ts";
export * from "./fields.ts";
export * from "./parse.ts";
export * from "./predicate_schema.ts";

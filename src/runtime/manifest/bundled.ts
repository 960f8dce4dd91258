/**
 * The bundled agent and action manifests as `deno task embed` validated
 * them (src/assets/prevalidated.ts): every runtime surface reads the bundled
 * corpus from here, with one `JSON.parse`, never by parsing its TOML again
 * (D64). A test pins this equal to a fresh TOML + zod parse of every file.
 * The hook path reads its agent's slice from `bundled_hook.ts` instead.
 * @module
 */
import { PREVALIDATED_ACTIONS, PREVALIDATED_AGENTS } from "../../assets/prevalidated.ts";
import type { ParsedActionManifest, ParsedAgentManifest } from "../../core/manifest/parse.ts";
import { decodeValidated } from "../../core/prevalidated.ts";

/** The bundled agent manifests by stem, in name order. */
export function bundledAgents(): Map<string, ParsedAgentManifest> {
  return new Map(
    Object.entries(decodeValidated<Record<string, ParsedAgentManifest>>(PREVALIDATED_AGENTS)),
  );
}

/** The bundled action manifests by stem, in name order. */
export function bundledActions(): Map<string, ParsedActionManifest> {
  return new Map(
    Object.entries(decodeValidated<Record<string, ParsedActionManifest>>(PREVALIDATED_ACTIONS)),
  );
}

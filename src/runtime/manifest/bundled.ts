/**
 * The bundled agent and action manifests as `deno task embed` validated
 * them (src/assets/prevalidated.ts): every runtime surface reads the bundled
 * corpus from here, with one `JSON.parse`, never by parsing its TOML again
 * (D64). A test pins this equal to a fresh TOML + zod parse of every file.
 * @module
 */
import {
  PREVALIDATED_ACTIONS,
  PREVALIDATED_AGENTS,
  PREVALIDATED_HOOK_SLICES,
} from "../../assets/prevalidated.ts";
import type { HookManifest } from "../../core/hook/hook_manifest.ts";
import type { ParsedActionManifest, ParsedAgentManifest } from "../../core/manifest/parse.ts";
import { decodeValidated } from "../../core/prevalidated.ts";

/** The bundled agent manifests by stem, in name order. */
export function bundledAgents(): Map<string, ParsedAgentManifest> {
  return new Map(
    Object.entries(decodeValidated<Record<string, ParsedAgentManifest>>(PREVALIDATED_AGENTS)),
  );
}

/**
 * One bundled agent's hook slice, or undefined for no such agent: what `tma
 * event` reads, decoded alone (every agent's screen rules would cost each
 * hook their regex compiles).
 */
export function bundledHookManifest(agent: string): HookManifest | undefined {
  if (!Object.hasOwn(PREVALIDATED_HOOK_SLICES, agent)) return undefined;
  return decodeValidated<HookManifest>(PREVALIDATED_HOOK_SLICES[agent]);
}

/** The bundled action manifests by stem, in name order. */
export function bundledActions(): Map<string, ParsedActionManifest> {
  return new Map(
    Object.entries(decodeValidated<Record<string, ParsedActionManifest>>(PREVALIDATED_ACTIONS)),
  );
}

/**
 * One bundled agent's hook slice as `deno task embed` validated it
 * (src/assets/prevalidated_hooks.ts): what `tma event` reads, decoded alone.
 * Every agent's screen rules would cost each hook their regex compiles, and
 * the module of every manifest, action and the default config its load
 * (issue 14). A test pins each slice equal to a fresh parse.
 * @module
 */
import { PREVALIDATED_HOOK_SLICES } from "../../assets/prevalidated_hooks.ts";
import type { HookManifest } from "../../core/hook/hook_manifest.ts";
import { decodeValidated } from "../../core/prevalidated.ts";

/**
 * One bundled agent's hook slice, or undefined for no such agent.
 *
 * ```ts
 * bundledHookManifest("claude")?.hooks?.map.length; // the claude manifest's hook map
 * ```
 */
export function bundledHookManifest(agent: string): HookManifest | undefined {
  if (!Object.hasOwn(PREVALIDATED_HOOK_SLICES, agent)) return undefined;
  return decodeValidated<HookManifest>(PREVALIDATED_HOOK_SLICES[agent]);
}

/**
 * An agent's identity profile from its manifest's `[identity]`, with the
 * extra process names a `[[agent]]` entry adds (D34): the one place the
 * detection cycle, the hook intake and the hand-over check build it.
 *
 * ```ts
 * import { profileOf } from "./profile.ts";
 * const profile = profileOf({
 *   name: "mycli",
 *   identity: { process_names: ["mycli"], title_patterns: [], args_patterns: [] },
 * }, ["mycli-beta"]);
 * profile.processNames; // ["mycli", "mycli-beta"]
 * ```
 * @module
 */
import type { AgentProfile } from "./identity.ts";
import type { ParsedAgentManifest } from "./manifest/parse.ts";

/** The profile of `manifest`, `extraNames` after its own process names. */
export function profileOf(
  manifest: Pick<ParsedAgentManifest, "name" | "identity">,
  extraNames: readonly string[] = [],
): AgentProfile {
  const identity = manifest.identity;
  return {
    name: manifest.name,
    processNames: [...identity.process_names, ...extraNames],
    titlePatterns: identity.title_patterns.map((p) => p.re),
    argsPatterns: identity.args_patterns.map((p) => p.re),
  };
}

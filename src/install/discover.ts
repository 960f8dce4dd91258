/**
 * Step 1 of `tma init` (C74): which agents install-hooks can wire are
 * installed here, found on PATH by their manifest name and `process_names`.
 * Generic runtime names (`node`, `python`...) identify nothing on their own,
 * so they are never looked up: a machine with Node is not a machine with
 * Codex.
 * @module
 */
import { GENERIC_NAMES } from "../core/identity.ts";
import type { EnvReader } from "../runtime/paths.ts";
import { AGENT_NAMES, type AgentName } from "./agents.ts";

/** An agent found on PATH. */
export interface FoundAgent {
  agent: AgentName;
  /** The executable that gave it away. */
  path: string;
}

/** The names to look up for one agent: its name, then its process names, generic ones left out. */
export function lookupNames(agent: string, processNames: readonly string[]): string[] {
  const names = [agent, ...processNames].filter((name) => !GENERIC_NAMES.has(name));
  return [...new Set(names)];
}

function isExecutableFile(path: string): boolean {
  try {
    const info = Deno.statSync(path);
    return info.isFile && ((info.mode ?? 0o755) & 0o111) !== 0;
  } catch {
    return false;
  }
}

/**
 * The wireable agents with an executable on PATH, in install-hooks' order.
 * `processNames` gives each agent's manifest `process_names` (absent: the
 * name alone).
 */
export function findInstalledAgents(
  env: EnvReader,
  processNames: (agent: AgentName) => readonly string[] | undefined,
): FoundAgent[] {
  const dirs = (env("PATH") ?? "").split(":").filter((dir) => dir !== "");
  const found: FoundAgent[] = [];
  for (const agent of AGENT_NAMES) {
    const names = processNames(agent);
    if (names === undefined) continue; // no manifest: nothing to detect it by
    search: for (const name of lookupNames(agent, names)) {
      for (const dir of dirs) {
        if (isExecutableFile(`${dir}/${name}`)) {
          found.push({ agent, path: `${dir}/${name}` });
          break search;
        }
      }
    }
  }
  return found;
}

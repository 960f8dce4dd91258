/**
 * `statusline-state.toml`: per agent, whether the user keeps the statusline
 * context shim (`installed`) or opted out (`opted-out`), so later runs,
 * `--all` included, honour the choice (C80, G32).
 * @module
 */
import { parseToml } from "../deps/toml.ts";
import { InstallError } from "./errors.ts";

/** The file name inside tma's config directory. */
export const STATUSLINE_STATE_FILE = "statusline-state.toml";

/** One agent's recorded choice. */
export type StatuslineChoice = "installed" | "opted-out";

/** Recorded choices by agent. */
export type StatuslineState = Record<string, StatuslineChoice>;

/** Parses the file (absent or empty: no choices). */
export function parseStatuslineState(text: string | null, path: string): StatuslineState {
  if (text === null || text.trim() === "") return {};
  let doc: Record<string, unknown>;
  try {
    doc = parseToml(text) as Record<string, unknown>;
  } catch (error) {
    throw new InstallError(
      `${path}: not valid TOML (${
        error instanceof Error ? error.message.split("\n")[0] : error
      }); delete it to reset the statusline choices`,
      path,
    );
  }
  const state: StatuslineState = {};
  for (const [agent, value] of Object.entries(doc)) {
    if (value === "installed" || value === "opted-out") state[agent] = value;
  }
  return state;
}

/** Renders the file, or `null` when no choice is left (the file goes). */
export function renderStatuslineState(state: StatuslineState): string | null {
  const agents = Object.keys(state).sort();
  if (agents.length === 0) return null;
  return [
    "# Written by tma install-hooks: the statusline context shim choice per agent",
    '# ("installed" or "opted-out"). Change it with --statusline / --no-statusline.',
    ...agents.map((agent) => `${agent} = "${state[agent]}"`),
    "",
  ].join("\n");
}

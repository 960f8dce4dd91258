/**
 * What an uninstall leaves behind: lines in an agent's files that still run
 * tma after tma took its own entries out, because a hand edit changed them
 * past recognition (`FOO=1 tma-hook claude Stop`). They are reported (with
 * file and line) rather than guessed at, and while any file still names the
 * `tma-hook` wrapper, the wrapper stays, so no agent is left calling a
 * missing file.
 * @module
 */
import type { AgentName } from "./agents.ts";
import { WRAPPER_NAME } from "./hook_command.ts";
import type { InstallPaths } from "./paths.ts";
import { SHIM_MARKER } from "./statusline_shim.ts";

/** The files install-hooks edits for each agent. */
export const AGENT_PATHS: Readonly<Record<AgentName, (paths: InstallPaths) => string[]>> = {
  claude: (p) => [p.claudeSettings],
  gemini: (p) => [p.geminiSettings],
  codex: (p) => [p.codexConfig, p.codexHooks],
  cursor: (p) => [p.cursorHooks, p.cursorCliConfig],
  opencode: (p) => [p.opencodePlugin],
  pi: (p) => [p.piExtension],
};

/** One line that still reaches tma. */
export interface Leftover {
  path: string;
  line: number;
  text: string;
  /** It names the wrapper (so the wrapper must stay). */
  wrapper: boolean;
}

/**
 * The lines of `text` that still reach tma: the wrapper's name, the
 * statusline shim's marker, or a `tma event` call.
 *
 * ```ts
 * leftoversIn("/h/s.json", '{"command": "X=1 tma-hook claude Stop"}').length; // 1
 * ```
 */
export function leftoversIn(path: string, text: string): Leftover[] {
  const out: Leftover[] = [];
  text.split("\n").forEach((line, i) => {
    const wrapper = line.includes(WRAPPER_NAME);
    if (wrapper || line.includes(SHIM_MARKER) || /\btma event\b/.test(line)) {
      out.push({ path, line: i + 1, text: line.trim(), wrapper });
    }
  });
  return out;
}

/** The one-line report of a leftover. */
export function describeLeftover(leftover: Leftover): string {
  return `${leftover.path}:${leftover.line}: ${leftover.text}`;
}

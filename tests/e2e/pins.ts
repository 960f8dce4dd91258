/**
 * The real agents the end-to-end suite runs, each pinned to one npm version.
 *
 * The versions are the ones `real-agents.md` recorded as working offline against the mock
 * model, except Claude Code: it is pinned past 2.1.246 because that build changed the pane title
 * (a static `✳ <task>` in every state, row I16), which our screen rules must be tested against.
 * Every Claude Code build from 2.1.198 on declares `engines.node >=22`; on Node 20 npm only
 * warns (EBADENGINE) and the native binary runs regardless of the Node version.
 *
 * ```ts
 * import { AGENT_PINS, agentPrefix } from "./pins.ts";
 * const claude = AGENT_PINS.claude;
 * console.log(claude.pkg, claude.version, agentPrefix("claude"));
 * ```
 * @module
 */

/** The five agents the suite can run (Cursor CLI is not on npm, so it is absent). */
export const AGENT_NAMES = ["claude", "codex", "gemini", "opencode", "pi"] as const;

/** One of the agents in {@link AGENT_NAMES}. */
export type AgentName = (typeof AGENT_NAMES)[number];

/** An npm package pinned to one version, and the command it puts in `node_modules/.bin`. */
export interface AgentPin {
  /** The npm package name. */
  pkg: string;
  /** The exact version to install. */
  version: string;
  /** The executable name under `node_modules/.bin`. */
  bin: string;
}

/** The pinned package of each agent. */
export const AGENT_PINS: Readonly<Record<AgentName, AgentPin>> = {
  claude: { pkg: "@anthropic-ai/claude-code", version: "2.1.332", bin: "claude" },
  codex: { pkg: "@openai/codex", version: "0.171.0", bin: "codex" },
  gemini: { pkg: "@google/gemini-cli", version: "0.61.0", bin: "gemini" },
  opencode: { pkg: "opencode-ai", version: "1.18.33", bin: "opencode" },
  pi: { pkg: "@mariozechner/pi-coding-agent", version: "0.73.1", bin: "pi" },
};

/** The repository root, as a path (this file lives in `tests/e2e/`). */
export const REPO_ROOT: string = new URL("../../", import.meta.url).pathname.replace(/\/$/, "");

/** Where all agents are installed: a git-ignored folder of the repository. */
export const AGENTS_ROOT: string = `${REPO_ROOT}/.cache/e2e-agents`;

/** The npm `--prefix` folder of one agent. */
export function agentPrefix(agent: AgentName): string {
  return `${AGENTS_ROOT}/${agent}`;
}

/** The path of an agent's executable (the `.bin` symlink, so the process name is right). */
export function agentBin(agent: AgentName): string {
  return `${agentPrefix(agent)}/node_modules/.bin/${AGENT_PINS[agent].bin}`;
}

/** Whether `agent` is one of the suite's agent names. */
export function isAgentName(value: string): value is AgentName {
  return (AGENT_NAMES as readonly string[]).includes(value);
}

/**
 * The six agents `install-hooks` wires and, per agent, the events it writes
 * (features.md I11, I23-I25, I33-I35, I41-I42, I51-I52, I59-I60). The
 * bundled manifests map these events; a test keeps the two lists in step.
 * @module
 */

/** Agents in the order `--check` reports them. */
export const AGENT_NAMES = ["claude", "codex", "gemini", "cursor", "opencode", "pi"] as const;

/** One agent name. */
export type AgentName = (typeof AGENT_NAMES)[number];

/** Whether `name` is an agent install-hooks knows. */
export function isAgentName(name: string): name is AgentName {
  return (AGENT_NAMES as readonly string[]).includes(name);
}

/**
 * Claude Code's `settings.json` events (I11). `PermissionRequest` is never
 * async; `Notification` carries no matcher so every type reaches tma.
 */
export const CLAUDE_EVENTS: readonly string[] = [
  "SessionStart",
  "SessionEnd",
  "UserPromptSubmit",
  "PreToolUse",
  "PostToolUse",
  "PermissionRequest",
  "Notification",
  "Stop",
  "SubagentStart",
  "SubagentStop",
];

/**
 * The events each agent's hooks file marks `"async": true` (X10): the agent
 * runs them in the background and never waits. Only Claude Code has the
 * flag. Its `PermissionRequest` stays synchronous: it must stamp the pane
 * before the dialog draws, and it answers (I11, I13). The real Claude
 * 2.1.332 starts an async hook without ordering it against the synchronous
 * hooks that follow, so an async `PreToolUse` can take its fire time after
 * the `PermissionRequest` of the same tool call (28-32 ms in 2 e2e walks of
 * 3): the manifest's `[hooks.order]` orders such close events by their
 * phase in the turn instead (`core/hook/order.ts`, D47).
 */
export const ASYNC_EVENTS: Readonly<Record<string, readonly string[]>> = {
  claude: CLAUDE_EVENTS.filter((event) => event !== "PermissionRequest"),
};

/**
 * Codex's `hooks.json` events (I25), plus `Interrupt`, which the bundled
 * manifest maps (Codex fires it on Esc mid-turn and sends no `Stop`).
 */
export const CODEX_EVENTS: readonly string[] = [
  "SessionStart",
  "SessionEnd",
  "UserPromptSubmit",
  "PreToolUse",
  "PostToolUse",
  "PermissionRequest",
  "Stop",
  "Interrupt",
  "SubagentStart",
  "SubagentStop",
];

/** Codex's `notify` program is called with this event name. */
export const CODEX_NOTIFY_EVENT = "notify";

/**
 * Gemini's `settings.json` events (I35). `BeforeModel`/`AfterModel` are
 * deliberately not wired: they race `AfterAgent`. Each must be a name the
 * current build accepts ({@link GEMINI_ACCEPTED_EVENTS}): Gemini warns about
 * any other at every start, so SubagentStart and SubagentStop are not wired
 * (install-hooks removes them from an older install).
 */
export const GEMINI_EVENTS: readonly string[] = [
  "SessionStart",
  "SessionEnd",
  "BeforeAgent",
  "AfterAgent",
  "BeforeTool",
  "AfterTool",
  "Notification",
];

/**
 * The hook event names Gemini CLI 0.61 accepts, read from its bundle
 * (real-agents.md); any other name is skipped with `Invalid hook event
 * name` at every start. The real-agent suite fails on that warning.
 */
export const GEMINI_ACCEPTED_EVENTS: readonly string[] = [
  "SessionStart",
  "SessionEnd",
  "BeforeAgent",
  "AfterAgent",
  "BeforeModel",
  "AfterModel",
  "BeforeToolSelection",
  "BeforeTool",
  "AfterTool",
  "PreCompress",
  "Notification",
];

/** Cursor's `hooks.json` events (I52). No permission or subagent hooks exist. */
export const CURSOR_EVENTS: readonly string[] = [
  "sessionStart",
  "sessionEnd",
  "beforeSubmitPrompt",
  "preToolUse",
  "postToolUse",
  "postToolUseFailure",
  "stop",
];

/** Tokens the OpenCode plugin forwards (I42); the manifest maps the first five. */
export const OPENCODE_TOKENS: readonly string[] = [
  "session-start",
  "user-prompt-submit",
  "stop",
  "permission-required",
  "question-required",
  "permission-replied",
  "question-replied",
];

/** Events the pi extension forwards (I60), plus `context` (I64). */
export const PI_EVENTS: readonly string[] = [
  "session_start",
  "before_agent_start",
  "tool_execution_start",
  "agent_settled",
  "agent_end",
  "session_shutdown",
  "context",
];

/** Agents whose `statusLine` carries the context shim by default (I7). */
export const STATUSLINE_AGENTS: readonly AgentName[] = ["claude", "cursor"];

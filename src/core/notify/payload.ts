/**
 * What a notification says, built once for every dispatcher (P62-P64, X5):
 * the JSON payload on the command's stdin, its `TMA_*` environment mirror,
 * the JSONL log line, the status-line message and the OSC 9 text. Metadata
 * only: agent, place, reason, a redacted one-line excerpt of what is asked
 * and the command that jumps there; never the screen.
 *
 * ```ts
 * import { buildPayload, messageText } from "./payload.ts";
 * const payload = buildPayload({
 *   agent: "claude", pane: "%3", state: "blocked", detail: "permission", session: null,
 *   locator: "work:2.0", title: "✳ Fix it", windowName: "api", repo: "shop", branch: "main",
 *   episodeMs: 1785100000000, contextPct: 41, server: "/tmp/tmux-1000/default",
 * }, { trigger: "blocked", excerpt: "Bash: npm test", nowMs: 1785100004000, direct: false });
 * messageText(payload);
 * // "tma: claude needs you at work:2.0 (api): permission · Bash: npm test"
 * ```
 * @module
 */
import { stripAnsi } from "../ansi.ts";
import type { State } from "../state.ts";
import type { TriggerName } from "./trigger.ts";

/** The facts of the firing pane a payload is built from. */
export interface NotifyFacts {
  agent: string;
  pane: string;
  /** The pane's state as stamped. */
  state: State;
  detail: string | null;
  /** The agent's own session id (P49), or null. */
  session: string | null;
  locator: string;
  title: string;
  /** The tmux window's name (X5). */
  windowName: string;
  repo: string | null;
  branch: string | null;
  /** The episode instant (P44), or null. */
  episodeMs: number | null;
  contextPct: number | null;
  /** The tmux server's socket path (P57). */
  server: string;
}

/** The notification payload (P62), with the X5 keys after the contract's. */
export interface NotifyPayload {
  schema: 1;
  agent: string;
  pane: string;
  /** The trigger word: `blocked`, `done` or `context_high`. */
  state: TriggerName;
  detail: string | null;
  session: string | null;
  locator: string;
  title: string;
  repo: string;
  branch: string;
  /** The episode's age at fire time; 0 on a hook's direct fire. */
  since_ms: number;
  context_pct: number | null;
  /** The window's name (X5). */
  window: string;
  /** Why: the blocked detail (`permission`, `question`, ...), `done` or `context_high` (X5). */
  reason: string;
  /** What is asked, redacted, one line of at most 120 characters, or null (X5). */
  excerpt: string | null;
  /** The command that jumps there (X5). */
  jump: string;
  /** The tmux server's socket path, so the jump lands on the right server. */
  server: string;
}

/** The exact key set of a payload, in order (P75 drift test). */
export const PAYLOAD_KEYS: readonly (keyof NotifyPayload)[] = [
  "schema",
  "agent",
  "pane",
  "state",
  "detail",
  "session",
  "locator",
  "title",
  "repo",
  "branch",
  "since_ms",
  "context_pct",
  "window",
  "reason",
  "excerpt",
  "jump",
  "server",
];

/** How one fire came about. */
export interface FireContext {
  trigger: TriggerName;
  /** The finished excerpt (see `finishExcerpt`), or null. */
  excerpt: string | null;
  nowMs: number;
  /** A hook's direct fire: `since_ms` is 0 (P62). */
  direct: boolean;
}

/** The reason word of a fire (X5). */
export function reasonOf(trigger: TriggerName, detail: string | null): string {
  if (trigger === "blocked") return detail ?? "blocked";
  return trigger;
}

/** The one shared payload builder (P62): the same for every dispatcher. */
export function buildPayload(facts: NotifyFacts, fire: FireContext): NotifyPayload {
  const age = fire.direct || facts.episodeMs === null
    ? 0
    : Math.max(0, fire.nowMs - facts.episodeMs);
  return {
    schema: 1,
    agent: facts.agent,
    pane: facts.pane,
    state: fire.trigger,
    detail: facts.detail,
    session: facts.session,
    locator: facts.locator,
    title: facts.title,
    repo: facts.repo ?? "",
    branch: facts.branch ?? "",
    since_ms: age,
    context_pct: facts.contextPct,
    window: facts.windowName,
    reason: reasonOf(fire.trigger, facts.detail),
    excerpt: fire.excerpt,
    jump: `tma jump --pane ${facts.pane}`,
    server: facts.server,
  };
}

/**
 * Every name `payloadEnv` may set: a command gets these from its payload,
 * never from the environment of the process that fired it.
 */
export const PAYLOAD_ENV_NAMES: readonly string[] = [
  "TMA_AGENT",
  "TMA_PANE",
  "TMA_STATE",
  "TMA_LOCATOR",
  "TMA_TITLE",
  "TMA_SINCE_MS",
  "TMA_REASON",
  "TMA_JUMP",
  "TMA_DETAIL",
  "TMA_SESSION",
  "TMA_REPO",
  "TMA_BRANCH",
  "TMA_CONTEXT_PCT",
  "TMA_WINDOW",
  "TMA_EXCERPT",
  "TMA_SOCKET_PATH",
];

/**
 * The `TMA_*` environment of a command sink (P63): always `TMA_AGENT`,
 * `TMA_PANE`, `TMA_STATE`, `TMA_LOCATOR`, `TMA_TITLE`, `TMA_SINCE_MS`,
 * `TMA_REASON` and `TMA_JUMP`; the others only when they have a value.
 * `TMA_SOCKET_PATH` names the server, so a `tma` or `tmux -S` the command
 * runs reaches the same one.
 */
export function payloadEnv(payload: NotifyPayload): Record<string, string> {
  const env: Record<string, string> = {
    TMA_AGENT: payload.agent,
    TMA_PANE: payload.pane,
    TMA_STATE: payload.state,
    TMA_LOCATOR: payload.locator,
    TMA_TITLE: payload.title,
    TMA_SINCE_MS: String(payload.since_ms),
    TMA_REASON: payload.reason,
    TMA_JUMP: payload.jump,
  };
  const optional: [string, string | number | null][] = [
    ["TMA_DETAIL", payload.detail],
    ["TMA_SESSION", payload.session],
    ["TMA_REPO", payload.repo],
    ["TMA_BRANCH", payload.branch],
    ["TMA_CONTEXT_PCT", payload.context_pct],
    ["TMA_WINDOW", payload.window],
    ["TMA_EXCERPT", payload.excerpt],
    ["TMA_SOCKET_PATH", payload.server],
  ];
  for (const [name, value] of optional) {
    if (value !== null && value !== "") env[name] = String(value);
  }
  return env;
}

/** The `[notify] log` line (P64): the payload with the fire time `at` right after `schema`. */
export function logLine(payload: NotifyPayload, atMs: number): string {
  const { schema, ...rest } = payload;
  return JSON.stringify({ schema, at: atMs, ...rest });
}

/** Control characters, which a status line would draw as garbage. */
// deno-lint-ignore no-control-regex -- removing control characters is the point
const CONTROL = /[\u0000-\u001f\u007f-\u009f]+/gu;

function clean(text: string): string {
  return stripAnsi(text).replace(CONTROL, " ").trim();
}

/**
 * The status-line message (U19, X5): who, where (locator and window) and
 * why, with the excerpt. The title is left out: it is the agent's to set
 * and may be long.
 */
export function messageText(payload: NotifyPayload): string {
  const where = `${payload.locator}${payload.window ? ` (${clean(payload.window)})` : ""}`;
  switch (payload.state) {
    case "blocked":
      return `tma: ${payload.agent} needs you at ${where}: ${payload.reason}${
        payload.excerpt ? ` · ${payload.excerpt}` : ""
      }`;
    case "done":
      return `tma: ${payload.agent} is done at ${where}`;
    case "context_high":
      return `tma: ${payload.agent} context at ${payload.context_pct ?? "?"}% at ${where}`;
  }
}

/** The OSC 9 text (G15): `<agent> <state>`; the title is deliberately left out (R8). */
export function oscText(payload: NotifyPayload): string {
  return `${payload.agent} ${payload.state}`;
}

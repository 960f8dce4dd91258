/**
 * The completion notification of a detached exec action (A24, P64, P70):
 * the payload its supervisor hands the notify command on stdin, the `TMA_*`
 * mirror of it, the `[notify] log` line, the status-line message and the
 * OSC 9 text. One fire per spawn, whatever the mute and the episode marker
 * say: a completion is not a state trigger.
 *
 * ```ts
 * import { completionMessage, completionPayload } from "./completion.ts";
 * const payload = completionPayload({
 *   action: "summarize", pane: "%3", agent: "claude", outcome: "exited", exitCode: 0,
 *   locator: "work:2.0", lockReleaseFailed: false,
 * });
 * completionMessage(payload); // "tma: summarize at work:2.0 (claude) exited 0"
 * ```
 * @module
 */

/** How a detached child ended (P70). */
export type CompletionOutcome = "exited" | "timeout" | "error";

/** What the supervisor knows once its child ended. */
export interface CompletionFacts {
  action: string;
  pane: string;
  agent: string;
  outcome: CompletionOutcome;
  /** The child's exit status for `exited`; null for a timeout or an error. */
  exitCode: number | null;
  /** The pane's locator at completion, or null when the pane is gone. */
  locator: string | null;
  /** The lock could not be released (it still carries the supervisor's nonce). */
  lockReleaseFailed: boolean;
}

/** The detached completion payload (P70). */
export interface CompletionPayload {
  schema: 1;
  action: string;
  pane: string;
  agent: string;
  outcome: CompletionOutcome;
  exit_code: number | null;
  locator: string | null;
  /** Present, and true, only when the lock release failed. */
  lock_release_failed?: true;
}

/** The key set of a payload, in order; `lock_release_failed` only when it failed (P70). */
export const COMPLETION_KEYS: readonly (keyof CompletionPayload)[] = [
  "schema",
  "action",
  "pane",
  "agent",
  "outcome",
  "exit_code",
  "locator",
  "lock_release_failed",
];

/** Builds the payload (P70). */
export function completionPayload(facts: CompletionFacts): CompletionPayload {
  const payload: CompletionPayload = {
    schema: 1,
    action: facts.action,
    pane: facts.pane,
    agent: facts.agent,
    outcome: facts.outcome,
    exit_code: facts.outcome === "exited" ? facts.exitCode : null,
    locator: facts.locator,
  };
  if (facts.lockReleaseFailed) payload.lock_release_failed = true;
  return payload;
}

/**
 * Every name `completionEnv` may set: the command gets these from the
 * payload, never from the environment of the supervisor.
 */
export const COMPLETION_ENV_NAMES: readonly string[] = [
  "TMA_ACTION",
  "TMA_PANE",
  "TMA_AGENT",
  "TMA_OUTCOME",
  "TMA_EXIT_CODE",
  "TMA_LOCATOR",
];

/**
 * The `TMA_*` mirror (P70): always `TMA_ACTION`, `TMA_PANE`, `TMA_AGENT`,
 * `TMA_OUTCOME`; `TMA_EXIT_CODE` and `TMA_LOCATOR` only when set.
 *
 * ```ts
 * completionEnv({ schema: 1, action: "a", pane: "%1", agent: "claude", outcome: "timeout", exit_code: null, locator: null });
 * // { TMA_ACTION: "a", TMA_PANE: "%1", TMA_AGENT: "claude", TMA_OUTCOME: "timeout" }
 * ```
 */
export function completionEnv(payload: CompletionPayload): Record<string, string> {
  const env: Record<string, string> = {
    TMA_ACTION: payload.action,
    TMA_PANE: payload.pane,
    TMA_AGENT: payload.agent,
    TMA_OUTCOME: payload.outcome,
  };
  if (payload.exit_code !== null) env.TMA_EXIT_CODE = String(payload.exit_code);
  if (payload.locator !== null) env.TMA_LOCATOR = payload.locator;
  return env;
}

/**
 * The `[notify] log` line of a completion (P64): the payload with the fire
 * time `at` right after `schema`; `action` and `outcome` stand where a state
 * fire has `state`.
 */
export function completionLogLine(payload: CompletionPayload, atMs: number): string {
  const { schema, ...rest } = payload;
  return JSON.stringify({ schema, at: atMs, ...rest });
}

/** How the child ended, in a few words. */
function ending(payload: CompletionPayload): string {
  switch (payload.outcome) {
    case "exited":
      return `exited ${payload.exit_code}`;
    case "timeout":
      return "timed out and was killed";
    case "error":
      return "could not run";
  }
}

/** The status-line message: which action, where, how it ended. */
export function completionMessage(payload: CompletionPayload): string {
  const where = payload.locator ?? `${payload.pane} (closed)`;
  const agent = payload.agent ? ` (${payload.agent})` : "";
  const lock = payload.lock_release_failed ? "; its action lock could not be released" : "";
  return `tma: ${payload.action} at ${where}${agent} ${ending(payload)}${lock}`;
}

/** The OSC 9 text (G15): `<agent> <action> <outcome>`, nothing from the pane. */
export function completionOsc(payload: CompletionPayload): string {
  return [payload.agent, payload.action, payload.outcome].filter((s) => s !== "").join(" ");
}

/**
 * The ownership filters: side-channel telemetry from another session (a
 * subagent, a background session) or from another agent (one the pane's
 * agent runs as a tool, which inherits `TMUX_PANE`) must not overwrite a
 * pane's own (D44, D46).
 * @module
 */

/**
 * Whether a payload may stamp a pane's telemetry: yes unless both sides name a
 * session and the names differ. A payload with no session id, or a pane with
 * no registered session (`@agent_session`), is accepted (D44).
 *
 * ```ts
 * acceptsSession("sess-a", "sess-a"); // true
 * acceptsSession("sess-a", "sess-sub"); // false
 * acceptsSession(undefined, "sess-sub"); // true
 * ```
 */
export function acceptsSession(
  paneSession: string | undefined,
  payloadSession: string | undefined,
): boolean {
  // An empty option value is how tmux shows an unset one: treat it as none.
  if (paneSession === undefined || paneSession === "") return true;
  if (payloadSession === undefined || payloadSession === "") return true;
  return paneSession === payloadSession;
}

/**
 * Whether a payload of agent `payloadAgent` may stamp a pane registered to
 * `paneAgent`: yes when the pane has no registered agent or the names agree
 * (D46, issue 13 item 2). Telemetry never changes hands by itself: a hook
 * event does that, on the evidence in `hook/handover.ts`, and the telemetry
 * of the new agent is accepted from then on.
 *
 * ```ts
 * acceptsAgent("claude", "claude"); // true
 * acceptsAgent("claude", "pi"); // false
 * acceptsAgent(undefined, "pi"); // true
 * ```
 */
export function acceptsAgent(paneAgent: string | undefined, payloadAgent: string): boolean {
  return paneAgent === undefined || paneAgent === "" || paneAgent === payloadAgent;
}

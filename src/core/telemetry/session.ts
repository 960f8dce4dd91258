/**
 * The session-ownership filter: side-channel telemetry from another session
 * (a subagent, a background session) must not overwrite a pane's own (D44).
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

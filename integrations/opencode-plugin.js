// tma:managed-file opencode-plugin v1: written by `tma install-hooks opencode`.
// tma rewrites this file on install and deletes it on uninstall, so a hand
// edit is lost; copy it under another name to customise it.
//
// It forwards OpenCode's event bus to tma (features.md I42): each event
// becomes `tma-hook opencode <token>` with a JSON payload on stdin, spawned
// fire-and-forget. It does nothing outside tmux (no TMUX_PANE) and never
// throws into OpenCode or waits for tma.
import { spawn } from "node:child_process";
import process from "node:process";

const WRAPPER = "@@TMA_WRAPPER@@";

/** Spawns the wrapper with the payload on stdin and does not wait for it. */
function forward(token, payload) {
  if (!process.env.TMUX_PANE) return;
  try {
    const child = spawn(WRAPPER, ["opencode", token], {
      stdio: ["pipe", "ignore", "ignore"],
      detached: true,
    });
    child.on("error", () => {});
    child.stdin.on("error", () => {});
    child.stdin.end(JSON.stringify(payload));
    child.unref();
  } catch {
    // A missing or broken wrapper must never break OpenCode.
  }
}

/** A non-empty string, else undefined (so JSON.stringify drops the key). */
function text(value) {
  return typeof value === "string" && value !== "" ? value : undefined;
}

/** The server URL without a trailing slash, for `@agent_api_endpoint`. */
function endpointOf(serverUrl) {
  if (serverUrl === undefined || serverUrl === null) return undefined;
  return text(String(serverUrl).replace(/\/+$/, ""));
}

/** Maps one event-bus event to a tma token and payload. */
function route(event, apiEndpoint) {
  const type = event && event.type;
  const props = (event && event.properties) || {};
  const sessionId = text(props.sessionID) ?? text(props.info && props.info.id);
  const base = { session_id: sessionId, opencode_event: type };
  switch (type) {
    case "session.created":
      // OpenCode emits this for brand-new sessions only; it records the id.
      forward("session-start", { ...base, api_endpoint: apiEndpoint });
      return;
    case "session.status": {
      const status = props.status && props.status.type;
      if (status === "busy") forward("user-prompt-submit", base);
      else if (status === "idle") forward("stop", base);
      return;
    }
    case "session.idle":
      forward("stop", base);
      return;
    // Synonyms are accepted so a rename lands inert instead of dropping blocked.
    case "permission.asked":
    case "permission.updated":
      forward("permission-required", {
        ...base,
        request_id: text(props.id) ?? text(props.requestID),
      });
      return;
    case "permission.replied":
      forward("permission-replied", {
        ...base,
        request_id: text(props.requestID) ?? text(props.id),
        reply: text(props.reply),
      });
      return;
    case "question.asked":
    case "question.updated":
      forward("question-required", {
        ...base,
        question_id: text(props.id) ?? text(props.requestID),
      });
      return;
    case "question.replied":
    case "question.answered":
    case "question.rejected":
      forward("question-replied", {
        ...base,
        question_id: text(props.requestID) ?? text(props.id),
      });
      return;
  }
}

/**
 * The plugin: OpenCode calls it once per instance with its PluginInput and
 * awaits the hooks. Handlers return at once; the spawn is not awaited.
 */
export const TmaPlugin = (input) => {
  const apiEndpoint = endpointOf(input && input.serverUrl);
  // Registers a TUI waiting at its prompt or a `--continue`d session, which
  // emit no session.created; carries no session id.
  forward("session-start", { opencode_event: "plugin.load", api_endpoint: apiEndpoint });
  return Promise.resolve({
    event: ({ event }) => {
      try {
        route(event, apiEndpoint);
      } catch {
        // Never throw into OpenCode.
      }
    },
    "chat.message": (hookInput) => {
      forward("user-prompt-submit", {
        session_id: text(hookInput && hookInput.sessionID),
        opencode_event: "chat.message",
      });
    },
    "tool.execute.before": (hookInput) => {
      forward("user-prompt-submit", {
        session_id: text(hookInput && hookInput.sessionID),
        opencode_event: "tool.execute.before",
      });
    },
  });
};

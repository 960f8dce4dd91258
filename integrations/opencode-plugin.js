// tma:managed-file opencode-plugin v1: written by `tma install-hooks opencode`.
// tma rewrites this file on install and deletes it on uninstall, so a hand
// edit is lost; copy it under another name to customise it.
//
// It forwards OpenCode's event bus to tma (features.md I42): each event
// becomes `tma-hook opencode <token>` with a JSON payload on stdin, spawned
// fire-and-forget. It does nothing outside tmux (no TMUX_PANE) and never
// throws into OpenCode or waits for tma.
//
// It also relays tma's permission and question replies into OpenCode
// (features.md X8), so `tma act approve` works on a TUI started without
// --port, where OpenCode's own HTTP server listens nowhere: a listener on
// 127.0.0.1 at a random port, under a random path secret, passes the few
// routes tma calls to the SDK client OpenCode hands its plugins, which
// reaches OpenCode in-process. The endpoint (secret included) goes only into
// the pane's @agent_api_endpoint option, which only this user's tmux server
// holds.
import { Buffer } from "node:buffer";
import { spawn } from "node:child_process";
import { randomBytes, timingSafeEqual } from "node:crypto";
import { createServer } from "node:http";
import process from "node:process";

const WRAPPER = "@@TMA_WRAPPER@@";

/** The routes tma's API lane posts to; nothing else is relayed. */
const RELAYED = [/^\/permission\/[^/]+\/reply$/, /^\/question\/[^/]+\/(?:reply|reject)$/];

/** The largest reply body relayed (tma's are a few dozen bytes). */
const MAX_BODY = 64 * 1024;

/** The last event time handed out, so two events in one millisecond stay in order. */
let lastEventAt = 0;

/**
 * The moment of an event, in epoch ms, strictly after the previous one. The
 * wrapper takes it as the event's evidence time (TMA_EVENT_AT): spawned
 * wrappers start in no fixed order, so their own clock readings can invert
 * two events fired a millisecond apart (a turn's last busy and its idle).
 */
function eventAt() {
  lastEventAt = Math.max(Date.now(), lastEventAt + 1);
  return String(lastEventAt);
}

/** Spawns the wrapper with the payload on stdin and does not wait for it. */
function forward(token, payload) {
  if (!process.env.TMUX_PANE) return;
  try {
    const child = spawn(WRAPPER, ["opencode", token], {
      stdio: ["pipe", "ignore", "ignore"],
      detached: true,
      env: { ...process.env, TMA_EVENT_AT: eventAt() },
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

/** Whether `got` is the secret, compared in constant time. */
function sameSecret(got, secret) {
  const a = Buffer.from(String(got));
  const b = Buffer.from(secret);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Answers one relay request: a JSON body with the status OpenCode gave. */
function answer(res, status, body) {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(body === undefined ? {} : body));
}

/** Relays one request of tma's API lane to OpenCode through its SDK client. */
function relay(raw, secret, req, res) {
  const url = String(req.url || "");
  const cut = url.indexOf("/", 1);
  const route = cut < 0 ? "" : url.slice(cut);
  if (cut < 0 || !sameSecret(url.slice(1, cut), secret)) return answer(res, 404);
  if (req.method !== "POST" || !RELAYED.some((re) => re.test(route))) return answer(res, 404);
  const chunks = [];
  let size = 0;
  req.on("data", (chunk) => {
    size += chunk.length;
    if (size > MAX_BODY) req.destroy();
    else chunks.push(chunk);
  });
  req.on("end", () => {
    let body;
    try {
      body = JSON.parse(Buffer.concat(chunks).toString("utf8") || "{}");
    } catch {
      return answer(res, 400);
    }
    Promise.resolve()
      .then(() => raw.post({ url: route, body, headers: { "Content-Type": "application/json" } }))
      .then((result) => {
        const status = (result && result.response && result.response.status) || 502;
        answer(res, status, result && (result.data ?? result.error));
      })
      .catch(() => answer(res, 502));
  });
  req.on("error", () => {});
}

/**
 * Starts the reply relay and resolves to its endpoint, or to undefined when
 * the client cannot relay or nothing can listen (the lane then needs
 * OpenCode's own --port server).
 */
function startRelay(client) {
  const raw = client && client._client;
  if (!process.env.TMUX_PANE || !raw || typeof raw.post !== "function") {
    return Promise.resolve(undefined);
  }
  const secret = randomBytes(24).toString("hex");
  return new Promise((resolve) => {
    try {
      const server = createServer((req, res) => {
        try {
          relay(raw, secret, req, res);
        } catch {
          answer(res, 500);
        }
      });
      server.on("error", () => resolve(undefined));
      server.listen(0, "127.0.0.1", () => {
        // The relay must never keep OpenCode alive on its way out.
        server.unref();
        resolve(`http://127.0.0.1:${server.address().port}/${secret}`);
      });
    } catch {
      resolve(undefined);
    }
  });
}

/**
 * The plugin: OpenCode calls it once per instance with its PluginInput and
 * awaits the hooks. Handlers return at once; the spawn is not awaited.
 */
export const TmaPlugin = async (input) => {
  const apiEndpoint = (await startRelay(input && input.client)) ??
    endpointOf(input && input.serverUrl);
  // Registers a TUI waiting at its prompt or a `--continue`d session, which
  // emit no session.created; carries no session id.
  forward("session-start", { opencode_event: "plugin.load", api_endpoint: apiEndpoint });
  return {
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
  };
};

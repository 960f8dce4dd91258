// tma:managed-file pi-extension v1: written by `tma install-hooks pi`.
// tma rewrites this file on install and deletes it on uninstall, so a hand
// edit is lost; copy it under another name to customise it.
//
// It tells tma what pi is doing (features.md I59, I60, I64): each event
// becomes `tma-hook pi <event>` with `{"session_id": …}` on stdin, spawned
// fire-and-forget; on agent_settled it also sends `tma-hook pi context` with
// ctx.getContextUsage(). It does nothing outside tmux (no TMUX_PANE) and
// never blocks pi.
import { spawn } from "node:child_process";
import process from "node:process";

const WRAPPER = "@@TMA_WRAPPER@@";

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
function forward(event, payload) {
  if (!process.env.TMUX_PANE) return;
  try {
    const child = spawn(WRAPPER, ["pi", event], {
      stdio: ["pipe", "ignore", "ignore"],
      detached: true,
      env: { ...process.env, TMA_EVENT_AT: eventAt() },
    });
    child.on("error", () => {});
    child.stdin.on("error", () => {});
    child.stdin.end(JSON.stringify(payload));
    child.unref();
  } catch {
    // A missing or broken wrapper must never break pi.
  }
}

/** pi's events carry no session id; the session manager has it. */
function sessionOf(ctx) {
  try {
    const id = ctx && ctx.sessionManager && ctx.sessionManager.getSessionId();
    return typeof id === "string" && id !== "" ? id : undefined;
  } catch {
    return undefined;
  }
}

const STATE_EVENTS = [
  "session_start",
  "before_agent_start",
  "tool_execution_start",
  "session_shutdown",
];

const SETTLE_EVENTS = ["agent_settled", "agent_end"];

/** The extension: pi calls it once with its ExtensionAPI. */
export default function tma(pi) {
  if (!process.env.TMUX_PANE) return;
  for (const name of STATE_EVENTS) {
    pi.on(name, (_event, ctx) => {
      forward(name, { session_id: sessionOf(ctx) });
    });
  }
  // The turn-settled event: `agent_settled` in the contract, `agent_end` in
  // pi 0.73 (which has no agent_settled). Both are forwarded under their own
  // names and both end a turn; tma counts one turn end once (D45).
  for (const name of SETTLE_EVENTS) pi.on(name, (_event, ctx) => settled(name, ctx));
}

/** A turn settled: report idle, then the context usage pi computed. */
function settled(name, ctx) {
  const sessionId = sessionOf(ctx);
  forward(name, { session_id: sessionId });
  let usage;
  try {
    usage = ctx && typeof ctx.getContextUsage === "function" ? ctx.getContextUsage() : undefined;
  } catch {
    usage = undefined;
  }
  // No model or window known: pi omits the object and there is nothing to stamp.
  if (usage !== undefined && usage !== null) {
    forward("context", { session_id: sessionId, context_usage: usage });
  }
}

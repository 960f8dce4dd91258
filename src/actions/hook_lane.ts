/**
 * Claude's hook reply lane, the broker's side (A26). The protocol, and the
 * hook's side of it, live in `src/runtime/hook/reply_lane.ts`: the broker offers
 * `@tma_verdict = <id>:allow|deny` while the pane still holds request
 * `<id>`; the holding hook takes it with one guarded chain that empties the
 * offer and sets `@tma_verdict_ack = <id>`.
 *
 * This module is the broker's hand-off loop: offer, wait a short bound for
 * the ack, and otherwise withdraw the offer with a chain guarded on it being
 * still ours. The take and the withdrawal are both guarded on the same
 * value, so exactly one of them wins; when the ack is still absent after the
 * withdrawal, no hook can answer any more and the caller's keystroke
 * fallback answers the prompt exactly once.
 *
 * ```ts
 * const server = { bin: "tmux", socketName: "work" };
 * const end = await handVerdict(server, { pane: "%3", requestId: "tma_ab12", verdict: "allow", handoffMs: 1000 });
 * end; // "taken" | "withdrawn" | "not-offered" | "vanished"
 * ```
 * @module
 */
import {
  offerVerdict,
  readLane,
  REQUEST_OPTION,
  takeVerdict,
  VERDICT_ACK_OPTION,
  VERDICT_OPTION,
  withdrawVerdict,
} from "../runtime/hook/reply_lane.ts";
import type { TmuxServer } from "../tmux/exec.ts";
import { escapeFormat, writeChains } from "../tmux/writer.ts";
import type { HookVerdict } from "../core/action/transport.ts";

export { REQUEST_OPTION, takeVerdict, VERDICT_ACK_OPTION, VERDICT_OPTION };

/** The default hand-off bound: about a second, capped by the action's `timeout_ms` (A26). */
export const HANDOFF_MS = 1000;

/** How often the broker looks for the ack. */
export const ACK_POLL_MS = 20;

/** How a hand-off ended. */
export type HandOff =
  /** The hook took the verdict: Claude has its answer (`replied`). */
  | "taken"
  /** Nobody took it and it was withdrawn: answer with keys. */
  | "withdrawn"
  /** The pane no longer holds that request id: no hook to offer it to. */
  | "not-offered"
  /** The pane is gone. */
  | "vanished";

/** Options of `handVerdict`. */
export interface HandOptions {
  pane: string;
  requestId: string;
  verdict: HookVerdict;
  /** How long to wait for the ack. */
  handoffMs: number;
  /** Waits between polls; tests may pass their own. */
  sleep?: (ms: number) => Promise<void>;
}

function defaultSleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Offers a verdict to the holding hook and waits for it to be taken (A26). */
export async function handVerdict(server: TmuxServer, options: HandOptions): Promise<HandOff> {
  const sleep = options.sleep ?? defaultSleep;
  const target = { pane: options.pane, requestId: options.requestId, verdict: options.verdict };
  if (!await offerVerdict(server, target)) {
    return (await readLane(server, options.pane)) === null ? "vanished" : "not-offered";
  }
  const deadline = Date.now() + options.handoffMs;
  for (;;) {
    const lane = await readLane(server, options.pane);
    if (lane === null) return "vanished";
    if (lane.ack === options.requestId) return await consumeAck(server, options);
    if (Date.now() >= deadline) break;
    await sleep(Math.min(ACK_POLL_MS, Math.max(0, deadline - Date.now())));
  }
  await withdrawVerdict(server, target);
  // The hook may have taken it between the last look and the withdrawal.
  const lane = await readLane(server, options.pane);
  if (lane === null) return "vanished";
  if (lane.ack === options.requestId) return await consumeAck(server, options);
  return "withdrawn";
}

/** Clears an ack addressed to our request, so no later look mistakes it for a new one. */
async function consumeAck(server: TmuxServer, options: HandOptions): Promise<HandOff> {
  await writeChains(server, [{
    pane: options.pane,
    guard: `#{==:#{${VERDICT_ACK_OPTION}},${escapeFormat(options.requestId)}}`,
    writes: [{ name: VERDICT_ACK_OPTION, value: null }],
  }]);
  return "taken";
}

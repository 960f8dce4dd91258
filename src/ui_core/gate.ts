/**
 * The refresh gate: at most one refresh in flight; a tick or a nudge that
 * arrives meanwhile is remembered as one more refresh, never several.
 *
 * ```ts
 * import { gateRequest, gateSettled, openGate } from "./gate.ts";
 * let [gate, go] = gateRequest(openGate()); // go: true, a refresh starts
 * [gate, go] = gateRequest(gate); // go: false, one more is pending
 * [gate, go] = gateSettled(gate); // go: true, the pending one starts
 * ```
 * @module
 */

/** The gate's state. */
export interface Gate {
  inFlight: boolean;
  pending: boolean;
}

/** A gate with nothing in flight. */
export function openGate(): Gate {
  return { inFlight: false, pending: false };
}

/** A refresh is asked for (tick, nudge, scope change): whether to start one now. */
export function gateRequest(gate: Gate): [Gate, boolean] {
  if (gate.inFlight) return [{ inFlight: true, pending: true }, false];
  return [{ inFlight: true, pending: false }, true];
}

/** A refresh finished: whether to start the pending one. */
export function gateSettled(gate: Gate): [Gate, boolean] {
  if (gate.pending) return [{ inFlight: true, pending: false }, true];
  return [{ inFlight: false, pending: false }, false];
}

/**
 * Claude's reply lane, the pure half: the verdict tokens the broker and the
 * holding hook exchange in `@tma_verdict`, and the decision object the hook
 * prints for Claude (A25).
 *
 * ```ts
 * import { decisionObject, readVerdict } from "./decision.ts";
 * readVerdict("tma_1f:allow", "tma_1f"); // "allow"
 * decisionObject("allow");
 * // '{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow"}}}'
 * ```
 * @module
 */

/** A verdict the broker can hand to the hook. */
export type Verdict = "allow" | "deny";

/** The `message` Claude shows with a denial. */
export const DENY_MESSAGE = "Denied through tma";

/**
 * The `@tma_verdict` value for a verdict on a request.
 *
 * ```ts
 * verdictToken("tma_1f", "deny"); // "tma_1f:deny"
 * ```
 */
export function verdictToken(requestId: string, verdict: Verdict): string {
  return `${requestId}:${verdict}`;
}

/**
 * The verdict `value` addresses to `requestId`, or null when it is empty,
 * malformed, or addressed to another request.
 *
 * ```ts
 * readVerdict("tma_2:allow", "tma_1"); // null
 * ```
 */
export function readVerdict(value: string, requestId: string): Verdict | null {
  if (value === verdictToken(requestId, "allow")) return "allow";
  if (value === verdictToken(requestId, "deny")) return "deny";
  return null;
}

/**
 * Claude's `PermissionRequest` decision object, as one line of JSON.
 *
 * ```ts
 * JSON.parse(decisionObject("deny")).hookSpecificOutput.decision.behavior; // "deny"
 * ```
 */
export function decisionObject(verdict: Verdict): string {
  const decision = verdict === "allow"
    ? { behavior: "allow" }
    : { behavior: "deny", message: DENY_MESSAGE };
  return JSON.stringify({ hookSpecificOutput: { hookEventName: "PermissionRequest", decision } });
}

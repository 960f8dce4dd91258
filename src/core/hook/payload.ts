/**
 * Reading a hook payload: the raw text an agent hands its hook, parsed once
 * into its top-level fields. Only top-level keys are read, in the spellings
 * the agents (and tma's own plugin and extension) send (D43, I42).
 *
 * ```ts
 * import { parsePayload } from "./payload.ts";
 * const p = parsePayload('{"session_id":"s1","model":"opus"}');
 * p?.sessionId; // "s1"
 * ```
 * @module
 */
import { isObject } from "../object.ts";

/** One parsed payload. */
export interface HookPayload {
  /** The text as received: manifest matchers run over it (D42). */
  raw: string;
  /** The top-level JSON object; empty for an empty payload. */
  fields: Readonly<Record<string, unknown>>;
  /** Top-level snake_case `session_id` (D43), or null. */
  sessionId: string | null;
}

/**
 * Parses a payload. An empty (or all-blank) payload reads as an object with
 * no fields, since some edges carry nothing (OpenCode's load-time
 * `session-start`). Anything else that is not a JSON object is garbage and
 * reads as null: the event is dropped rather than guessed at.
 *
 * ```ts
 * parsePayload("");          // { raw: "", fields: {}, sessionId: null }
 * parsePayload("not json");  // null
 * ```
 */
export function parsePayload(raw: string): HookPayload | null {
  if (raw.trim() === "") return { raw, fields: {}, sessionId: null };
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return null;
  }
  if (!isObject(value)) return null;
  return { raw, fields: value, sessionId: stringField(value, ["session_id"]) };
}

/**
 * The first of `names` that holds a non-empty string at the top level, or
 * null. Several names cover one field's spellings (`request_id`, `requestID`).
 *
 * ```ts
 * stringField({ requestID: "per_1" }, ["request_id", "requestID"]); // "per_1"
 * ```
 */
export function stringField(
  fields: Readonly<Record<string, unknown>>,
  names: readonly string[],
): string | null {
  for (const name of names) {
    const value = fields[name];
    if (typeof value === "string" && value !== "") return value;
  }
  return null;
}

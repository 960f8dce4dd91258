/**
 * The `cursor-statusline-json` parser: the payload Cursor CLI hands the
 * `statusLine` command of `~/.cursor/cli-config.json`, forwarded by tma's
 * chaining shim (I56, I57).
 *
 * The mechanism is missing from Cursor's documented config reference, so it is
 * the channel most likely to change under us: only the two confirmed numbers
 * are read, and anything unexpected degrades to "says nothing", never to a
 * clear or a wrong gauge.
 * @module
 */
import { z } from "../../deps/zod.ts";
import {
  looseNumber,
  looseString,
  parsePayloadObject,
  toCount,
  tolerant,
  toPercent,
} from "./fields.ts";
import type { ParseTelemetryOptions, TelemetryReading } from "./reading.ts";

const FORMAT = "cursor-statusline-json";

/** The fields of a Cursor statusLine payload tma reads. */
export const cursorStatuslineSchema = z.object({
  session_id: looseString,
  context_window: tolerant(
    z.object({
      total_input_tokens: looseNumber,
      context_window_size: looseNumber,
    }),
  ),
});

/**
 * Reads a Cursor statusLine payload: `contextPct` is
 * `context_window.total_input_tokens / context_window_size`, `tokens` is
 * `total_input_tokens`, `sessionId` is `session_id`.
 *
 * The two numbers stand or fall together: a missing, null or malformed field,
 * a non-positive window or a ratio above 100 yields neither, and never `null`.
 * Cursor publishes no cost or quota; its model comes from `sessionStart`.
 *
 * Throws `MalformedPayloadError` when the text is not a JSON object.
 *
 * ```ts
 * parseCursorStatusline(
 *   '{"context_window":{"total_input_tokens":130000,"context_window_size":200000}}',
 *   { nowMs: 0 },
 * ); // { contextPct: 65, tokens: 130000 }
 * ```
 */
export function parseCursorStatusline(
  text: string,
  _opts: ParseTelemetryOptions,
): TelemetryReading {
  const payload = parsePayloadObject(FORMAT, cursorStatuslineSchema, text);

  const reading: TelemetryReading = {};
  if (payload.session_id !== undefined) reading.sessionId = payload.session_id;

  const used = toCount(payload.context_window?.total_input_tokens);
  const size = payload.context_window?.context_window_size;
  if (used === undefined || size === undefined || !(size > 0)) return reading;
  const contextPct = toPercent((used / size) * 100);
  if (contextPct === undefined) return reading;
  reading.contextPct = contextPct;
  reading.tokens = used;
  return reading;
}

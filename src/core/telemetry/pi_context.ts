/**
 * The `pi-context-json` parser: pi's `ctx.getContextUsage()`, forwarded by
 * tma's pi extension on `agent_settled` as `{"session_id", "context_usage"}`
 * (I64, I65).
 * @module
 */
import { z } from "../../deps/zod.ts";
import { looseString, parsePayloadObject, toCount, tolerant, toPercent } from "./fields.ts";
import type { ParseTelemetryOptions, TelemetryReading } from "./reading.ts";

const FORMAT = "pi-context-json";

/** The fields of a forwarded pi context payload tma reads. */
export const piContextSchema = z.object({
  session_id: looseString,
  context_usage: tolerant(
    z.object({
      tokens: tolerant(z.number().nullable()),
      contextWindow: tolerant(z.number().nullable()),
      percent: tolerant(z.number().nullable()),
    }).nullable(),
  ),
});

/**
 * Reads a forwarded pi context payload. `contextPct` is pi's precomputed
 * `percent` (against pi's own window, so no window table), `tokens` is
 * `tokens`, `sessionId` is `session_id`.
 *
 * pi reports a null `percent` and `contextWindow` right after a `/compact`
 * until the next assistant response, and omits the object when no model or
 * window is known: each of those stamps nothing (no clear). A reading with a
 * percent but a null `tokens` clears the stored count (an observation without
 * a count, P19).
 *
 * Throws `MalformedPayloadError` when the text is not a JSON object.
 *
 * ```ts
 * parsePiContext(
 *   '{"context_usage":{"tokens":124000,"contextWindow":200000,"percent":62}}',
 *   { nowMs: 0 },
 * ); // { contextPct: 62, tokens: 124000 }
 * ```
 */
export function parsePiContext(text: string, _opts: ParseTelemetryOptions): TelemetryReading {
  const payload = parsePayloadObject(FORMAT, piContextSchema, text);

  const reading: TelemetryReading = {};
  if (payload.session_id !== undefined) reading.sessionId = payload.session_id;

  const usage = payload.context_usage;
  if (usage === undefined || usage === null) return reading;
  const window = usage.contextWindow;
  // An unknown window means pi cannot vouch for the percent either.
  if (window === undefined || window === null || !(window > 0)) return reading;
  const contextPct = toPercent(usage.percent ?? undefined);
  if (contextPct === undefined) return reading;
  reading.contextPct = contextPct;
  reading.tokens = toCount(usage.tokens ?? undefined) ?? null;
  return reading;
}

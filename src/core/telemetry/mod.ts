/**
 * Telemetry parsers: pure functions from an agent's telemetry payload (a
 * statusline JSON, a rollout tail, a forwarded context object) to a reading of
 * context percent, token level, model, account quota, cost and session id.
 *
 * ```ts
 * import { acceptsSession, parseTelemetry } from "./mod.ts";
 * const payloadText = '{"session_id":"s1","context_window":{"used_percentage":78}}';
 * const reading = parseTelemetry("claude-statusline-json", payloadText, { nowMs: Date.now() });
 * if (acceptsSession("s1", reading.sessionId)) {
 *   // stamp reading.contextPct under the evidence-time guard
 * }
 * ```
 * @module
 */
export {
  type ParseTelemetryOptions,
  percentSchema,
  type QuotaReading,
  quotaReadingSchema,
  TELEMETRY_FORMATS,
  type TelemetryFormat,
  type TelemetryReading,
  telemetryReadingSchema,
} from "./reading.ts";
export { MalformedPayloadError, UnknownFormatError } from "./errors.ts";
export { isTelemetryFormat, parseTelemetry, type TelemetryParser } from "./registry.ts";
export { acceptsSession } from "./session.ts";
export { pickQuota, type QuotaCandidate } from "./quota.ts";
export {
  CLAUDE_QUOTA_WINDOWS,
  CLAUDE_TOKENS_MIN_VERSION,
  parseClaudeStatusline,
} from "./claude_statusline.ts";
export {
  CODEX_QUOTA_WINDOWS,
  mergeRolloutScans,
  parseCodexRollout,
  rolloutReading,
  type RolloutScan,
  scanRolloutTail,
} from "./codex_rollout.ts";
export { parseCursorStatusline } from "./cursor_statusline.ts";
export { parsePiContext } from "./pi_context.ts";

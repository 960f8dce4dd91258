/**
 * The compiled-in telemetry parsers by format id (M23). A manifest names a
 * format; the intake calls `parseTelemetry` with it and the payload text.
 * @module
 */
import { parseClaudeStatusline } from "./claude_statusline.ts";
import { parseCodexRollout } from "./codex_rollout.ts";
import { parseCursorStatusline } from "./cursor_statusline.ts";
import { UnknownFormatError } from "./errors.ts";
import { parsePiContext } from "./pi_context.ts";
import {
  type ParseTelemetryOptions,
  TELEMETRY_FORMATS,
  type TelemetryFormat,
  type TelemetryReading,
} from "./reading.ts";

/** A pure parser: payload text and the current time in, a reading out. */
export type TelemetryParser = (text: string, opts: ParseTelemetryOptions) => TelemetryReading;

const PARSERS: Record<TelemetryFormat, TelemetryParser> = {
  "claude-statusline-json": parseClaudeStatusline,
  "codex-rollout-jsonl": parseCodexRollout,
  "cursor-statusline-json": parseCursorStatusline,
  "pi-context-json": parsePiContext,
};

/**
 * Whether `value` names a compiled-in parser. Manifests accept any format at
 * load (M23); doctor can use this to warn early.
 *
 * ```ts
 * isTelemetryFormat("pi-context-json"); // true
 * ```
 */
export function isTelemetryFormat(value: unknown): value is TelemetryFormat {
  return typeof value === "string" && (TELEMETRY_FORMATS as readonly string[]).includes(value);
}

/**
 * Parses one payload with the parser `format` names.
 *
 * Throws `UnknownFormatError` for a format no parser is compiled in for (the
 * read-time refusal of M23) and `MalformedPayloadError` for a JSON payload
 * that is not a JSON object; in both cases the caller changes nothing. The
 * Codex format never throws on content: a tail of garbage is a miss.
 *
 * ```ts
 * const reading = parseTelemetry(
 *   "pi-context-json",
 *   '{"context_usage":{"tokens":124000,"contextWindow":200000,"percent":62}}',
 *   { nowMs: Date.now() },
 * );
 * reading.contextPct; // 62
 * ```
 */
export function parseTelemetry(
  format: string,
  text: string,
  opts: ParseTelemetryOptions,
): TelemetryReading {
  if (!isTelemetryFormat(format)) throw new UnknownFormatError(format);
  return PARSERS[format](text, opts);
}

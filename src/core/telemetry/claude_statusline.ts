/**
 * The `claude-statusline-json` parser: the per-turn JSON payload Claude Code
 * hands its statusline command, forwarded by tma's chaining shim (I18-I21).
 * @module
 */
import { z } from "../../deps/zod.ts";
import { compareVersions, type VersionTriple } from "../version.ts";
import {
  epochToMs,
  looseNumber,
  looseString,
  parsePayloadObject,
  toCount,
  tolerant,
  toPercent,
} from "./fields.ts";
import { pickQuota, type QuotaCandidate } from "./quota.ts";
import type { ParseTelemetryOptions, TelemetryReading } from "./reading.ts";

const FORMAT = "claude-statusline-json";

/**
 * The first build whose `total_input_tokens` is the context footprint. Older
 * builds summed it across the session (the same bug that pushed
 * `used_percentage` past 100), so their count is never stamped (I19).
 */
export const CLAUDE_TOKENS_MIN_VERSION: VersionTriple = [2, 1, 132];

/** Claude's rate-limit windows in their listing order; a tie goes to the first (I9). */
export const CLAUDE_QUOTA_WINDOWS = ["five_hour", "seven_day", "spend_limit"] as const;

const windowSchema = z.object({
  used_percentage: looseNumber,
  // Epoch seconds.
  resets_at: looseNumber,
});

/** The fields of a Claude statusline payload tma reads; each one is optional on its own. */
export const claudeStatuslineSchema = z.object({
  session_id: looseString,
  version: looseString,
  model: tolerant(z.object({ id: looseString })),
  // null is Claude's explicit "no reading" (I8); a missing key says nothing.
  context_window: tolerant(
    z.object({
      used_percentage: tolerant(z.number().nullable()),
      total_input_tokens: looseNumber,
    }).nullable(),
  ),
  rate_limits: tolerant(
    z.object({
      five_hour: tolerant(windowSchema),
      seven_day: tolerant(windowSchema),
      spend_limit: tolerant(windowSchema),
    }),
  ),
  cost: tolerant(z.object({ total_cost_usd: looseNumber })),
});

/** A Claude statusline payload as far as tma reads it. */
export type ClaudeStatusline = z.infer<typeof claudeStatuslineSchema>;

/**
 * Reads a Claude statusline payload.
 *
 * - `contextPct` from `context_window.used_percentage`; `context_window: null`
 *   (or a null `used_percentage`) is a clear; a reading above 100 is ignored.
 * - `tokens` from `context_window.total_input_tokens`, only when the payload's
 *   `version` is at least 2.1.132; any context observation from an older (or
 *   unversioned) build clears the stored count instead.
 * - `model` from `model.id`, `costUsd` from `cost.total_cost_usd`, `quota`
 *   from `rate_limits` (I9), `sessionId` from `session_id`.
 *
 * Throws `MalformedPayloadError` when the text is not a JSON object.
 *
 * ```ts
 * const r = parseClaudeStatusline(
 *   '{"version":"2.1.212","context_window":{"used_percentage":78,"total_input_tokens":156000}}',
 *   { nowMs: 0 },
 * );
 * r.contextPct; // 78
 * r.tokens; // 156000
 * ```
 */
export function parseClaudeStatusline(
  text: string,
  opts: ParseTelemetryOptions,
): TelemetryReading {
  const payload = parsePayloadObject(FORMAT, claudeStatuslineSchema, text);

  const reading: TelemetryReading = {};
  if (payload.session_id !== undefined) reading.sessionId = payload.session_id;
  if (payload.model?.id !== undefined) reading.model = payload.model.id;

  const context = readContext(payload);
  if (context.contextPct !== undefined) reading.contextPct = context.contextPct;
  if (context.tokens !== undefined) reading.tokens = context.tokens;

  const quota = pickQuota(quotaCandidates(payload), opts.nowMs);
  if (quota !== undefined) reading.quota = quota;

  const cost = payload.cost?.total_cost_usd;
  if (cost !== undefined && cost >= 0) reading.costUsd = cost;
  return reading;
}

function readContext(
  payload: ClaudeStatusline,
): Pick<TelemetryReading, "contextPct" | "tokens"> {
  const window = payload.context_window;
  if (window === undefined) return {};
  if (window === null) return { contextPct: null, tokens: null };

  const stated = window.used_percentage;
  const contextPct = stated === null ? null : toPercent(stated);
  if (!countsAreFootprints(payload.version)) return { contextPct, tokens: null };
  // On a trustworthy build the count rides with the percent: an ignored
  // percent ignores the count too, a cleared one clears it.
  if (contextPct === undefined) return {};
  if (contextPct === null) return { contextPct, tokens: null };
  return { contextPct, tokens: toCount(window.total_input_tokens) ?? null };
}

/** Whether a payload's own `version` is at least 2.1.132; unreadable is "no". */
function countsAreFootprints(version: string | undefined): boolean {
  if (version === undefined) return false;
  const m = /^(\d+)\.(\d+)\.(\d+)/.exec(version.trim());
  if (m === null) return false;
  const triple: VersionTriple = [Number(m[1]), Number(m[2]), Number(m[3])];
  return compareVersions(triple, CLAUDE_TOKENS_MIN_VERSION) >= 0;
}

function quotaCandidates(payload: ClaudeStatusline): QuotaCandidate[] {
  const limits = payload.rate_limits;
  if (limits === undefined) return [];
  const candidates: QuotaCandidate[] = [];
  for (const name of CLAUDE_QUOTA_WINDOWS) {
    const window = limits[name];
    if (window?.used_percentage === undefined) continue;
    candidates.push({
      window: name,
      usedPct: window.used_percentage,
      resetsAtMs: epochToMs(window.resets_at),
    });
  }
  return candidates;
}

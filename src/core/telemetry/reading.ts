/**
 * What one telemetry payload says about a pane: the context gauge, the token
 * level, the model, the account quota, the session cost and whose session it
 * came from. Every parser in this folder returns one of these.
 *
 * Two kinds of "no value" are kept apart, because the stamp treats them
 * differently (I8, P17-P19, P25, R24):
 *
 * - `undefined` (or an absent key): the payload says nothing about this field.
 *   The caller changes nothing, and the stored value stays and ages.
 * - `null`: the payload explicitly reports "no value". The caller clears the
 *   stored value and still advances the field's evidence time, so a stale
 *   reordered push cannot bring the old value back.
 *
 * Only `contextPct` and `tokens` can be `null`. Quota, cost and model are never
 * cleared by a payload (a missing `rate_limits` block is not a clear, I9).
 *
 * ```ts
 * import { telemetryReadingSchema } from "./reading.ts";
 * telemetryReadingSchema.parse({ contextPct: 78, tokens: 156000, model: "claude-opus-4-8" });
 * ```
 * @module
 */
import { z } from "../../deps/zod.ts";

/** The compiled-in parser formats a `[telemetry.context]` block may name (M23). */
export const TELEMETRY_FORMATS = [
  "claude-statusline-json",
  "codex-rollout-jsonl",
  "cursor-statusline-json",
  "pi-context-json",
] as const;

/** One compiled-in parser format id. */
export type TelemetryFormat = (typeof TELEMETRY_FORMATS)[number];

/** An integer percentage 0-100, the unit of both gauges (P17, P22). */
export const percentSchema = z.number().int().min(0).max(100);

/**
 * The account quota reading: the window closest to exhaustion (I9, P22-P24).
 *
 * ```ts
 * import { quotaReadingSchema } from "./reading.ts";
 * quotaReadingSchema.parse({ pct: 91, window: "five_hour", resetsAtMs: 1784600000000 });
 * ```
 */
export const quotaReadingSchema = z.object({
  /** Use of that window, rounded to an integer 0-100 (`@agent_quota_pct`). */
  pct: percentSchema,
  /**
   * The window's name as the channel spells it (`@agent_quota_window`):
   * `five_hour`, `seven_day`, `spend_limit` (Claude) or `primary`,
   * `secondary` (Codex).
   */
  window: z.string().min(1),
  /**
   * Epoch ms the window resets (`@agent_quota_resets_at`), or null where the
   * channel states no reset time for it (the stamp then leaves the option
   * absent).
   */
  resetsAtMs: z.number().int().positive().nullable(),
});

/** The account quota reading (I9). */
export type QuotaReading = z.infer<typeof quotaReadingSchema>;

/**
 * One parsed telemetry payload. See the module doc for `undefined` versus
 * `null`.
 *
 * ```ts
 * import { telemetryReadingSchema } from "./reading.ts";
 * const cleared = telemetryReadingSchema.parse({ contextPct: null, tokens: null });
 * ```
 */
export const telemetryReadingSchema = z.object({
  /**
   * Context-window use, an integer 0-100 (`@agent_context_pct`, P17).
   *
   * - number: every parser, from a reading that is certain and at most 100.
   * - `null`: only `claude-statusline-json`, when Claude reports no reading
   *   (`context_window: null`, or `used_percentage: null` early in a session).
   *   Claude is the one channel with an explicit "nothing" (I8).
   * - `undefined`: every parser, when the payload says nothing certain: a
   *   missing block or field (the churn-prone channels ignore it, I56), a
   *   reading above 100 (the cumulative bug of Claude builds before 2.1.132,
   *   I18), an unknown window (no window guessing, R24), pi's null percent or
   *   window right after a `/compact` (I64), or a Codex tail with no
   *   `token_count` record (I29).
   */
  contextPct: percentSchema.nullable().optional(),
  /**
   * Tokens currently in the context window, a level and never a total
   * (`@agent_tokens`, P19). Rides with the percent in one guarded chain.
   *
   * - number: `claude-statusline-json` (`total_input_tokens`, only from a
   *   payload whose `version` is at least 2.1.132, I19),
   *   `cursor-statusline-json` (`total_input_tokens`, I57) and
   *   `pi-context-json` (`context_usage.tokens`, I65).
   * - `null`: an observation without a usable count clears a stored one (P19):
   *   every Claude context observation from a build before 2.1.132 (or one
   *   whose version cannot be read), a Claude null report, and a pi reading
   *   whose `tokens` is null.
   * - `undefined`: no context observation at all, a Cursor payload missing
   *   either field (never a clear on that channel), and always for
   *   `codex-rollout-jsonl`, whose `total_token_usage` is no footprint (I30).
   */
  tokens: z.number().int().min(0).nullable().optional(),
  /**
   * Model label (`@agent_model`, P21): Claude's `model.id` (I20) and the
   * newest Codex `turn_context` record's `model` (I31). Never cleared by a
   * payload; the other formats leave it undefined (Cursor and Codex also send
   * it on registration, which another intake reads).
   */
  model: z.string().min(1).optional(),
  /**
   * Account quota: Claude `rate_limits` and Codex `rate_limits` (P22-P25,
   * I9). Undefined when the block or every window is missing, malformed,
   * above 100 or past its reset: a missing block is never a clear, so there
   * is no `null`. Cursor and pi publish none.
   */
  quota: quotaReadingSchema.optional(),
  /**
   * Claude's `cost.total_cost_usd` exactly as stated (`@agent_cost_usd`, P26):
   * the vendor's live estimate, never recomputed. Undefined when absent and
   * for every other format; never cleared by a payload (I21).
   */
  costUsd: z.number().min(0).optional(),
  /**
   * The payload's own session id, for the ownership filter (D44) the caller
   * applies with `acceptsSession`. Read by the Claude, Cursor and pi parsers
   * (`session_id`); the Codex tail has none (its file is already chosen by
   * session).
   */
  sessionId: z.string().min(1).optional(),
});

/** One parsed telemetry payload (see `telemetryReadingSchema`). */
export type TelemetryReading = z.infer<typeof telemetryReadingSchema>;

/** Options every parser takes. Parsers are pure, so the clock comes in here. */
export interface ParseTelemetryOptions {
  /** The current time in epoch ms: a quota window whose reset passed is ignored. */
  nowMs: number;
}

/**
 * The `codex-rollout-jsonl` parser: the tail of a Codex session's rollout
 * file (`~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl`), one JSON record per
 * line (I29-I31). The runtime reads the bytes; this module only reads text.
 *
 * Split in two so a caller that memoizes a file can keep the small scan and
 * re-judge it against a later clock: `scanRolloutTail` pulls the three facts
 * out of the text, `rolloutReading` turns them into a reading at `nowMs`.
 * @module
 */
import { z } from "../../deps/zod.ts";
import { epochToMs, looseNumber, looseString, toCount, tolerant, toPercent } from "./fields.ts";
import { pickQuota, type QuotaCandidate } from "./quota.ts";
import type { ParseTelemetryOptions, TelemetryReading } from "./reading.ts";

/** Codex's rate-limit windows in their listing order; a tie goes to the first (I9). */
export const CODEX_QUOTA_WINDOWS = ["primary", "secondary"] as const;

const usageSchema = z.object({
  input_tokens: looseNumber,
  output_tokens: looseNumber,
});

const windowSchema = z.object({
  used_percent: looseNumber,
  // Epoch seconds. Older builds stated only a relative `resets_in_seconds`,
  // which is left unread rather than guessed into an absolute time.
  resets_at: tolerant(z.number().nullable()),
});

/** The `payload` of an `event_msg` record of type `token_count`, as far as tma reads it. */
export const tokenCountSchema = z.object({
  type: z.literal("token_count"),
  info: tolerant(
    z.object({
      total_token_usage: tolerant(usageSchema),
      model_context_window: tolerant(z.number().nullable()),
    }).nullable(),
  ),
  rate_limits: tolerant(
    z.object({
      primary: tolerant(windowSchema.nullable()),
      secondary: tolerant(windowSchema.nullable()),
    }).nullable(),
  ),
});

/** The `payload` of a `turn_context` record, as far as tma reads it. */
export const turnContextSchema = z.object({ model: looseString });

/**
 * The facts of a rollout tail, each from the newest record that carries it.
 * A key is present once that record was found, even when its value turned out
 * unusable, so an older record never speaks over a newer one.
 */
export interface RolloutScan {
  /** From the newest `token_count` record with an `info` block: the gauge. */
  gauge?: { contextPct: number | undefined };
  /** From the newest `token_count` record with a `rate_limits` block, in listing order. */
  quota?: QuotaCandidate[];
  /** From the newest `turn_context` record. */
  model?: string;
}

/**
 * Scans the text of a rollout tail, newest line first.
 *
 * Tolerant by design: a line that is not a JSON object (garbage, or a line cut
 * by the tail read) is skipped. A cut line can never parse, since a proper
 * prefix or suffix of a one-line JSON object leaves its braces unbalanced, so
 * a truncated first or last line drops out on its own.
 *
 * ```ts
 * scanRolloutTail('{"type":"turn_context","payload":{"model":"gpt-5-codex"}}\n');
 * // { model: "gpt-5-codex" }
 * ```
 */
export function scanRolloutTail(text: string): RolloutScan {
  const scan: RolloutScan = {};
  let end = text.length;
  while (end > 0 && !(scan.gauge && scan.quota && scan.model !== undefined)) {
    const start = text.lastIndexOf("\n", end - 1) + 1;
    readLine(text.slice(start, end), scan);
    end = start - 1;
  }
  return scan;
}

function readLine(line: string, scan: RolloutScan): void {
  // Cheap filter first: most of a rollout is messages and tool output.
  const isTokenCount = line.includes('"token_count"');
  if (!isTokenCount && !line.includes('"turn_context"')) return;
  let record: unknown;
  try {
    record = JSON.parse(line);
  } catch {
    return;
  }
  if (typeof record !== "object" || record === null) return;
  const { type, payload } = record as { type?: unknown; payload?: unknown };

  if (type === "turn_context" && scan.model === undefined) {
    const context = turnContextSchema.safeParse(payload);
    if (context.success && context.data.model !== undefined) scan.model = context.data.model;
    return;
  }
  if (type !== "event_msg" || !isTokenCount) return;
  const parsed = tokenCountSchema.safeParse(payload);
  if (!parsed.success) return;
  const { info, rate_limits: limits } = parsed.data;
  if (scan.gauge === undefined && info !== undefined && info !== null) {
    scan.gauge = { contextPct: gaugePercent(info.total_token_usage, info.model_context_window) };
  }
  if (scan.quota === undefined && limits !== undefined && limits !== null) {
    scan.quota = quotaCandidates(limits);
  }
}

/**
 * (input + output) over the window (I29). The sum is a hybrid of a footprint
 * and a session counter: sound as a percent, never stamped as a count (I30).
 */
function gaugePercent(
  usage: { input_tokens?: number; output_tokens?: number } | undefined,
  window: number | null | undefined,
): number | undefined {
  const input = toCount(usage?.input_tokens);
  const output = toCount(usage?.output_tokens);
  if (input === undefined || output === undefined) return undefined;
  // No window, no gauge: tma never guesses a window size (R24).
  if (window === undefined || window === null || !(window > 0)) return undefined;
  return toPercent(((input + output) / window) * 100);
}

type RateLimits = NonNullable<z.infer<typeof tokenCountSchema>["rate_limits"]>;

function quotaCandidates(limits: RateLimits): QuotaCandidate[] {
  const candidates: QuotaCandidate[] = [];
  for (const name of CODEX_QUOTA_WINDOWS) {
    const window = limits[name];
    if (window === undefined || window === null || window.used_percent === undefined) continue;
    candidates.push({
      window: name,
      usedPct: window.used_percent,
      resetsAtMs: epochToMs(window.resets_at),
    });
  }
  return candidates;
}

/**
 * Combines the scan of a newer stretch of the file with that of the stretch
 * before it: each fact comes from the newer scan when it has one.
 *
 * ```ts
 * mergeRolloutScans({ model: "b" }, { model: "a", quota: [] }); // { model: "b", quota: [] }
 * ```
 */
export function mergeRolloutScans(newer: RolloutScan, older: RolloutScan): RolloutScan {
  const merged: RolloutScan = {};
  const gauge = newer.gauge ?? older.gauge;
  const quota = newer.quota ?? older.quota;
  const model = newer.model ?? older.model;
  if (gauge !== undefined) merged.gauge = gauge;
  if (quota !== undefined) merged.quota = quota;
  if (model !== undefined) merged.model = model;
  return merged;
}

/**
 * The reading a scan stands for at `nowMs`: the gauge (never a token count,
 * I30), the model, and the quota window closest to exhaustion among those not
 * yet reset. A scan with no `token_count` record yields no gauge and no quota.
 *
 * ```ts
 * rolloutReading({ model: "gpt-5-codex" }, { nowMs: 0 }); // { model: "gpt-5-codex" }
 * ```
 */
export function rolloutReading(scan: RolloutScan, opts: ParseTelemetryOptions): TelemetryReading {
  const reading: TelemetryReading = {};
  if (scan.gauge?.contextPct !== undefined) reading.contextPct = scan.gauge.contextPct;
  if (scan.model !== undefined) reading.model = scan.model;
  const quota = pickQuota(scan.quota ?? [], opts.nowMs);
  if (quota !== undefined) reading.quota = quota;
  return reading;
}

/**
 * Reads the text of a rollout tail: `scanRolloutTail` then `rolloutReading`.
 * Never throws: a tail of garbage is a miss, which stamps nothing.
 *
 * ```ts
 * parseCodexRollout("not json\n", { nowMs: 0 }); // {}
 * ```
 */
export function parseCodexRollout(text: string, opts: ParseTelemetryOptions): TelemetryReading {
  return rolloutReading(scanRolloutTail(text), opts);
}

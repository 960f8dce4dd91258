/**
 * Turns one telemetry reading into the guarded option writes that publish it
 * (P17-P26, I8, I9). Pure: the prior options and the evidence time come in,
 * chains of writes and their server-side guards come out; the runtime adds
 * the pane and hands them to the tmux writer.
 *
 * Two lanes, two chains, because tmux evaluates one guard per chain and the
 * two readings age separately:
 *
 * - the context lane (`@agent_context_pct`, `@agent_tokens`, `@agent_model`,
 *   `@agent_cost_usd`, then `@agent_tokens_at` and `@agent_context_at` last),
 *   committed only while the stored `@agent_context_at` (and, when a count is
 *   written, `@agent_tokens_at`) is not newer than this evidence;
 * - the quota lane (`@agent_quota_pct`, `@agent_quota_window`,
 *   `@agent_quota_resets_at`, then `@agent_quota_at` last), committed only
 *   while the stored `@agent_quota_at` is not newer.
 *
 * So a payload that arrives late, behind a newer one, can never move a gauge
 * backwards, and a null clear still advances the evidence time so the value
 * it cleared cannot come back.
 *
 * ```ts
 * import { planTelemetryWrites } from "./stamp_plan.ts";
 * const chains = planTelemetryWrites({}, { contextPct: 78, model: "claude-opus-4-8" }, {
 *   evidenceMs: 1785000000000,
 *   channelCarriesTokens: true,
 * });
 * chains[0].writes.at(-1); // { name: "@agent_context_at", value: "1785000000000" }
 * ```
 * @module
 */
import type { PaneOptionName, PaneOptions } from "../snapshot.ts";
import { ms, type OptionWrite } from "../stamp.ts";
import type { TelemetryFormat, TelemetryReading } from "./reading.ts";

/**
 * The formats whose count is unambiguously the tokens in the context window
 * (P19). Codex is deliberately absent: its `total_token_usage` mixes a
 * footprint with a session-cumulative term (I30).
 */
export const TOKEN_FORMATS: readonly TelemetryFormat[] = [
  "claude-statusline-json",
  "cursor-statusline-json",
  "pi-context-json",
];

/**
 * Whether a format's channel carries a token count tma may stamp (P19, I30).
 *
 * ```ts
 * formatCarriesTokens("pi-context-json"); // true
 * formatCarriesTokens("codex-rollout-jsonl"); // false
 * ```
 */
export function formatCarriesTokens(format: string): boolean {
  return (TOKEN_FORMATS as readonly string[]).includes(format);
}

/** The two lanes a reading is written in. */
export type TelemetryLane = "context" | "quota";

/** One guarded chain of writes for one pane, before the runtime names the pane. */
export interface TelemetryChain {
  /** Which lane this chain publishes; each lane has its own evidence time. */
  lane: TelemetryLane;
  /** The writes in order; the lane's evidence time is always the last one. */
  writes: OptionWrite[];
  /**
   * A tmux format condition, true while the stored evidence time(s) are not
   * newer than this evidence (an unset option compares as 0 in tmux 3.3).
   */
  guard: string;
}

/** Options of `planTelemetryWrites`. */
export interface TelemetryPlanOptions {
  /**
   * Epoch ms of the evidence: the intake time for a pushed payload, the
   * rollout file's mtime for the Codex pull.
   */
  evidenceMs: number;
  /**
   * Whether the channel carries an unambiguous context footprint (claude,
   * cursor, pi; never codex). Use `formatCarriesTokens`. When false, the
   * reading's `tokens` is ignored whatever it says.
   */
  channelCarriesTokens: boolean;
}

/**
 * Plans the writes of one reading: zero, one or two chains (context lane
 * first). A lane is left out when the reading says nothing for it, when the
 * prior options already hold newer evidence for it (the server guard would
 * refuse anyway, so the tmux call is saved), or when every write would store
 * what is already stored (a Codex file that has not moved since the last
 * cycle).
 *
 * Rules (I8, I9, P17-P26, R24):
 * - `contextPct`: an integer 0-100 is stamped; `null` clears it; either way
 *   `@agent_context_at` advances, written last. `undefined` (a missing
 *   block) changes nothing and does not advance it.
 * - `tokens`: only when `channelCarriesTokens`; a count is stamped, `null`
 *   (an observation without a count) clears it, with `@agent_tokens_at`.
 * - `model`, `costUsd`: stamped as stated, last write wins, never cleared,
 *   in the context chain (so an older payload arriving late cannot overwrite
 *   them once newer context evidence is stored); cost is never summed.
 * - `quota`: percent, window, reset time (cleared when the channel states
 *   none, so an old window's reset cannot linger) and `@agent_quota_at` last.
 *   A reading without quota never clears the stored one.
 * - Values that break their type (a fraction, a percent above 100, a negative
 *   count) are dropped: absent beats wrong.
 *
 * ```ts
 * const [context] = planTelemetryWrites({ "@agent_context_pct": "40" }, { contextPct: null }, {
 *   evidenceMs: 1785000000000,
 *   channelCarriesTokens: true,
 * });
 * context.writes; // [{ name: "@agent_context_pct", value: null }, { name: "@agent_context_at", ... }]
 * ```
 */
export function planTelemetryWrites(
  prior: PaneOptions,
  reading: TelemetryReading,
  opts: TelemetryPlanOptions,
): TelemetryChain[] {
  const evidence = ms(opts.evidenceMs);
  const chains: TelemetryChain[] = [];
  const context = contextChain(prior, reading, evidence, opts.channelCarriesTokens);
  if (context !== null) chains.push(context);
  const quota = quotaChain(prior, reading, evidence);
  if (quota !== null) chains.push(quota);
  return chains;
}

function contextChain(
  prior: PaneOptions,
  reading: TelemetryReading,
  evidence: string,
  carriesTokens: boolean,
): TelemetryChain | null {
  const pct = reading.contextPct === null ? null : asPercent(reading.contextPct);
  const gauge = reading.contextPct === null || pct !== undefined;
  const count = reading.tokens === null ? null : asCount(reading.tokens);
  const tokens = carriesTokens && (reading.tokens === null || count !== undefined);
  const model = reading.model !== undefined && reading.model !== "" ? reading.model : undefined;
  const cost = asCost(reading.costUsd);

  const writes: OptionWrite[] = [];
  if (gauge) writes.push({ name: "@agent_context_pct", value: pct === null ? null : String(pct) });
  if (tokens) writes.push({ name: "@agent_tokens", value: count === null ? null : String(count) });
  if (model !== undefined) writes.push({ name: "@agent_model", value: model });
  if (cost !== undefined) writes.push({ name: "@agent_cost_usd", value: String(cost) });
  if (tokens) writes.push({ name: "@agent_tokens_at", value: evidence });
  // Last: a reader that sees this time sees the values it dates.
  if (gauge) writes.push({ name: "@agent_context_at", value: evidence });
  if (writes.length === 0) return null;

  // The count has its own evidence time, so a count-only write (an old
  // Claude build whose percent was ignored) is guarded by it too.
  const clocks: PaneOptionName[] = tokens
    ? ["@agent_context_at", "@agent_tokens_at"]
    : ["@agent_context_at"];
  if (clocks.some((name) => storedIsNewer(prior, name, evidence))) return null;
  if (unchanged(prior, writes)) return null;
  return { lane: "context", writes, guard: notNewerThan(clocks, evidence) };
}

function quotaChain(
  prior: PaneOptions,
  reading: TelemetryReading,
  evidence: string,
): TelemetryChain | null {
  const quota = reading.quota;
  if (quota === undefined) return null;
  const pct = asPercent(quota.pct);
  if (pct === undefined || quota.window === "") return null;
  const resetsAt = quota.resetsAtMs !== null && Number.isSafeInteger(quota.resetsAtMs) &&
      quota.resetsAtMs > 0
    ? ms(quota.resetsAtMs)
    : null;
  const writes: OptionWrite[] = [
    { name: "@agent_quota_pct", value: String(pct) },
    { name: "@agent_quota_window", value: quota.window },
    { name: "@agent_quota_resets_at", value: resetsAt },
    { name: "@agent_quota_at", value: evidence },
  ];
  if (storedIsNewer(prior, "@agent_quota_at", evidence)) return null;
  if (unchanged(prior, writes)) return null;
  return { lane: "quota", writes, guard: notNewerThan(["@agent_quota_at"], evidence) };
}

/**
 * The server-side condition: every named evidence time is at most `evidence`.
 * `e|<=` compares numerically, and an unset or empty option reads as 0, so a
 * pane that never had a reading accepts the first one.
 */
function notNewerThan(clocks: readonly PaneOptionName[], evidence: string): string {
  const tests = clocks.map((name) => `#{e|<=:#{${name}},${evidence}}`);
  return tests.length === 1 ? tests[0] : `#{&&:${tests.join(",")}}`;
}

/** The local mirror of the guard, from the options read this cycle (empty reads as 0, like tmux). */
function storedIsNewer(prior: PaneOptions, name: PaneOptionName, evidence: string): boolean {
  const stored = Number(prior[name] ?? "");
  return Number.isFinite(stored) && stored > Number(evidence);
}

/** Whether every write stores what is already there (an unset option and a null write agree). */
function unchanged(prior: PaneOptions, writes: readonly OptionWrite[]): boolean {
  return writes.every((write) => {
    const stored = prior[write.name as PaneOptionName];
    const current = stored === undefined || stored === "" ? null : stored;
    return current === write.value;
  });
}

function asPercent(value: number | undefined): number | undefined {
  return value !== undefined && Number.isInteger(value) && value >= 0 && value <= 100
    ? value
    : undefined;
}

function asCount(value: number | undefined): number | undefined {
  return value !== undefined && Number.isSafeInteger(value) && value >= 0 ? value : undefined;
}

function asCost(value: number | undefined): number | undefined {
  return value !== undefined && Number.isFinite(value) && value >= 0 ? value : undefined;
}

/**
 * The options as they will read once `writes` commit, for a caller that
 * reports the stamp in the same run (the `ls` rows of a cycle): the stamp
 * module's one reading, re-exported where the telemetry callers look.
 */
export { applyWrites } from "../stamp.ts";

/**
 * Classifies one captured screen with an agent's `[[rules]]`: every rule is
 * tried, and the reading says which matched, which one the screen claims
 * (slot order blocked > working > idle, then priority, D16), and whether a
 * history view is open (D15). Pure: the fold decides what to do with it.
 *
 * ```ts
 * import { classifyScreen } from "./classify.ts";
 * import { parseAgentManifest } from "../manifest/parse.ts";
 * const m = parseAgentManifest(
 *   [
 *     'min_engine_version = "0.1"',
 *     "[identity]",
 *     'process_names = ["mycli"]',
 *     "[capture]",
 *     "[[rules]]",
 *     'state = "working"',
 *     'region = "tail_lines(3)"',
 *     'match = { contains = "esc to interrupt" }',
 *   ].join("\n"),
 *   { path: "mycli.toml", stem: "mycli" },
 * );
 * const reading = classifyScreen(m, { capture: "• Working (3s • esc to interrupt)\n", title: "" });
 * reading.verdict; // { kind: "claim", rule: { index: 0, state: "working", label: "rules[0] working", … } }
 * ```
 * @module
 */

import type { ClaimState } from "../manifest/fields.ts";
import type { Rule } from "../manifest/agent_schema.ts";
import { evaluatePredicate } from "./predicate.ts";
import { type PreparedScreen, prepareScreen, regionLines, type ScreenInput } from "./regions.ts";

/** The fold's slot order for screen claims: earlier wins (D10, D16). */
export const SLOT_ORDER: readonly ClaimState[] = ["blocked", "working", "idle"];

/** The outcome of one rule on one screen. */
export interface RuleResult {
  /** The rule's position in the manifest's `[[rules]]` (0-based). */
  index: number;
  /** Whether its predicate held over its region. */
  matched: boolean;
  /** The state it asserts. */
  state: ClaimState;
  /** Its detail token (already folded through `[details]`), or null. */
  detail: string | null;
  /** Its priority (default 0). */
  priority: number;
  /** The region as written: `tail_lines(N)`, `visible` or `title`. */
  region: string;
  /** Whether it marks a history view (`skip_state_update`, D15). */
  skipStateUpdate: boolean;
  /** Whether its match proves the turn ended (`ends_turn`, D65). */
  endsTurn: boolean;
  /** `rules[N] state[/detail]`, for `debug explain` and verdict reasons. */
  label: string;
}

/**
 * What the screen says, for the fold:
 * - `freeze`: a history view is open (a matched `skip_state_update` rule);
 *   hold the prior state rather than restating it. It wins over any claim,
 *   because the chrome around a history view is not the live screen.
 * - `claim`: the best matched rule asserts its state and detail.
 * - `none`: no rule matched; the screen says nothing.
 */
export type ScreenVerdict =
  | { kind: "freeze"; rule: RuleResult }
  | { kind: "claim"; rule: RuleResult }
  | { kind: "none" };

/** Every rule tried on one screen, and what they add up to. */
export interface ScreenReading {
  /** One result per rule, in manifest order (for `debug explain`). */
  results: RuleResult[];
  /**
   * The best matched rule that is not a history view: lowest slot in
   * {@linkcode SLOT_ORDER}, then highest priority, then earliest in the file.
   */
  best: RuleResult | null;
  /**
   * The best matched rule that reads the pane body rather than its title, by
   * the same order: what the screen proves without the title (D65, D67).
   */
  bestBody: RuleResult | null;
  /** The best matched history-view rule (highest priority, then earliest), or null. */
  historyView: RuleResult | null;
  /** `freeze` if `historyView`, else `claim` if `best`, else `none`. */
  verdict: ScreenVerdict;
}

/** The part of a manifest the classifier reads. */
export interface RuleSet {
  /** The manifest's parsed `[[rules]]`. */
  readonly rules: readonly Rule[];
}

/**
 * Tries every rule of `manifest` on one captured screen. Escapes are
 * stripped and trailing blank rows handled as described in `regions.ts`;
 * each region is cut once however many rules share it.
 */
export function classifyScreen(manifest: RuleSet, input: ScreenInput): ScreenReading {
  return classifyPrepared(manifest, prepareScreen(input));
}

/** {@linkcode classifyScreen} for a screen already passed through `prepareScreen`. */
export function classifyPrepared(manifest: RuleSet, screen: PreparedScreen): ScreenReading {
  const regions = new Map<string, readonly string[]>();
  const results: RuleResult[] = manifest.rules.map((rule, index) => {
    let lines = regions.get(rule.region.spec);
    if (lines === undefined) {
      lines = regionLines(screen, rule.region);
      regions.set(rule.region.spec, lines);
    }
    const detail = rule.detail ?? null;
    return {
      index,
      matched: evaluatePredicate(rule.match, lines),
      state: rule.state,
      detail,
      priority: rule.priority,
      region: rule.region.spec,
      skipStateUpdate: rule.skip_state_update,
      endsTurn: rule.ends_turn,
      label: `rules[${index}] ${rule.state}${detail === null ? "" : `/${detail}`}`,
    };
  });
  let best: RuleResult | null = null;
  let bestBody: RuleResult | null = null;
  let historyView: RuleResult | null = null;
  for (const r of results) {
    if (!r.matched) continue;
    if (r.skipStateUpdate) {
      if (historyView === null || r.priority > historyView.priority) historyView = r;
      continue;
    }
    if (best === null || outranks(r, best)) best = r;
    if (r.region !== "title" && (bestBody === null || outranks(r, bestBody))) bestBody = r;
  }
  const verdict: ScreenVerdict = historyView
    ? { kind: "freeze", rule: historyView }
    : best
    ? { kind: "claim", rule: best }
    : { kind: "none" };
  return { results, best, bestBody, historyView, verdict };
}

/** Whether `a` beats `b`: earlier slot, then higher priority (ties keep the earlier rule). */
function outranks(a: RuleResult, b: RuleResult): boolean {
  const slotA = SLOT_ORDER.indexOf(a.state);
  const slotB = SLOT_ORDER.indexOf(b.state);
  if (slotA !== slotB) return slotA < slotB;
  return a.priority > b.priority;
}

/**
 * Checks a screen fixture against an agent's rules: the `# state:` header
 * against the screen's claim, and the `# rule:` / `# not-rule:` pins against
 * the rules that did or did not match. Pure, so tests and tooling share it.
 *
 * ```ts
 * import { checkScreenFile } from "./fixture_check.ts";
 * // const problems = checkScreenFile(manifest, parseScreenFile(text, path));
 * // problems.length === 0 when the fixture holds
 * ```
 *
 * What a header state means:
 * - `blocked`, `working`, `idle`: the best claim (slot order, then priority)
 *   asserts exactly that state.
 * - `unknown`: the screen alone must not assert a state a human or the agent
 *   would act on, so the reading may not claim `blocked` or `working`. A
 *   history view, no match, or idle chrome pass: idle chrome co-renders with
 *   every state and never has authority on its own (D17), which is why the
 *   shared capture of a settled Claude screen whose title carries "✳" is
 *   marked `unknown` and still raises the idle title rule.
 * @module
 */

import type { Rule } from "../manifest/agent_schema.ts";
import { classifyScreen, type RuleSet, type ScreenReading } from "./classify.ts";
import type { ScreenFile } from "./screen_file.ts";

/** One `# rule:` or `# not-rule:` pin: a rule index and the reader's descriptor. */
export interface RulePin {
  /** The rule's index in `[[rules]]`. */
  index: number;
  /** What follows the index (for example `working@70`), or `""`. */
  descriptor: string;
}

/** The pins of a fixture. */
export interface RulePins {
  /** Rules that must match. */
  fire: RulePin[];
  /** Rules that must not match. */
  silent: RulePin[];
}

/**
 * The descriptor a pin may carry after the index, so a reordered manifest
 * fails loudly: `state[/detail]@priority`, plus ` history` for a
 * `skip_state_update` rule, or ` ends-turn` for an `ends_turn` rule.
 *
 * ```ts
 * // ruleDescriptor(rule) === "blocked/permission@100"
 * ```
 */
export function ruleDescriptor(rule: Rule): string {
  const detail = rule.detail === undefined ? "" : `/${rule.detail}`;
  const kind = rule.skip_state_update ? " history" : rule.ends_turn ? " ends-turn" : "";
  return `${rule.state}${detail}@${rule.priority}${kind}`;
}

/** Reads the `# rule:` and `# not-rule:` headers of a fixture. */
export function parseRulePins(file: ScreenFile): RulePins {
  const read = (values: string[] | undefined): RulePin[] =>
    (values ?? []).map((v) => {
      const m = /^(\d+)\s*(.*)$/.exec(v);
      return m ? { index: Number(m[1]), descriptor: m[2].trim() } : { index: -1, descriptor: v };
    });
  return { fire: read(file.headers["rule"]), silent: read(file.headers["not-rule"]) };
}

/**
 * Whether a reading agrees with a header state (see the module notes);
 * null when it does, else the problem.
 */
export function screenStateProblem(expected: string, reading: ScreenReading): string | null {
  const got = reading.best?.state ?? null;
  if (expected === "unknown") {
    return got === "blocked" || got === "working"
      ? `marked unknown, but the screen claims ${got} (${reading.best?.label})`
      : null;
  }
  if (got === expected) return null;
  return `marked ${expected}, but the screen claims ${
    reading.best ? `${got} (${reading.best.label})` : "nothing"
  }`;
}

/**
 * Classifies a fixture with `manifest` and lists every way it disagrees with
 * its headers: the state, each pinned rule that did not match (or whose
 * descriptor no longer fits), and each `not-rule` that matched.
 */
export function checkScreenFile(manifest: RuleSet, file: ScreenFile): string[] {
  const reading = classifyScreen(manifest, {
    capture: file.capture,
    title: file.title,
    height: file.height,
  });
  const problems: string[] = [];
  const stateProblem = screenStateProblem(file.state, reading);
  if (stateProblem) problems.push(stateProblem);
  const pins = parseRulePins(file);
  for (const [pinList, mustMatch] of [[pins.fire, true], [pins.silent, false]] as const) {
    for (const pin of pinList) {
      const rule = manifest.rules[pin.index];
      if (rule === undefined) {
        problems.push(`pins rule ${pin.index}, which does not exist`);
        continue;
      }
      const descriptor = ruleDescriptor(rule);
      if (pin.descriptor !== "" && pin.descriptor !== descriptor) {
        problems.push(`pins rule ${pin.index} as "${pin.descriptor}", but it is "${descriptor}"`);
      }
      if (reading.results[pin.index].matched !== mustMatch) {
        problems.push(
          `rule ${pin.index} (${descriptor}) ${mustMatch ? "did not match" : "matched"}`,
        );
      }
    }
  }
  return problems;
}

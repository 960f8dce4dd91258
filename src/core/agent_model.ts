/**
 * The bridge from a parsed agent manifest to what a cycle runs: its identity
 * profile (with `[[agent]]` config overrides applied, D34), its coverage and
 * its screen classifier reduced to the fold's evidence.
 * @module
 */
import type { ScreenEvidence } from "./fold.ts";
import type { AgentProfile } from "./identity.ts";
import type { ParsedAgentManifest } from "./manifest/parse.ts";
import { profileOf } from "./profile.ts";
import { classifyScreen, type RuleResult, type ScreenReading } from "./rules/classify.ts";
import type { State } from "./state.ts";

/** What a cycle needs to know about one agent. */
export interface AgentModel {
  manifest: ParsedAgentManifest;
  profile: AgentProfile;
  /** `[capture].visible` (M15). */
  visible: ReadonlySet<State>;
  /** Runs the agent's screen rules and reduces them to the fold's evidence. */
  classify(input: { capture: string; title: string; height: number | null }): ScreenEvidence & {
    reading: ScreenReading;
  };
}

/** A `[[agent]]` entry of config.toml (G28). */
export interface AgentOverride {
  name: string;
  enabled: boolean;
  process_names: string[];
}

/** A rule's label for `debug explain`. */
export function ruleLabel(rule: RuleResult): string {
  return `rules[${rule.index}] ${rule.state}${rule.detail ? `/${rule.detail}` : ""}`;
}

/**
 * Builds the models of the loaded manifests; an agent disabled by config is
 * left out.
 */
export function buildModels(
  manifests: Iterable<ParsedAgentManifest>,
  overrides: readonly AgentOverride[] = [],
): AgentModel[] {
  const models: AgentModel[] = [];
  for (const manifest of manifests) {
    const override = overrides.find((o) => o.name === manifest.name);
    if (override && !override.enabled) continue;
    models.push({
      manifest,
      profile: profileOf(manifest, override?.process_names),
      visible: new Set(manifest.capture.visible),
      classify(input) {
        const reading = classifyScreen(manifest, input);
        const claim = (rule: RuleResult | null) =>
          rule
            ? {
              state: rule.state,
              detail: rule.detail,
              priority: rule.priority,
              label: ruleLabel(rule),
              endsTurn: rule.endsTurn,
              fromTitle: rule.region === "title",
            }
            : null;
        return {
          best: claim(reading.best),
          bestBody: claim(reading.bestBody),
          historyView: claim(reading.historyView),
          reading,
        };
      },
    });
  }
  return models;
}

/**
 * The recognised-model fact: whether any `[telemetry.windows]` entry names a
 * pane's model (I10, G22). Only the names matter; the sizes are parsed but
 * unused. `tma doctor` reports an unrecognised model (a report, never a
 * warning).
 * @module
 */

/**
 * The `[telemetry.windows]` entry naming `model`, matched exactly or as a
 * prefix followed by a date or variant suffix (`claude-sonnet-4-5` names
 * `claude-sonnet-4-5-20250929`), or null when none does.
 *
 * ```ts
 * recognisedModel("gemini-2.5-pro", { "gemini-2.5-pro": 1048576 }); // "gemini-2.5-pro"
 * ```
 */
export function recognisedModel(
  model: string | null | undefined,
  windows: Readonly<Record<string, number>>,
): string | null {
  if (!model) return null;
  const names = Object.keys(windows).sort((a, b) => b.length - a.length);
  const exact = names.find((name) => name === model);
  if (exact) return exact;
  return names.find((name) => model.startsWith(`${name}-`) || model.startsWith(`${name}[`)) ?? null;
}

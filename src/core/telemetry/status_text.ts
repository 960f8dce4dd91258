/**
 * The line the statusline shim prints when the user has no `statusLine`
 * command of their own (I7): what tma just read from the payload, so the
 * agent's footer keeps a line instead of going blank.
 *
 * ```ts
 * import { statusText } from "./status_text.ts";
 * statusText({ model: "claude-opus-4-8", contextPct: 43 }); // "claude-opus-4-8 · context 43%"
 * ```
 * @module
 */
import type { TelemetryReading } from "./reading.ts";

/**
 * The model, the context gauge and, when a window is past half, the account
 * quota, joined by " · "; "" when the payload said none of them.
 */
export function statusText(reading: TelemetryReading): string {
  const parts: string[] = [];
  if (reading.model) parts.push(reading.model);
  if (typeof reading.contextPct === "number") parts.push(`context ${reading.contextPct}%`);
  if (reading.quota && reading.quota.pct >= 50) {
    parts.push(`${reading.quota.window.replace(/_/g, " ")} quota ${reading.quota.pct}%`);
  }
  return parts.join(" · ");
}

/**
 * What one broker run ends in: the closed outcome and reason vocabularies,
 * their exit codes, the schema-1 result object and the `--all` envelope, and
 * the ranking that picks a batch's exit code (C55, P65-P68, C46).
 *
 * ```ts
 * import { exitCodeOf } from "./outcome.ts";
 * exitCodeOf({ outcome: "refused", reason: "locked" }); // 5
 * ```
 * @module
 */
import { z } from "../../deps/zod.ts";
import { EXIT } from "../errors.ts";

/** The outcome vocabulary (P66), closed. */
export const OUTCOMES = [
  "sent",
  "replied",
  "exited",
  "spawned",
  "timeout",
  "refused",
  "vanished",
  "error",
] as const;

/** One outcome. */
export type Outcome = (typeof OUTCOMES)[number];

/**
 * The reason vocabulary (P67), closed, plus `prompt-changed` (X. Beyond: the
 * blocking dialog on screen is no longer the one the gate passed on).
 */
export const REASONS = [
  "gated",
  "requires-unmet",
  "wrong-agent",
  "no-coverage",
  "locked",
  "request-gone",
  "prompt-changed",
] as const;

/** One reason token. */
export type Reason = (typeof REASONS)[number];

/** The schema-1 result object of one target (P65). */
export const actResultSchema = z.strictObject({
  schema: z.literal(1),
  action: z.string(),
  pane: z.string(),
  outcome: z.enum(OUTCOMES),
  /** The child's own code for `exited`, otherwise the code of C55. */
  exit_code: z.int(),
  reason: z.enum(REASONS).nullable(),
});

/** The result object of one target. */
export type ActResult = z.infer<typeof actResultSchema>;

/** The `--all --json` envelope: results in fire order (P68). */
export const actBatchSchema = z.strictObject({
  schema: z.literal(1),
  results: z.array(actResultSchema),
});

/** The `--all --json` envelope. */
export type ActBatch = z.infer<typeof actBatchSchema>;

/**
 * The exit code of an outcome: 0 for a delivery, the child's code for
 * `exited`, 124 for a sync exec timeout, 4 for a refusal (5 when the lock is
 * held), 3 for a vanished pane or request, 1 for an error (C55).
 */
export function exitCodeOf(
  result: { outcome: Outcome; reason: Reason | null; childCode?: number },
): number {
  switch (result.outcome) {
    case "sent":
    case "replied":
    case "spawned":
      return EXIT.ok;
    case "exited":
      return result.childCode ?? EXIT.runtime;
    case "timeout":
      return EXIT.timeout;
    case "refused":
      return result.reason === "locked" ? EXIT.locked : EXIT.refused;
    case "vanished":
      return EXIT.vanished;
    case "error":
      return EXIT.runtime;
  }
}

/**
 * How bad a result is, for the batch exit code: acted < locked < refused <
 * vanished < timeout < an exec child's own failing code < error (C46).
 */
export function severity(result: ActResult): number {
  if (result.exit_code === 0) return 0;
  switch (result.outcome) {
    case "refused":
      return result.reason === "locked" ? 1 : 2;
    case "vanished":
      return 3;
    case "timeout":
      return 4;
    case "exited":
      return 5;
    default:
      return 6;
  }
}

/**
 * The exit code of a batch: the worst target's (C46); the first in fire
 * order wins a tie. An empty batch is a usage error and never gets here.
 *
 * ```ts
 * const result = (outcome: Outcome, reason: Reason | null): ActResult => ({
 *   schema: 1, action: "approve", pane: "%3", outcome, reason,
 *   exit_code: exitCodeOf({ outcome, reason }),
 * });
 * batchExitCode([result("sent", null), result("refused", "locked"), result("refused", "gated")]); // 4
 * ```
 */
export function batchExitCode(results: readonly ActResult[]): number {
  let worst: ActResult | null = null;
  for (const result of results) {
    if (worst === null || severity(result) > severity(worst)) worst = result;
  }
  return worst?.exit_code ?? EXIT.ok;
}

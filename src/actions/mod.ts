/**
 * The action broker as a library: fire an action at a pane through identity,
 * gate, lock and delivery (A11), explain what would happen (A36), list what
 * is fireable (A37), and read the audit log. The README documents this file
 * as the library surface; `mod.ts` does not re-export it, so the hook path
 * stays light.
 *
 * ```ts
 * import { type BrokerEnv, fire } from "./mod.ts";
 * import type { ParsedActionManifest } from "../core/manifest/parse.ts";
 * declare const env: BrokerEnv, action: ParsedActionManifest;
 * const report = await fire(env, { action, pane: "%3" });
 * report.result; // { schema: 1, action: "approve", pane: "%3", outcome: "sent", exit_code: 0, reason: null }
 * ```
 * @module
 */
export {
  type BrokerEnv,
  fire,
  type FireReport,
  type FireRequest,
  type FireSeams,
  validateRequest,
} from "./broker.ts";
export {
  dryRun,
  type DryRunTarget,
  fireability,
  freshView,
  type ListedAction,
  listedAction,
} from "./explain.ts";
export {
  type ActBatch,
  actBatchSchema,
  type ActResult,
  actResultSchema,
  batchExitCode,
  exitCodeOf,
  type Outcome,
  OUTCOMES,
  type Reason,
  REASONS,
} from "../core/action/outcome.ts";
export { type AuditEntry, auditPath, readAudit } from "./audit.ts";
export { handVerdict, takeVerdict, VERDICT_ACK_OPTION, VERDICT_OPTION } from "./hook_lane.ts";
export { LOCK_OPTION } from "./lock.ts";

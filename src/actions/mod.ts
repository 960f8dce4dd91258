/**
 * The action broker: fire an action at a pane through identity, gate, lock
 * and delivery (A11), explain what would happen (A36), list what is
 * fireable (A37), and read the audit log.
 *
 * ```ts
 * import { fire } from "./mod.ts";
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

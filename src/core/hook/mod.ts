/**
 * The hook bridge's pure logic: payload reading, event mapping, the hook
 * stamp plan, the subagent guard, Codex attribution, the reply lane's
 * tokens and the attention-clear scope.
 *
 * ```ts
 * import { parsePayload, planHookEvent, resolveHookAction } from "./mod.ts";
 * ```
 * @module
 */
export * from "./attention.ts";
export * from "./codex_attribution.ts";
export * from "./decision.ts";
export * from "./hook_manifest.ts";
export * from "./mapping.ts";
export * from "./payload.ts";
export * from "./plan.ts";
export * from "./settings.ts";
export * from "./subagents.ts";

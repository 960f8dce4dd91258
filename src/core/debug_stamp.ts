/**
 * `tma debug stamp` (C100) as a pure plan: the writes of one verdict
 * (publish, hold or remove) a test hands in by hand, made the way a cycle
 * makes them (`planWrites`), for the guarded writer to apply as one
 * compare-and-swap chain.
 *
 * ```ts
 * import type { PaneFacts } from "./snapshot.ts";
 * declare const pane: PaneFacts;
 * const writes = debugStampWrites(pane, {
 *   kind: "publish", state: "blocked", detail: "permission", source: "hook", agent: "claude",
 *   attention: true, nowMs: 1785100000000,
 * });
 * ```
 * @module
 */
import { planWrites } from "./cycle_plan.ts";
import type { Verdict } from "./fold.ts";
import type { Identity } from "./identity.ts";
import type { PaneFacts } from "./snapshot.ts";
import { ms, type OptionWrite, readStamp, removalWrites } from "./stamp.ts";
import type { Source, State } from "./state.ts";

/** The three verdict shapes a stamp applies. */
export const STAMP_KINDS = ["publish", "hold", "remove"] as const;

/** One of them. */
export type StampKind = (typeof STAMP_KINDS)[number];

/** What to stamp. */
export interface DebugStampRequest {
  kind: StampKind;
  /** Required to publish. */
  state?: State;
  detail?: string | null;
  /** Default `capture`. */
  source?: Source;
  /** The agent to stamp; default the pane's `@agent_name`. Required to publish on a bare pane. */
  agent?: string | null;
  /** Raise `@agent_attention` with the publish. */
  attention?: boolean;
  /** The evidence time; default `nowMs`. */
  atMs?: number;
  nowMs: number;
}

/**
 * The writes of one stamp, `@agent_stamped_at` last, its value never the
 * one read (so a racing compare-and-swap cannot pass by coincidence). A
 * publish writes what a cycle's publish would, plus `@tma_hook_at` for a
 * hook source (the time of its event, as the hook intake records it); a
 * hold refreshes the stamp time alone; a remove clears every tma option.
 * Throws on a publish with no state or no agent.
 */
export function debugStampWrites(pane: PaneFacts, request: DebugStampRequest): OptionWrite[] {
  if (request.kind === "remove") return removalWrites(pane.options);
  const prior = readStamp(pane.options);
  const nowMs = prior.stampedAt !== null && request.nowMs <= prior.stampedAt
    ? prior.stampedAt + 1
    : request.nowMs;
  const stampedAt = { name: "@agent_stamped_at", value: ms(nowMs) };
  if (request.kind === "hold") return [stampedAt];
  const agent = request.agent ?? prior.agent;
  if (!request.state) throw new Error("a publish needs a state");
  if (!agent) throw new Error("a publish needs an agent (the pane has no @agent_name)");
  const at = request.atMs ?? nowMs;
  const source = request.source ?? "capture";
  const verdict: Verdict = {
    action: "publish",
    state: request.state,
    detail: request.detail ?? null,
    source,
    evidenceAt: at,
    setAttention: request.attention ?? false,
    episodeReset: false,
    mayOverride: true,
    winning: { source, at, label: "debug stamp" },
    reason: "debug stamp (C100)",
  };
  const identity: Identity = {
    agent,
    // A registration: the stamp claims nothing about the pane's processes.
    source: "registered",
    pid: 0,
    foregroundIsAgent: true,
    outOfScope: null,
    ignored: false,
    titleMatchPid: null,
    matched: null,
  };
  const writes = planWrites(verdict, { pane, identity, prior, capture: null, nowMs })
    .filter((write) => write.name !== "@agent_stamped_at");
  if (source === "hook") {
    // A hand-made claim belongs to no turn: no phase order (D47) may hold against it.
    writes.push({ name: "@tma_hook_at", value: ms(at) }, { name: "@tma_hook_order", value: null });
  }
  return [...writes, stampedAt];
}

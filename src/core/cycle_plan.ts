/**
 * The pure halves of a cycle: which agent panes to capture (D54), and which
 * option writes publish or hold a verdict (P1-P16, D21-D24).
 * @module
 */
import { decayWindowMs, type FoldWindows, type Verdict } from "./fold.ts";
import { viewportHash } from "./hash.ts";
import type { Identity } from "./identity.ts";
import type { PaneFacts } from "./snapshot.ts";
import { ms, type OptionWrite, removalWrites, type Stamp } from "./stamp.ts";

/** How long a registration-only pane may hold nothing but a shell (D39). */
export const DEAD_REGISTRATION_MS = 30_000;

/**
 * A token for the pane's foreground facts. A change since the stamp forces a
 * capture: a new process may draw a new screen without the window counting as
 * active in the same second (D54).
 */
export function foregroundToken(pane: PaneFacts, identity: Identity): string {
  return `${pane.currentCommand}:${identity.pid}:${identity.foregroundIsAgent ? 1 : 0}`;
}

/**
 * Whether an agent pane needs a capture this cycle (D54). Skipped only when
 * its window's activity (whole seconds) is strictly older than its stamp and
 * nothing else forces one.
 */
export function needsCapture(
  pane: PaneFacts,
  context: { prior: Stamp; identity: Identity; nowMs: number; windows: FoldWindows },
): boolean {
  const { prior, identity, nowMs } = context;
  if (identity.source !== "observed") return false;
  if (!prior.hash || prior.stampedAt === null || prior.state === null) return true;
  if (prior.stampedAt > nowMs) return true; // a future stamp counts as stale (D49)
  if (prior.state === "working") return true; // the dwell needs fresh evidence
  if (prior.source === "hook" && prior.evidenceAt !== null) {
    if (nowMs - prior.evidenceAt >= decayWindowMs(prior.state, context.windows)) return true;
  }
  if ((pane.options["@tma_fg"] ?? "") !== foregroundToken(pane, identity)) return true;
  return pane.windowActivitySec >= Math.floor(prior.stampedAt / 1000);
}

/** What `planWrites` needs besides the verdict. */
export interface PlanContext {
  pane: PaneFacts;
  identity: Identity;
  prior: Stamp;
  /** The raw capture, when this cycle captured the pane. */
  capture: string | null;
  nowMs: number;
}

/** Options cleared when an episode resets because the agent was replaced (D24). */
const EPISODE_OPTIONS = [
  "@agent_turn_at",
  "@agent_notified_at",
  "@agent_cost_usd",
  "@agent_permission_request",
  "@agent_question_request",
  "@tma_delivered",
] as const;

/**
 * The writes of one pane's verdict, `@agent_stamped_at` last (P1). A hold
 * refreshes only the stamp time, hash and identity facts (D23).
 */
export function planWrites(verdict: Verdict, context: PlanContext): OptionWrite[] {
  const { pane, identity, prior, capture, nowMs } = context;
  if (verdict.action === "remove") return removalWrites(pane.options);
  const writes: OptionWrite[] = [];
  const set = (name: string, value: string | null) => {
    const current = pane.options[name as keyof typeof pane.options] ?? null;
    if (current !== value) writes.push({ name, value });
  };
  set("@agent_name", identity.agent);
  if (identity.source === "observed") {
    set("@agent_pid", String(identity.pid));
    set(
      "@tma_title_match_pid",
      identity.titleMatchPid === null ? null : String(identity.titleMatchPid),
    );
    set("@tma_fg", foregroundToken(pane, identity));
  }
  if (capture !== null) set("@agent_hash", viewportHash(capture));
  if (verdict.episodeReset) {
    for (const name of EPISODE_OPTIONS) set(name, null);
    if (!verdict.setAttention) set("@agent_attention", null);
  }
  if (verdict.action === "publish" && verdict.state !== null) {
    const changed = verdict.episodeReset || prior.state !== verdict.state;
    // A since more than 2 s ahead of the stamp time was stranded by a
    // backward clock step; the next publish rewrites it (D51).
    const stranded = prior.since !== null && prior.stampedAt !== null &&
      prior.since > prior.stampedAt + 2000;
    if (changed || stranded || prior.since === null) {
      set("@agent_since", ms(verdict.evidenceAt ?? nowMs));
    }
    set("@agent_state", verdict.state);
    set("@agent_detail", verdict.detail);
    set("@agent_source", verdict.source);
    set("@agent_evidence_at", verdict.evidenceAt === null ? null : ms(verdict.evidenceAt));
    if (verdict.setAttention) set("@agent_attention", "1");
  }
  // A pane skipped by the capture rule (D54) with nothing new keeps its
  // stamp as it is: a quiet cycle writes nothing.
  if (verdict.action === "hold" && capture === null && writes.length === 0) return writes;
  writes.push({ name: "@agent_stamped_at", value: ms(nowMs) });
  return writes;
}

/**
 * The reaper: a registration-only pane whose pane holds nothing but its shell
 * is cleared after 30 s (D39). Returns the marker write, or "remove".
 */
export function reapRegistration(
  pane: PaneFacts,
  context: { shellOnly: boolean; nowMs: number },
): OptionWrite[] | "remove" {
  const marker = pane.options["@tma_reg_dead_since"];
  if (!context.shellOnly) return marker ? [{ name: "@tma_reg_dead_since", value: null }] : [];
  const since = Number(marker);
  if (!marker || !Number.isFinite(since)) {
    return [{ name: "@tma_reg_dead_since", value: ms(context.nowMs) }];
  }
  return context.nowMs - since >= DEAD_REGISTRATION_MS ? "remove" : [];
}

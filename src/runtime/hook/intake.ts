/**
 * The hook intake: one agent event in, one guarded stamp out (C101). It runs
 * inside the agent's own hook, so it is built to be cheap: one `list-panes`
 * and one write (plus one `ps` for Codex), and for Claude's held
 * `PermissionRequest` the wait for a verdict (A25). `run.ts` wires it to the
 * command line.
 *
 * Concurrency: the pane is read, the stamp decided in TypeScript, and the
 * write committed under a compare-and-swap on `@agent_stamped_at`. When
 * another writer stamped in between, the pane is read again and the stamp
 * re-decided, until it commits or the fresh read shows a newer hook claim
 * (which skips it, D47): racing events resolve by evidence time rather than
 * by who finished last, and the newest is never dropped because older
 * writers were busy. Every lost swap means another writer committed, so the
 * loop makes progress; `STAMP_DEADLINE_MS` bounds it all the same.
 * @module
 */
import { decisionObject } from "../../core/hook/decision.ts";
import type { HookManifest } from "../../core/hook/hook_manifest.ts";
import { type HookAction, resolveHookAction } from "../../core/hook/mapping.ts";
import { type HookPayload, stringField } from "../../core/hook/payload.ts";
import {
  type HookGuard,
  type HookPlan,
  type HookWritePlan,
  planHookEvent,
  windowRollupWrite,
} from "../../core/hook/plan.ts";
import type { HookSettings } from "../../core/hook/settings.ts";
import type { AgentProfile } from "../../core/identity.ts";
import { profileOf } from "../../core/profile.ts";
import type { PaneFacts, PaneOptions, ProcessTable } from "../../core/snapshot.ts";
import { applyWrites } from "../../core/stamp.ts";
import type { State } from "../../core/state.ts";
import type { TmuxServer } from "../../tmux/exec.ts";
import { listPanes } from "../../tmux/panes.ts";
import { escapeFormat, writeChains } from "../../tmux/writer.ts";
import { holdForVerdict, mintRequestId, releaseRequest } from "./reply_lane.ts";

/**
 * How long an event keeps retrying lost compare-and-swaps (D47, R12): far
 * longer than a pile-up of hooks on one pane takes to drain even on a loaded
 * machine. (A wedged server ends the loop sooner: each tmux call has its own
 * timeout.)
 */
export const STAMP_DEADLINE_MS = 10_000;

/** The most a writer waits, at random, before reading again after a lost swap. */
const RETRY_JITTER_MS = 25;

/** Options of `intakeEvent`. */
export interface IntakeEventOptions {
  server: TmuxServer;
  /** The agent (manifest) name. */
  agent: string;
  /** The event name as the agent (or plugin) spelled it. */
  kind: string;
  /** The pane the hook reported (`--pane`, `$TMUX_PANE`), an id or a locator. */
  pane: string | null;
  payload: HookPayload;
  manifest: HookManifest;
  settings: HookSettings;
  /** The event's evidence time: the hook process's clock at its start. */
  evidenceAtMs: number;
  /** The clock, for `@agent_stamped_at` and the hold. */
  now(): number;
  /** Waits between hold polls; tests may pass their own. */
  sleep?: (ms: number) => Promise<void>;
  /**
   * The identity of another agent by name (the pane's registered one), for
   * the hand-over check; without it that agent counts as unknown.
   */
  profileOf?: (agent: string) => Promise<AgentProfile | null>;
  /**
   * While holding, end the process on SIGTERM, SIGINT or SIGHUP after
   * clearing the held id (an agent that gives up on its hook kills it).
   * Only the `tma event` process sets this.
   */
  exitOnSignal?: boolean;
  /** The event's action, when the caller already resolved it (else resolved here). */
  action?: HookAction;
  /**
   * The process that fired the hook, whose ancestry the hand-over check
   * (D46) and Codex's attribution (X4) walk: this process (`tma event` run
   * by the wrapper) unless the event was queued, when the wrapper recorded
   * its parent.
   */
  hookPid?: number;
  /**
   * The first attempt's `list-panes`, when the caller started it early: `tma
   * event` spawns it before this module loads, so tmux answers meanwhile.
   */
  listing?: Promise<PaneFacts[]>;
  /**
   * Runs once the stamp committed, before any hold: the direct notification
   * fire (U24) reads the stamp it wrote from here. Its errors are the
   * caller's to catch.
   */
  afterCommit?: (committed: CommittedStamp) => Promise<void>;
}

/** A committed hook stamp: the pane as listed, and its options once the writes landed. */
export interface CommittedStamp {
  pane: PaneFacts;
  options: PaneOptions;
  plan: HookWritePlan;
  /** The state the event itself claimed, or null (lifecycle, bookkeeping). */
  claimed: State | null;
}

/** What one event did. */
export interface IntakeResult {
  /** The pane stamped (or that would have been), when one was found. */
  pane: string | null;
  /** The last plan decided, when the event mapped to an action. */
  plan: HookPlan | null;
  committed: boolean;
  /** Claude's decision object, when a verdict was taken in the hold. */
  stdout: string | null;
  /** Why, in a few words, for the debug log. */
  note: string;
}

/**
 * Maps, stamps and (for Claude's `PermissionRequest`) holds one event.
 *
 * ```ts
 * import { parsePayload } from "../../core/hook/payload.ts";
 * import { defaultHookSettings } from "../../core/hook/settings.ts";
 * import { loadHookManifest } from "./load.ts";
 * const manifest = (await loadHookManifest("claude", { env: (name) => Deno.env.get(name) }))!;
 * const result = await intakeEvent({
 *   server: { bin: "tmux", socketName: "work" }, agent: "claude", kind: "Stop", pane: "%3",
 *   payload: parsePayload('{"session_id":"s1"}')!, manifest, settings: defaultHookSettings(),
 *   evidenceAtMs: Date.now(), now: Date.now,
 * });
 * result.committed; // true once the stamp is written
 * ```
 */
export async function intakeEvent(options: IntakeEventOptions): Promise<IntakeResult> {
  const { payload } = options;
  const action = options.action ??
    resolveHookAction(options.kind, { hooks: options.manifest.hooks, raw: payload.raw });
  const result: IntakeResult = { pane: null, plan: null, committed: false, stdout: null, note: "" };
  if (action === null) return { ...result, note: "unmapped event" };
  const claim = action.kind === "claim" ? action.entry.claim : null;
  const holds = options.agent === "claude" && options.kind === "PermissionRequest" &&
    options.settings.replyLane && claim !== null && "state" in claim && claim.state === "blocked";
  const requestId = holds ? mintRequestId() : undefined;
  const registration = claim !== null && "lifecycle" in claim && claim.lifecycle === "start";

  // Only Codex pays for a process walk (one `ps`, run beside the listing).
  const table = options.agent === "codex" ? processTable() : null;
  // Marked handled: a failed `ps` surfaces where it is awaited, never as an
  // unhandled rejection when the listing fails first.
  table?.catch(() => undefined);
  let committedStamp: CommittedStamp | null = null;
  // A held request listens from before its id can land: an agent that kills
  // the hook mid-write must still find the id cleared and the hook exit 0 (A25).
  const guard = requestId !== undefined && options.exitOnSignal
    ? releaseOnSignal(options.server, requestId)
    : null;
  try {
    return await stampAndHold(action);
  } finally {
    guard?.unlisten();
  }

  async function stampAndHold(action: HookAction): Promise<IntakeResult> {
    const giveUpAt = options.now() + STAMP_DEADLINE_MS;
    for (let attempt = 0; attempt === 0 || options.now() < giveUpAt; attempt++) {
      const panes = attempt === 0 && options.listing !== undefined
        ? await options.listing
        : await listPanes(options.server);
      let pane: PaneFacts | undefined;
      if (table !== null) {
        const { attributeCodexEvent, codexSessionKey, runsInsidePane } = await import(
          "../../core/hook/codex_attribution.ts"
        );
        const processes = await table;
        const reportedPane = paneIdOf(panes, options.pane);
        const reported = panes.find((p) => p.paneId === reportedPane);
        const found = attributeCodexEvent({
          panes,
          table: processes,
          profile: agentProfile(options),
          reportedPane,
          sessionKey: codexSessionKey(payload),
          cwd: stringField(payload.fields, ["cwd"]),
          registration,
          reportedTrusted: reported !== undefined &&
            runsInsidePane(options.hookPid ?? Deno.pid, { table: processes, pane: reported }),
        });
        if (found.pane === null) return { ...result, note: found.reason };
        pane = panes.find((p) => p.paneId === found.pane);
      } else {
        const id = paneIdOf(panes, options.pane);
        pane = panes.find((p) => p.paneId === id);
      }
      if (!pane) return { ...result, note: "no such pane" };
      const conflict = action.kind === "claim" ? conflictOf(pane, options) : null;
      if (conflict !== null) {
        const verdict = await handover(options, { pane, table });
        if (!verdict.changed) {
          return { ...result, pane: pane.paneId, note: `${conflict}, and ${verdict.reason}` };
        }
      }
      const plan = planHookEvent({
        agent: options.agent,
        options: pane.options,
        action,
        payload,
        evidenceAtMs: options.evidenceAtMs,
        order: options.manifest.hooks?.order,
        stampedAtMs: options.now(),
        mintRequestId: requestId,
      });
      result.pane = pane.paneId;
      result.plan = plan;
      if (plan.kind === "skip") return { ...result, note: plan.reason };
      const writes = [...plan.writes];
      const rollup = windowRollupWrite(panes, { paneId: pane.paneId, stateAfter: plan.stateAfter });
      // The rollup rides the same chain, before the stamp time that ends it (P1, D56).
      if (rollup !== null) writes.splice(Math.max(0, writes.length - 1), 0, rollup);
      const writing = writeChains(options.server, [{
        pane: pane.paneId,
        guard: guardFormat(plan.guard),
        writes,
      }]);
      guard?.writing(pane.paneId, writing);
      const committed = await writing;
      if (committed.get(pane.paneId)) {
        result.committed = true;
        result.note = plan.reason;
        committedStamp = {
          pane,
          options: applyWrites(pane.options, writes),
          plan,
          claimed: claim !== null && "state" in claim ? claim.state : null,
        };
        break;
      }
      // Writers that lost together would read and collide together again.
      await pause(Math.random() * RETRY_JITTER_MS);
    }
    if (!result.committed) return { ...result, note: result.note || "lost every compare-and-swap" };
    if (committedStamp !== null) await options.afterCommit?.(committedStamp);
    const plan = result.plan;
    if (requestId !== undefined && plan?.kind === "write" && plan.minted && result.pane !== null) {
      const verdict = await holdForVerdict(options.server, {
        pane: result.pane,
        requestId,
        holdMs: options.settings.holdMs,
        now: options.now,
        sleep: options.sleep,
      });
      if (verdict !== null) result.stdout = decisionObject(verdict);
    }
    return result;
  }
}

const HOLD_SIGNALS: readonly Deno.Signal[] = ["SIGTERM", "SIGINT", "SIGHUP"];

/**
 * Clears the held id and exits 0 when the hook is signalled mid-hold, so a
 * killed hold leaves no id for the broker to offer a verdict to. Returns
 * the function that removes the listeners.
 */
function releaseOnSignal(server: TmuxServer, requestId: string): {
  writing(pane: string, write: Promise<unknown>): void;
  unlisten(): void;
} {
  let pane: string | null = null;
  let write: Promise<unknown> = Promise.resolve();
  const handler = () => {
    // A write in flight may still land the id: clear it after the write settles.
    write.catch(() => undefined)
      .then(() => pane === null ? false : releaseRequest(server, { pane, requestId }))
      .catch(() => false)
      .finally(() => Deno.exit(0));
  };
  const added: Deno.Signal[] = [];
  for (const signal of HOLD_SIGNALS) {
    try {
      Deno.addSignalListener(signal, handler);
      added.push(signal);
    } catch {
      // Not every platform has every signal; the hold works without it.
    }
  }
  return {
    writing(next, promise) {
      pane = next;
      write = promise;
    },
    unlisten() {
      for (const signal of added) Deno.removeSignalListener(signal, handler);
    },
  };
}

/**
 * Waits `ms` without `setTimeout`, whose first use loads Deno's Node timers
 * layer (the same reason as in `tmux/spawn.ts`).
 */
function pause(ms: number): Promise<void> {
  return new Promise((resolve) => {
    AbortSignal.timeout(ms).addEventListener("abort", () => resolve(), { once: true });
  });
}

/**
 * How an event conflicts with the pane's registration, or null: another
 * agent than the registered one, or another session (both sides naming one).
 * Such an event stamps only when the pane changed hands (`handover.ts`).
 */
function conflictOf(pane: PaneFacts, options: IntakeEventOptions): string | null {
  const agent = pane.options["@agent_name"] || null;
  if (agent !== null && agent !== options.agent) {
    return `an event of ${options.agent} on a pane registered to ${agent}`;
  }
  const session = pane.options["@agent_session"] || null;
  const mine = options.payload.sessionId;
  if (session !== null && mine !== null && mine !== session) {
    return `an event of session ${mine} on a pane registered to session ${session}`;
  }
  return null;
}

/** The hand-over verdict on a conflicting event; its modules and `ps` load only here. */
async function handover(
  options: IntakeEventOptions,
  context: { pane: PaneFacts; table: Promise<ProcessTable> | null },
) {
  const [{ changedHands }, processes] = await Promise.all([
    import("../../core/hook/handover.ts"),
    context.table ?? processTable(),
  ]);
  const registered = context.pane.options["@agent_name"] || options.agent;
  return changedHands({
    pane: context.pane,
    table: processes,
    hookPid: options.hookPid ?? Deno.pid,
    event: agentProfile(options),
    registered: registered === options.agent
      ? agentProfile(options)
      : (await options.profileOf?.(registered)) ?? null,
  });
}

/** One process snapshot, indexed; its modules load only on this path. */
async function processTable(): Promise<ProcessTable> {
  const [{ indexProcesses }, { snapshotProcesses }] = await Promise.all([
    import("../../core/snapshot.ts"),
    import("../../tmux/ps.ts"),
  ]);
  return indexProcesses(await snapshotProcesses());
}

/**
 * The tmux condition of a plan's guard. With an order, the same decision as
 * the plan's own check (`holdingClaim`): a stored claim of an earlier
 * phase yields within the window, one of a later phase holds within it,
 * else the newer time wins. (tmux 3.3 has no `#{!:}`: a conditional negates.)
 */
export function guardFormat(guard: HookGuard): string {
  const same = `#{==:#{${guard.option}},${escapeFormat(guard.value)}}`;
  if (guard.hookAtMost === undefined) return same;
  const at = guard.hookAtMost;
  const inTime = `#{e|<=:#{@tma_hook_at},${at}}`;
  if (guard.order === undefined) return `#{&&:${same},${inTime}}`;
  const { earlier, later, windowMs } = guard.order;
  const any = (patterns: string[]) =>
    patterns.map((p) => `#{m:${p},#{@tma_hook_order}}`)
      .reduce((a, b) => `#{||:${a},${b}}`, "0");
  const yields = `#{&&:${any(earlier)},#{e|<=:#{@tma_hook_at},${at + windowMs}}}`;
  const holds = `#{&&:${any(later)},#{e|>=:#{@tma_hook_at},${at - windowMs}}}`;
  return `#{&&:${same},#{?${yields},1,#{?${holds},0,${inTime}}}}`;
}

/** The id of the pane named by an id or a locator, or null. */
function paneIdOf(panes: readonly PaneFacts[], name: string | null): string | null {
  if (!name) return null;
  return panes.find((p) => p.paneId === name || p.locator === name)?.paneId ?? null;
}

/** The event agent's identity profile, with `[[agent]]` process names added (D34). */
function agentProfile(options: IntakeEventOptions): AgentProfile {
  const extra = options.settings.agents.find((a) => a.name === options.agent)?.process_names;
  return profileOf(options.manifest, extra);
}

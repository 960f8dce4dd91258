/**
 * Which pane a Codex hook event belongs to. By default Codex runs its hooks
 * and `notify` inside a background app-server daemon, whose `$TMUX_PANE` (and
 * process ancestry) belong to whichever pane started the daemon, so the pane
 * a hook reports may be another Codex pane entirely (real-agents.md). The
 * event is attributed by evidence instead, in this order:
 *
 * 1. the reported pane, when its process tree holds Codex and either its
 *    `@agent_session` is the event's session, or it has no session yet and
 *    is the one unregistered Codex pane in the payload's `cwd` (a daemon
 *    started by pane A reports A for every pane: an event from pane B in
 *    another folder must not register B's session on A);
 * 2. the pane whose `@agent_session` is the event's session;
 * 3. by working directory: the one Codex pane in the payload's `cwd` that no
 *    session owns yet; for a registration also the one Codex pane in that
 *    `cwd` at all (a new session in the same pane, `/new`);
 *
 * and dropped when none of these names exactly one pane.
 *
 * The session key is `session_id`, else the `thread-id` of a `notify`
 * payload, which is the thread's session id. Codex also notifies for its
 * internal title-generation thread, whose thread id no pane owns: step 3
 * drops it on a registered pane rather than let it end a running turn.
 *
 * ```ts
 * import { attributeCodexEvent } from "./codex_attribution.ts";
 * import type { PaneFacts, ProcessTable } from "../snapshot.ts";
 * declare const panes: PaneFacts[], table: ProcessTable;
 * const profile = { name: "codex", processNames: ["codex"], titlePatterns: [], argsPatterns: [] };
 * const found = attributeCodexEvent({ panes, table, profile, reportedPane: "%0",
 *   sessionKey: "s2", cwd: "/p", registration: false });
 * found.pane; // "%1" when %1 is the pane registered to s2
 * ```
 * @module
 */
import { type AgentProfile, identify } from "../identity.ts";
import type { PaneFacts, ProcessInfo, ProcessTable } from "../snapshot.ts";
import { type HookPayload, stringField } from "./payload.ts";

/** What attribution reads. */
export interface AttributionInput {
  /** Every pane of the server (one `list-panes -a`). */
  panes: readonly PaneFacts[];
  /** The process snapshot (one `ps`). */
  table: ProcessTable;
  /** Codex's identity profile, for the process-tree check. */
  profile: AgentProfile;
  /** The pane the hook reported (`--pane` / `$TMUX_PANE`), if any. */
  reportedPane: string | null;
  /** The event's session key (see `codexSessionKey`), if any. */
  sessionKey: string | null;
  /** The payload's `cwd`, if any. */
  cwd: string | null;
  /** The event is a registration (`lifecycle = "start"`). */
  registration: boolean;
  /**
   * The hook process itself runs inside the reported pane's process tree
   * with a controlling terminal: Codex ran it from the pane (`--no-daemon`),
   * not from its terminal-less app-server daemon, so the report is true.
   */
  reportedTrusted?: boolean;
}

/** The attributed pane (null when dropped) and how it was found. */
export interface Attribution {
  pane: string | null;
  reason: string;
}

/**
 * The session key of a Codex payload: `session_id`, else `thread-id`.
 *
 * ```ts
 * codexSessionKey({ raw: "", fields: { "thread-id": "t1" }, sessionId: null }); // "t1"
 * ```
 */
export function codexSessionKey(payload: HookPayload): string | null {
  return payload.sessionId ?? stringField(payload.fields, ["thread-id", "thread_id"]);
}

/**
 * Whether process `pid` (the hook process) runs inside `pane`'s process tree
 * with a controlling terminal. The daemon and everything it spawns have no
 * terminal, even though the daemon's parent is the pane that started it.
 */
export function runsInsidePane(
  pid: number,
  context: { table: ProcessTable; pane: PaneFacts },
): boolean {
  const self = context.table.byPid.get(pid);
  if (!self || self.tpgid <= 0) return false;
  const seen = new Set<number>();
  let p: ProcessInfo | undefined = self;
  while (p !== undefined && !seen.has(p.pid)) {
    if (p.pid === context.pane.panePid) return true;
    seen.add(p.pid);
    p = context.table.byPid.get(p.ppid);
  }
  return false;
}

/** Attributes one Codex event to a pane. */
export function attributeCodexEvent(input: AttributionInput): Attribution {
  const live = input.panes.filter((p) => !p.dead);
  const codex = live.filter((p) => holdsCodex(p, input));
  const session = (p: PaneFacts) => p.options["@agent_session"] || null;

  const reported = codex.find((p) => p.paneId === input.reportedPane);
  if (reported && session(reported) !== null && session(reported) === input.sessionKey) {
    return { pane: reported.paneId, reason: "the reported pane runs codex in this session" };
  }
  if (reported && session(reported) === null) {
    if (input.reportedTrusted) {
      return { pane: reported.paneId, reason: "the hook ran inside the reported pane" };
    }
    const sameCwd = input.cwd === null || reported.currentPath === input.cwd;
    const rivals = codex.filter((p) =>
      p !== reported && session(p) === null && (input.cwd === null || p.currentPath === input.cwd)
    );
    if (sameCwd && rivals.length === 0) {
      return {
        pane: reported.paneId,
        reason: "the reported pane is the one unregistered codex pane here",
      };
    }
  }
  if (input.sessionKey !== null) {
    const owner = live.find((p) => session(p) === input.sessionKey);
    if (owner) return { pane: owner.paneId, reason: "the pane registered to this session" };
  }
  if (input.cwd !== null) {
    const here = codex.filter((p) => p.currentPath === input.cwd);
    const unowned = here.filter((p) => session(p) === null);
    if (unowned.length === 1) {
      return { pane: unowned[0].paneId, reason: "the one unregistered codex pane in this cwd" };
    }
    if (unowned.length === 0 && input.registration && here.length === 1) {
      return { pane: here[0].paneId, reason: "the one codex pane in this cwd, re-registering" };
    }
  }
  return { pane: null, reason: "no single codex pane can be attributed" };
}

function holdsCodex(pane: PaneFacts, input: AttributionInput): boolean {
  const identity = identify(pane, { table: input.table, profiles: [input.profile] });
  return identity.source === "observed";
}

/**
 * Whether a registered pane changed hands (issue 13 item 2, D46): an agent
 * started as a tool by the pane's own agent (`claude -p …`, `gemini -p …`)
 * inherits `TMUX_PANE` and fires its hooks there, with another session or
 * as another agent. Such an event must not claim the pane's state or replace
 * its identity; only the evidence below says the pane really is someone
 * else's now. Pure: the caller supplies the process snapshot, and asks only
 * when an event conflicts with the registration.
 *
 * The evidence accepted, in order:
 *
 * 1. the agent that fired the event is the pane's own top agent: the nearest
 *    ancestor of the hook process that is the event's agent (by command name
 *    or command line) runs in the pane's process tree, and no agent process
 *    (the event's or the registered one) sits above it there. A `/clear` in
 *    Claude (same process, new session) and a new agent started at the
 *    pane's shell pass; a headless agent run by the pane's agent does not.
 * 2. the registered agent's process is gone: nothing in the pane's process
 *    tree, apart from the firing agent and what it started, is the
 *    registered agent (the pane is back at a shell, or the agent exited).
 *
 * Anything else (the registered agent still runs, and the event came from
 * outside the pane or from a process nested under an agent) is refused.
 *
 * @module
 */
import { type AgentProfile, processMatches } from "../identity.ts";
import { descendantsOf, type PaneFacts, type ProcessInfo, type ProcessTable } from "../snapshot.ts";

/** What the hand-over decision reads. */
export interface HandoverInput {
  pane: PaneFacts;
  table: ProcessTable;
  /** The pid of the hook process (`tma event`). */
  hookPid: number;
  /** The identity of the agent the event names. */
  event: AgentProfile;
  /** The identity of the pane's registered agent, when its manifest loads. */
  registered: AgentProfile | null;
}

/** The verdict: changed hands (with the evidence), or not (with why not). */
export type Handover =
  | { changed: true; evidence: string }
  | { changed: false; reason: string };

/**
 * Decides whether the pane changed hands, by the evidence in the module
 * notes.
 *
 * ```ts
 * import { indexProcesses } from "../snapshot.ts";
 * import type { PaneFacts } from "../snapshot.ts";
 * declare const pane: PaneFacts; // panePid 10, an idle shell
 * const claude = { name: "claude", processNames: ["claude"], titlePatterns: [], argsPatterns: [] };
 * changedHands({ pane, table: indexProcesses([]), hookPid: 99, event: claude, registered: claude });
 * // { changed: true, evidence: "the pane's claude process is gone" }
 * ```
 */
export function changedHands(input: HandoverInput): Handover {
  const { pane, table } = input;
  // The pane's first process (an agent started as the pane's command) and its tree.
  const root = table.byPid.get(pane.panePid);
  const inPane = new Map<number, ProcessInfo>(
    [...(root ? [root] : []), ...descendantsOf(table, pane.panePid)].map((p) => [p.pid, p]),
  );
  const agents = [input.event, ...(input.registered ? [input.registered] : [])];
  const isAgent = (p: ProcessInfo) => agents.some((profile) => processMatches(profile, p));

  // 1. The firing agent: the hook's nearest ancestor in the pane that is the event's agent.
  const chain = ancestors(table, input.hookPid).filter((p) => inPane.has(p.pid));
  const firingAt = chain.findIndex((p) => processMatches(input.event, p));
  const firing = firingAt < 0 ? undefined : chain[firingAt];
  if (firing !== undefined && !chain.slice(firingAt + 1).some(isAgent)) {
    return {
      changed: true,
      evidence: `the event's ${input.event.name} (pid ${firing.pid}) is the pane's own top agent`,
    };
  }

  // 2. The registered agent's process is gone.
  if (input.registered === null) {
    return { changed: true, evidence: "the pane's registered agent has no manifest to look for" };
  }
  const mine = new Set(
    firing === undefined ? [] : [firing.pid, ...descendantsOf(table, firing.pid).map((p) => p.pid)],
  );
  const alive = [...inPane.values()].find((p) =>
    !mine.has(p.pid) && processMatches(input.registered!, p)
  );
  if (alive === undefined) {
    return { changed: true, evidence: `the pane's ${input.registered.name} process is gone` };
  }
  return {
    changed: false,
    reason:
      `the pane's ${input.registered.name} (pid ${alive.pid}) still runs and the event came ` +
      (firing === undefined
        ? "from outside the pane"
        : `from ${input.event.name} pid ${firing.pid}, nested under another agent`),
  };
}

/** `pid` and its ancestors, nearest first. */
function ancestors(table: ProcessTable, pid: number): ProcessInfo[] {
  const out: ProcessInfo[] = [];
  const seen = new Set<number>();
  let p = table.byPid.get(pid);
  while (p !== undefined && !seen.has(p.pid)) {
    out.push(p);
    seen.add(p.pid);
    p = table.byPid.get(p.ppid);
  }
  return out;
}

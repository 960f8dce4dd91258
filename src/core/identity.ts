/**
 * Identity: does a pane hold an agent, which one, with which pid, and is the
 * agent what the terminal shows? Decided from one `list-panes` row, one
 * process snapshot and the pane's own options (D29-D40). Pure.
 * @module
 */
import type { TextPattern } from "./regex/pattern.ts";
import { descendantsOf, type PaneFacts, type ProcessInfo, type ProcessTable } from "./snapshot.ts";

/** The identity facts of one agent, taken from its manifest and config overrides. */
export interface AgentProfile {
  name: string;
  /** Command-name basenames (M6), extra names from `[[agent]]` included. */
  processNames: readonly string[];
  /** Title regexes that narrow a generic process name (M7). */
  titlePatterns: readonly TextPattern[];
  /**
   * Regexes over a process's full command line. A match identifies the agent
   * by itself: real Codex and Gemini run as `node`, and only their command
   * lines name them.
   */
  argsPatterns: readonly TextPattern[];
}

/** Process names too generic to identify an agent without a title or command line. */
export const GENERIC_NAMES: ReadonlySet<string> = new Set([
  "node",
  "agent",
  "bun",
  "deno",
  "python",
  "python3",
]);

/** Foreground commands that put a pane out of scope (D35). */
export const REMOTE_SHELLS: ReadonlySet<string> = new Set([
  "ssh",
  "mosh",
  "mosh-client",
  "docker",
  "podman",
  "kubectl",
]);

/** Foreground commands of nested multiplexers (D36). */
export const NESTED_MULTIPLEXERS: ReadonlySet<string> = new Set([
  "tmux",
  "zellij",
  "screen",
  "dvtm",
  "abduco",
]);

/** Why a pane is out of scope, when it is. */
export type OutOfScope = "remote" | "nested";

/** The identity verdict for one pane. */
export interface Identity {
  /** The agent's name, or null when the pane holds none. */
  agent: string | null;
  /** `observed` from the process walk, `registered` from a hook, or null. */
  source: "observed" | "registered" | null;
  /** The agent's process-group leader, or 0 for a registration alone (P4). */
  pid: number;
  /** Whether the terminal shows the agent (D12, D13). */
  foregroundIsAgent: boolean;
  /** Set when the pane is a remote shell or nested multiplexer. */
  outOfScope: OutOfScope | null;
  /** `@agent_ignore` is set (D38). */
  ignored: boolean;
  /** The pid whose title matched, to store in `@tma_title_match_pid` (D33). */
  titleMatchPid: number | null;
  /** The process that matched, for `debug explain`. */
  matched: ProcessInfo | null;
}

/**
 * Strips a leading `.` and a trailing, possibly truncated `-wrapped` (D32),
 * so `.opencode-wrapped` reads as `opencode`.
 */
export function normalizeCommandName(name: string): string {
  const base = name.split(/\s/)[0]?.split("/").pop() ?? "";
  if (!base.startsWith(".")) return base;
  const stripped = base.slice(1);
  const dash = stripped.lastIndexOf("-");
  if (dash > 0 && "-wrapped".startsWith(stripped.slice(dash))) return stripped.slice(0, dash);
  return stripped;
}

/** Whether a command name is one of the agent's names, truncation included (D31). */
export function nameMatches(profile: AgentProfile, commandName: string): boolean {
  const name = normalizeCommandName(commandName);
  if (name === "") return false;
  return profile.processNames.some((candidate) =>
    candidate === name || (name.length === 15 && candidate.startsWith(name))
  );
}

function argsMatch(profile: AgentProfile, process: ProcessInfo): boolean {
  return profile.argsPatterns.some((pattern) => pattern.test(process.args));
}

/** Whether a process is the agent of `profile`, by its command name or its command line. */
export function processMatches(profile: AgentProfile, process: ProcessInfo): boolean {
  return nameMatches(profile, process.comm) || argsMatch(profile, process);
}

interface Candidate {
  profile: AgentProfile;
  process: ProcessInfo;
  byArgs: boolean;
  depth: number;
}

/**
 * Decides the identity of one pane.
 *
 * ```ts
 * import type { PaneFacts, ProcessTable } from "./snapshot.ts";
 * declare const pane: PaneFacts, table: ProcessTable;
 * const profiles = [{ name: "claude", processNames: ["claude"], titlePatterns: [], argsPatterns: [] }];
 * const identity = identify(pane, { table, profiles });
 * identity.agent; // "claude"
 * ```
 */
export function identify(
  pane: PaneFacts,
  context: { table: ProcessTable; profiles: readonly AgentProfile[] },
): Identity {
  const none: Identity = {
    agent: null,
    source: null,
    pid: 0,
    foregroundIsAgent: false,
    outOfScope: null,
    ignored: false,
    titleMatchPid: null,
    matched: null,
  };
  if (pane.options["@agent_ignore"]) return { ...none, ignored: true };
  const foreground = normalizeCommandName(pane.currentCommand);
  const outOfScope: OutOfScope | null = REMOTE_SHELLS.has(foreground)
    ? "remote"
    : NESTED_MULTIPLEXERS.has(foreground)
    ? "nested"
    : null;
  const registered = registrationOf(pane, context.profiles);
  if (outOfScope) {
    // A live registration keeps the row behind a remote shell (D37).
    return registered
      ? { ...none, agent: registered, source: "registered", outOfScope }
      : { ...none, outOfScope };
  }
  const candidate = findCandidate(pane, context);
  if (!candidate) {
    return registered ? { ...none, agent: registered, source: "registered" } : none;
  }
  const { profile, process } = candidate;
  const leader = context.table.byPid.get(process.pgid);
  const pid = leader && leader.pgid === process.pgid ? leader.pid : process.pid;
  return {
    agent: profile.name,
    source: "observed",
    pid,
    foregroundIsAgent: isForeground(pane, candidate),
    outOfScope: null,
    ignored: false,
    titleMatchPid: needsTitle(candidate) ? process.pid : null,
    matched: process,
  };
}

function needsTitle(candidate: Candidate): boolean {
  return !candidate.byArgs && candidate.profile.processNames.some((n) => GENERIC_NAMES.has(n)) &&
    GENERIC_NAMES.has(normalizeCommandName(candidate.process.comm));
}

/**
 * Finds the agent process in the pane's tree: the pane's own process and its
 * descendants, preferring a process in the terminal's foreground group, then
 * the shallowest.
 */
function findCandidate(
  pane: PaneFacts,
  context: { table: ProcessTable; profiles: readonly AgentProfile[] },
): Candidate | null {
  const root = context.table.byPid.get(pane.panePid);
  const tree = root ? [root, ...descendantsOf(context.table, root.pid)] : [];
  const stickyPid = Number(pane.options["@tma_title_match_pid"] ?? "0");
  const found: Candidate[] = [];
  tree.forEach((process, depth) => {
    for (const profile of context.profiles) {
      const byArgs = argsMatch(profile, process);
      if (!byArgs && !nameMatches(profile, process.comm)) continue;
      const candidate = { profile, process, byArgs, depth };
      if (needsTitle(candidate) && profile.titlePatterns.length > 0) {
        const titled = profile.titlePatterns.some((p) => p.test(pane.title));
        // Stickiness holds the agent the pane was stamped with, not any
        // agent sharing the generic name.
        const sticky = stickyPid === process.pid && pane.options["@agent_name"] === profile.name;
        if (!titled && !sticky) continue;
      } else if (needsTitle(candidate)) {
        continue;
      }
      found.push(candidate);
      break;
    }
  });
  if (found.length === 0) return null;
  found.sort((a, b) => rank(a) - rank(b) || a.depth - b.depth);
  return found[0];
}

function rank(candidate: Candidate): number {
  const p = candidate.process;
  const foreground = p.tpgid > 0 && p.pgid === p.tpgid ? 0 : 1;
  return foreground * 2 + (candidate.byArgs ? 0 : 1);
}

/**
 * The foreground check: the agent's process group owns the terminal (D12,
 * D13). That accepts an agent's own wrapper (Codex's `node` launcher is the
 * group leader of its native child). When `ps` reports no foreground group,
 * the pane's current command decides.
 */
function isForeground(pane: PaneFacts, candidate: Candidate): boolean {
  const p = candidate.process;
  if (p.tpgid > 0) return p.pgid === p.tpgid;
  return nameMatches(candidate.profile, pane.currentCommand) || candidate.byArgs;
}

/** The agent a hook registered on this pane (D30), when its manifest is loaded. */
function registrationOf(pane: PaneFacts, profiles: readonly AgentProfile[]): string | null {
  const name = pane.options["@agent_name"];
  if (!name || pane.options["@agent_pid"] !== "0") return null;
  return profiles.some((p) => p.name === name) ? name : null;
}

/**
 * `tma doctor` as pure functions (C91-C93, U42-U44, P71, P72, M47): the
 * facts a read-only pass gathered go in, the schema-1 diagnosis, its
 * warnings and the human report come out. Nothing here reads a clock or a
 * file; the command gathers the facts and passes the time in.
 * @module
 */
import { formatAge } from "./age.ts";
import { demotionHolds } from "./hook_liveness.ts";
import { isState } from "./state.ts";
import { parseEpochMs } from "./time.ts";
import type { PaneOptions } from "./snapshot.ts";

/** tmux's floor (the guide): older servers are warned about, never counted. */
export const TMUX_FLOOR = [3, 3] as const;

/** The kernel keeps 15 characters of a process name (`comm`): a longer name never matches. */
export const COMM_LIMIT = 15;

/** A last poll younger than this means something drives the status line (U2). */
export const AMBIENT_FRESH_MS = 60_000;

/** `hook_status` of P72. */
export type HookStatus = "wired" | "incomplete" | "not_installed" | "hookless" | "no_adapter";

/** `statusline` of P72 (null for agents without a shim). */
export type StatuslineStatus = "installed" | "opted_out" | "missing" | "clobbered" | "stale";

/** `hook_state` of P71's `tmux_hooks[]`. */
export type TmuxHookState = "present" | "drifted" | "wiped" | "missing";

/** One agent pane as the read-only pass saw it. */
export interface DoctorPaneFacts {
  pane: string;
  agent: string;
  locator: string;
  options: PaneOptions;
  /** install-hooks' verdict on this agent's files. */
  hookStatus: HookStatus;
  /** The agent's shim state, or null for agents without one. */
  statusline: StatuslineStatus | null;
  /** Whether `[telemetry.windows]` names the pane's model; null without a model. */
  windowCovered: boolean | null;
  /** The API endpoint tma would call (OpenCode), or null. */
  endpoint: string | null;
  /** Whether that endpoint answered; null when there is none or the agent has no API lane. */
  endpointOk: boolean | null;
  /** The agent has an HTTP API lane (OpenCode). */
  apiLane: boolean;
  /** Findings the gathering made itself (hooks not yet live, no TMUX_PANE). */
  findings: { text: string; counted: boolean }[];
}

/** Everything `diagnose` reads. */
export interface DoctorFacts {
  nowMs: number;
  tmuxVersion: string;
  daemon: {
    alive: boolean;
    socket: string | null;
    version: string | null;
    /** The live daemon's pid, for the restart a version skew calls for (U14). */
    pid?: number | null;
  };
  tmaVersion: string;
  lastPollMs: number;
  statusRight: string;
  statusOn: boolean;
  mouse: { bindingsInstalled: boolean; enabled: boolean };
  clients: number;
  watchers: number[];
  wrapper: { path: string; present: boolean; tma: string | null };
  notifyLastFailure: string | null;
  /** Per-hook states, or null when the hooks could not be read. */
  tmuxHooks: { hook: string; hook_state: TmuxHookState; detail: string }[] | null;
  manifests: {
    agents: number;
    actions: number;
    skipped: { path: string; error: string }[];
    unknownActionAgents: { action: string; agent: string }[];
  };
  processNames: { agent: string; name: string }[];
  processWalk: { ok: boolean; error: string | null };
  remotePanes: string[];
  nestedPanes: string[];
  ignoredPanes: string[];
  /** Agents whose files carry tma's wiring, complete or not. */
  wiredAgents: string[];
  /** Agents' own gates that keep wired hooks from firing (Codex trust, `[features]`). */
  hookGates: { agent: string; text: string }[];
  panes: DoctorPaneFacts[];
}

/** One finding. `counted` ones make `--exit-code` exit 1 (U44). */
export interface Warning {
  /** The report line's label: `status`, `mouse`, `hooks`, a pane id... */
  topic: string;
  text: string;
  counted: boolean;
}

/** The P72 entry of one agent pane. */
export interface DoctorAgent {
  pane: string;
  agent: string;
  locator: string;
  state: string | null;
  source: string | null;
  evidence_age_ms: number | null;
  hook_status: HookStatus;
  hooks_wired: boolean;
  statusline: StatuslineStatus | null;
  model: string | null;
  window_covered: boolean | null;
  endpoint_ok: boolean | null;
  hook_demoted: boolean;
  tier: 1 | 2 | 3;
  tier_reason: string | null;
}

/** A value of `@agent_*` that does not decode. */
export interface StampIssue {
  pane: string;
  option: string;
  value: string;
}

/** What `diagnose` returns. */
export interface Diagnosis {
  json: Record<string, unknown>;
  agents: DoctorAgent[];
  warnings: Warning[];
  /** Panes below the tier their manifest supports. */
  belowTier: number;
  /** Counted warnings plus `belowTier`. */
  counted: number;
}

const TIME_OPTIONS = [
  "@agent_evidence_at",
  "@agent_since",
  "@agent_stamped_at",
  "@agent_turn_at",
  "@agent_context_at",
  "@agent_tokens_at",
  "@agent_quota_at",
] as const;

/**
 * The `@agent_*` values of one pane that tma would read as absent: a state
 * outside the vocabulary, an unknown source, a time or pid that is no
 * number, an attention flag other than 0/1.
 *
 * ```ts
 * stampIssues("%1", { "@agent_state": "busy" });
 * // [{ pane: "%1", option: "@agent_state", value: "busy" }]
 * ```
 */
export function stampIssues(pane: string, options: PaneOptions): StampIssue[] {
  const issues: StampIssue[] = [];
  const bad = (option: keyof PaneOptions, ok: (value: string) => boolean) => {
    const value = options[option];
    if (value !== undefined && value !== "" && !ok(value)) issues.push({ pane, option, value });
  };
  bad("@agent_state", isState);
  bad("@agent_source", (v) => ["hook", "capture", "process", "activity"].includes(v));
  bad("@agent_pid", (v) => /^\d+$/.test(v));
  bad("@agent_attention", (v) => v === "0" || v === "1");
  for (const name of TIME_OPTIONS) bad(name, (v) => parseEpochMs(v) !== null);
  return issues;
}

/** Whether `version` (`3.3a`, `next-3.5`, `3.4`) is below the 3.3 floor. */
export function belowFloor(version: string): boolean {
  const match = /(\d+)\.(\d+)/.exec(version);
  if (!match) return false;
  const [major, minor] = [Number(match[1]), Number(match[2])];
  return major < TMUX_FLOOR[0] || (major === TMUX_FLOOR[0] && minor < TMUX_FLOOR[1]);
}

/** Whether a `status-right` value runs `tma status` (U2). */
export function statusRunsTma(statusRight: string): boolean {
  return /#\([^)]*\btma\b[^)]*\bstatus\b/.test(statusRight);
}

const TIER1_REASON: Record<Exclude<HookStatus, "wired">, (agent: string) => string> = {
  not_installed: (agent) => `hooks not installed (run tma install-hooks ${agent})`,
  incomplete: (agent) =>
    `hooks incomplete (run tma install-hooks ${agent}; tma install-hooks --check shows what)`,
  hookless: () => "hookless (its manifest declares no [hooks]): screen and process only",
  no_adapter: (agent) => `no adapter (install-hooks cannot wire ${agent}): screen and process only`,
};

/** The tier a manifest supports: 2 for a wireable agent without a daemon, 3 with one. */
function supportedTier(status: HookStatus, daemon: boolean): 1 | 2 | 3 {
  if (status === "hookless" || status === "no_adapter") return 1;
  return daemon ? 3 : 2;
}

/** Why a demoted pane is below its tier (U9). */
const DEMOTED_REASON = "the daemon demoted its hooks: its output moved with no hook event, " +
  "so its screen is read until a hook fires again";

function agentEntry(pane: DoctorPaneFacts, facts: DoctorFacts): DoctorAgent {
  const o = pane.options;
  const evidenceAt = parseEpochMs(o["@agent_evidence_at"]);
  const wired = pane.hookStatus === "wired";
  // The daemon publishes a demotion on the pane (U9); it holds only while one runs.
  const demoted = facts.daemon.alive && demotionHolds(o);
  const tier = !wired || demoted ? 1 : facts.daemon.alive ? 3 : 2;
  return {
    pane: pane.pane,
    agent: pane.agent,
    locator: pane.locator,
    state: isState(o["@agent_state"]) ? o["@agent_state"] : null,
    source: o["@agent_source"] || null,
    evidence_age_ms: evidenceAt === null ? null : Math.max(0, facts.nowMs - evidenceAt),
    hook_status: pane.hookStatus,
    hooks_wired: wired,
    statusline: pane.statusline,
    model: o["@agent_model"] || null,
    window_covered: pane.windowCovered,
    endpoint_ok: pane.endpointOk,
    hook_demoted: demoted,
    tier,
    tier_reason: tier === 3
      ? null
      : tier === 2
      ? "no daemon (hooks are read as each fires; the daemon adds sub-second prompts)"
      : wired
      ? DEMOTED_REASON
      : TIER1_REASON[pane.hookStatus as Exclude<HookStatus, "wired">](pane.agent),
  };
}

/** The warnings and notes of one pane, beyond its tier. */
function paneWarnings(pane: DoctorPaneFacts, entry: DoctorAgent): Warning[] {
  const out: Warning[] = [];
  const warn = (text: string, counted = true) => out.push({ topic: pane.pane, text, counted });
  const fix = `rerun tma install-hooks ${pane.agent}`;
  if (pane.statusline === "missing") {
    warn(`statusline: the ${pane.agent} context shim is missing (${fix}, or --no-statusline)`);
  } else if (pane.statusline === "clobbered") {
    warn(`statusline: statusLine.command was replaced by another tool (${fix} to wrap it)`);
  } else if (pane.statusline === "stale") {
    warn(`statusline: the shim runs another tma binary (${fix})`);
  }
  const pending = pane.options["@agent_permission_request"] ||
    pane.options["@agent_question_request"];
  if (pane.apiLane && pending && pane.endpoint === null) {
    warn(
      `api: a request waits (${pending}) but no endpoint is known: restart ${pane.agent} so ` +
        `its plugin reports one, or set [api.${pane.agent}] api_base in config.toml`,
    );
  } else if (pane.apiLane && pane.endpoint !== null && pane.endpointOk === false) {
    warn(
      `api: ${pane.endpoint} does not answer: approve and deny fall back to keys; check ` +
        `that ${pane.agent} still runs its server there`,
    );
  }
  for (const finding of pane.findings) warn(finding.text, finding.counted);
  if (entry.model !== null && entry.window_covered === false) {
    warn(
      `model: ${entry.model} is not in [telemetry.windows] (add it to config.toml for context %)`,
      false,
    );
  }
  return out;
}

/**
 * Diagnoses: the P71 document, the P72 entries, every warning, and the
 * count `--exit-code` goes by (U44).
 */
export function diagnose(facts: DoctorFacts): Diagnosis {
  const warnings: Warning[] = [];
  const warn = (topic: string, text: string, counted = true) =>
    warnings.push({ topic, text, counted });
  const skewed = facts.daemon.alive && facts.daemon.version !== null &&
    facts.daemon.version !== facts.tmaVersion;
  if (skewed) {
    // U14, U44: a latency cost only (a stale daemon refuses what it cannot map), not counted.
    const pid = facts.daemon.pid ? ` (kill ${facts.daemon.pid})` : "";
    warn(
      "daemon",
      `the daemon runs tma ${facts.daemon.version}, this is tma ${facts.tmaVersion}: restart ` +
        `it to upgrade: stop it${pid}, then tma daemon --ensure (tma reload keeps the old code)`,
      false,
    );
  }
  if (belowFloor(facts.tmuxVersion)) {
    warn("tmux", `tmux ${facts.tmuxVersion} is older than 3.3, the oldest tma supports`, false);
  }
  if (facts.clients === 0 && !facts.daemon.alive) {
    warn(
      "clients",
      "no client is attached and no daemon runs: nothing polls, states go stale " +
        "(attach with tmux attach, or run tma watch somewhere)",
    );
  }
  if (!facts.statusOn) {
    warn("status", "the status line is off (status off): add `set -g status on` to tmux.conf");
  }
  if (facts.mouse.bindingsInstalled && !facts.mouse.enabled) {
    warn(
      "mouse",
      "tma's status-line clicks are bound but mouse is off: add `set -g mouse on` to tmux.conf",
    );
  }
  const anyWired = facts.wiredAgents.length > 0;
  for (const hook of facts.tmuxHooks ?? []) {
    if (hook.hook_state === "present" || !anyWired) continue;
    warn(
      "hooks",
      `${hook.hook} ${hook.hook_state} (${hook.detail}): rerun tma install-hooks --all, or ` +
        "tma install-keys to keep it across restarts",
    );
  }
  for (const gate of facts.hookGates) warn("hooks", `${gate.agent}: ${gate.text}`);
  if (anyWired && !facts.wrapper.present) {
    warn("wrapper", `${facts.wrapper.path} is missing: rerun tma install-hooks --all`);
  } else if (anyWired && facts.wrapper.tma === null) {
    warn(
      "wrapper",
      "tma-hook finds no tma (not beside it, not on PATH, no TMA_BIN): hooks do nothing; " +
        "put tma on PATH or set TMA_BIN in the agents' environment",
    );
  }
  for (const skip of facts.manifests.skipped) {
    warn("manifests", `skipped ${skip.path}: ${skip.error}`);
  }
  for (const bad of facts.manifests.unknownActionAgents) {
    warn("actions", `action ${bad.action} names unknown agent ${bad.agent} (fix its agents list)`);
  }
  for (const long of facts.processNames) {
    warn(
      "procs",
      `${long.agent}: process name "${long.name}" is over ${COMM_LIMIT} characters and never ` +
        `matches (the kernel truncates names): use "${long.name.slice(0, COMM_LIMIT)}" or an ` +
        "args pattern",
    );
  }
  if (!facts.processWalk.ok) {
    warn("procs", `the ps walk failed (${facts.processWalk.error}): agents are not identified`);
  }
  if (facts.notifyLastFailure) {
    warn(
      "notify",
      `the last notification failed: ${facts.notifyLastFailure} (fix [notify] command in ` +
        "config.toml; a passing tma debug notify-test clears this)",
    );
  }
  const stamp_issues = facts.panes.flatMap((p) => stampIssues(p.pane, p.options));
  for (const issue of stamp_issues) {
    warn(
      issue.pane,
      `stamp: ${issue.option} = "${issue.value}" does not decode (the next cycle rewrites it; ` +
        "if it comes back, find what else writes @agent_* options)",
    );
  }
  const agents = facts.panes.map((pane) => agentEntry(pane, facts));
  let belowSupported = 0;
  facts.panes.forEach((pane, i) => {
    const entry = agents[i];
    warnings.push(...paneWarnings(pane, entry));
    if (entry.tier < supportedTier(pane.hookStatus, facts.daemon.alive)) belowSupported++;
  });
  const pollAge = facts.lastPollMs > 0 ? Math.max(0, facts.nowMs - facts.lastPollMs) : null;
  const json = {
    schema: 1,
    daemon: {
      alive: facts.daemon.alive,
      socket: facts.daemon.socket,
      version: facts.daemon.version,
      version_matches: facts.daemon.version === null
        ? null
        : facts.daemon.version === facts.tmaVersion,
    },
    ambient_driver: {
      polling: pollAge !== null && pollAge < AMBIENT_FRESH_MS,
      last_poll_age_ms: pollAge,
    },
    clients: { attached: facts.clients },
    status_option: { enabled: facts.statusOn },
    mouse: { bindings_installed: facts.mouse.bindingsInstalled, enabled: facts.mouse.enabled },
    watch: { running: facts.watchers.length > 0, watchers: facts.watchers.length },
    wrapper: { path: facts.wrapper.path, present: facts.wrapper.present },
    notify: { last_failure: facts.notifyLastFailure },
    tmux_hooks: (facts.tmuxHooks ?? []).map((h) => ({
      hook: h.hook,
      present: h.hook_state === "present",
      hook_state: h.hook_state,
    })),
    manifests: {
      ok: facts.manifests.skipped.length === 0 && facts.manifests.unknownActionAgents.length === 0,
      issues: [
        ...facts.manifests.skipped.map((s) => `${s.path}: ${s.error}`),
        ...facts.manifests.unknownActionAgents.map((a) =>
          `action ${a.action} names unknown agent ${a.agent}`
        ),
      ],
    },
    process_name_issues: facts.processNames.map((p) => ({ agent: p.agent, name: p.name })),
    process_walk: { ok: facts.processWalk.ok, error: facts.processWalk.error },
    nested_multiplexers: facts.nestedPanes,
    remote_panes: facts.remotePanes,
    ignored_panes: facts.ignoredPanes,
    stamp_issues,
    agents,
    actions: {
      loaded: facts.manifests.actions,
      issues: facts.manifests.unknownActionAgents.map((a) =>
        `action ${a.action} names unknown agent ${a.agent}`
      ),
    },
  };
  const counted = warnings.filter((w) => w.counted).length + belowSupported;
  return { json, agents, warnings, belowTier: belowSupported, counted };
}

function count(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

/**
 * The human report (U42): the server lines, the conditional lines, then one
 * block per agent pane.
 */
export function renderDoctor(facts: DoctorFacts, diagnosis: Diagnosis): string {
  const lines: string[] = [];
  const byTopic = (topic: string) => diagnosis.warnings.filter((w) => w.topic === topic);
  const mark = (w: Warning) => (w.counted ? "warning: " : "note: ") + w.text;
  const json = diagnosis.json as {
    ambient_driver: { polling: boolean; last_poll_age_ms: number | null };
  };
  lines.push(
    `tmux: ${facts.tmuxVersion}${belowFloor(facts.tmuxVersion) ? " (below the 3.3 floor)" : ""}`,
  );
  lines.push(
    facts.daemon.alive
      ? `daemon: running (${facts.daemon.socket}, ${facts.daemon.version})`
      : "daemon: no daemon (not counted; every surface works without it)",
  );
  for (const w of byTopic("daemon")) lines.push(`  ${mark(w)}`);
  const age = json.ambient_driver.last_poll_age_ms;
  const driver = statusRunsTma(facts.statusRight)
    ? "status-right runs tma status"
    : "status-right does not run tma status";
  lines.push(
    `ambient: ${driver}; last poll ${age === null ? "never" : `${formatAge(age)} ago`}` +
      (json.ambient_driver.polling || facts.daemon.alive
        ? ""
        : " (nothing polls: add #(tma status) to status-right, or run tma watch)"),
  );
  lines.push(`clients: ${count(facts.clients, "attached client")}`);
  for (const w of byTopic("clients")) lines.push(`  ${mark(w)}`);
  lines.push(
    `watch: ${
      facts.watchers.length === 0
        ? "no watcher running"
        : `${count(facts.watchers.length, "watcher")} (pid ${facts.watchers.join(", ")})`
    }`,
  );
  const hookStates = facts.tmuxHooks === null
    ? "not read"
    : facts.tmuxHooks.map((h) => `${h.hook} ${h.hook_state}`).join(", ") || "none";
  lines.push(`hooks: ${hookStates}`);
  for (const w of byTopic("hooks")) lines.push(`  ${mark(w)}`);
  lines.push(
    `wrapper: ${facts.wrapper.path} ${facts.wrapper.present ? "present" : "absent"}` +
      (facts.wrapper.present
        ? facts.wrapper.tma === null ? ", finds no tma" : `, finds ${facts.wrapper.tma}`
        : ""),
  );
  for (const w of byTopic("wrapper")) lines.push(`  ${mark(w)}`);
  const wired = facts.wiredAgents.length === 0 ? "none wired" : facts.wiredAgents.join(", ");
  lines.push(
    `agents: ${count(facts.manifests.agents, "manifest")} loaded; hooks: ${wired}; ` +
      `${count(facts.panes.length, "agent pane")}`,
  );
  for (const w of byTopic("manifests")) lines.push(`  ${mark(w)}`);
  lines.push(`actions: ${count(facts.manifests.actions, "action")} loaded`);
  for (const w of byTopic("actions")) lines.push(`  ${mark(w)}`);
  for (const topic of ["tmux", "status", "mouse", "notify", "procs"]) {
    for (const w of byTopic(topic)) lines.push(`${topic}: ${mark(w)}`);
  }
  const list = (label: string, panes: string[], why: string) => {
    if (panes.length > 0) lines.push(`${label}: ${panes.join(" ")} (${why}; reported, not warned)`);
  };
  list("remote", facts.remotePanes, "a remote shell in the foreground");
  list("ignored", facts.ignoredPanes, "@agent_ignore is set");
  list("nested", facts.nestedPanes, "a multiplexer inside the pane");
  facts.panes.forEach((pane, i) => {
    const entry = diagnosis.agents[i];
    const stamp = entry.state === null
      ? "unstamped"
      : `${entry.state} (${entry.source ?? "?"}, ${
        entry.evidence_age_ms === null ? "no evidence time" : `${formatAge(entry.evidence_age_ms)}`
      })`;
    lines.push("");
    lines.push(`${pane.pane} ${pane.agent} ${pane.locator}: tier ${entry.tier}, ${stamp}`);
    lines.push(`  hooks: ${entry.hook_status.replace("_", " ")}`);
    if (entry.tier_reason) lines.push(`  not tier ${entry.tier + 1}: ${entry.tier_reason}`);
    if (entry.hook_demoted) {
      lines.push(
        `  demoted: hooks silent while the pane printed; check them with ` +
          `tma install-hooks --check ${pane.agent}`,
      );
    }
    if (entry.statusline !== null) {
      lines.push(`  statusline: ${entry.statusline.replace("_", " ")}`);
    }
    if (entry.model !== null) {
      lines.push(
        `  model: ${entry.model}${entry.window_covered === false ? " (unrecognised)" : ""}`,
      );
    }
    if (pane.apiLane) {
      lines.push(
        `  api: ${
          pane.endpoint === null
            ? "no endpoint"
            : `${pane.endpoint} ${pane.endpointOk ? "answers" : "does not answer"}`
        }`,
      );
    }
    for (const w of byTopic(pane.pane)) lines.push(`  ${mark(w)}`);
  });
  return `${lines.join("\n")}\n`;
}

/** The one-line summary `--exit-code` prints on stderr (C93). */
export function doctorSummary(diagnosis: Diagnosis): string {
  const below = diagnosis.belowTier;
  const warned = diagnosis.warnings.filter((w) => w.counted).length;
  return `tma doctor: ${count(warned, "counted warning")}, ${
    count(below, "pane")
  } below its supported tier`;
}

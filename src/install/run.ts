/**
 * `tma install-hooks`: wires an agent's own config files to tma, checks the
 * wiring, or removes it (C76-C83). Every run plans first (reading only),
 * prints a unified diff of every file it would change and the tmux hooks it
 * would set, asks on a terminal (`--yes` skips the question; a non-terminal
 * without it declines and writes nothing), then writes atomically.
 * @module
 */
import { type TmaError, UsageError } from "../core/errors.ts";
import type { EnvReader } from "../runtime/paths.ts";
import type { TmuxServer } from "../tmux/exec.ts";
import { TmuxNoServerError, TmuxNotInstalledError, TmuxTimeoutError } from "../tmux/errors.ts";
import { clearAgentOptions } from "../tmux/global_hooks.ts";
import {
  type AgentEnv,
  type AgentPlan,
  inspectAgent,
  isWired,
  planInstall,
  planUninstall,
} from "./agent_files.ts";
import { AGENT_NAMES, type AgentName, isAgentName, STATUSLINE_AGENTS } from "./agents.ts";
import {
  applyChange,
  checkWritable,
  describeChange,
  exists,
  type FileChange,
  isChange,
  readOrNull,
} from "./files.ts";
import { InstallError } from "./errors.ts";
import { AGENT_PATHS, describeLeftover, type Leftover, leftoversIn } from "./leftovers.ts";
import { withInstallLock } from "./lock.ts";
import type { Launcher } from "./launcher.ts";
import type { InstallPaths } from "./paths.ts";
import {
  parseStatuslineState,
  renderStatuslineState,
  STATUSLINE_STATE_FILE,
  type StatuslineState,
} from "./statusline_state.ts";
import {
  applyAttentionHooks,
  checkAttentionHooks,
  durableRecipe,
  planAttentionHooks,
  type TmuxPlan,
} from "./focus_hooks.ts";
import { askToApply } from "./ask.ts";
import { readKeysState } from "./keys_run.ts";
import { checkKeys } from "./keys.ts";
import {
  resolveWrapperRef,
  wrapperChange,
  type WrapperRef,
  type WrapperStyle,
  wrapperText,
} from "./wrapper.ts";

/** What the user asked for (flags of C76-C83). */
export interface InstallHooksRequest {
  agent?: string;
  check: boolean;
  uninstall: boolean;
  all: boolean;
  yes: boolean;
  /** `true` for `--statusline`, `false` for `--no-statusline`, else the recorded choice. */
  statusline?: boolean;
  /** `--wrapper-ref`, which beats `[install] wrapper_ref`. */
  wrapperRef?: WrapperStyle;
}

/** What the command runs against; the CLI builds the real one, tests their own. */
export interface InstallHooksDeps {
  paths: InstallPaths;
  launcher: Launcher;
  /** `[install] wrapper_ref` from config.toml. */
  configWrapperRef: WrapperStyle;
  env: EnvReader;
  /** The tmux server the hooks go to. */
  server(): Promise<TmuxServer>;
  out(text: string): void;
  err(text: string): void;
  /** Asks yes/no on a terminal; absent when stdin is not a terminal. */
  confirm?: (question: string) => Promise<boolean>;
  /** `[focus] events`: keep the opt-in `pane-focus-in` hook too (D59). */
  focusEvents?: boolean;
}

/** Exit codes of install-hooks: 0 done or wired, 1 declined, refused or incomplete. */
const OK = 0;
const INCOMPLETE = 1;

function validate(request: InstallHooksRequest): AgentName | undefined {
  const { agent } = request;
  if (agent !== undefined && !isAgentName(agent)) {
    throw new UsageError(`unknown agent "${agent}" (one of ${AGENT_NAMES.join(", ")})`);
  }
  if (request.all && agent !== undefined) {
    throw new UsageError(`--all acts on every wired agent; do not also name one ("${agent}")`);
  }
  if (request.check && request.uninstall) {
    throw new UsageError("--check and --uninstall exclude each other");
  }
  if (!agent && !request.all && !request.check) {
    throw new UsageError(`name an agent (${AGENT_NAMES.join(", ")}), or pass --all or --check`);
  }
  return agent as AgentName | undefined;
}

function agentEnv(deps: InstallHooksDeps, wrapperRef: string): AgentEnv {
  return { paths: deps.paths, wrapperRef, launcher: deps.launcher, read: readOrNull, exists };
}

/**
 * How this run's configs name the wrapper: `--wrapper-ref`, else
 * `[install] wrapper_ref`. `strict` (install) refuses a bare name that PATH
 * does not resolve to the wrapper; check and uninstall only warn.
 */
function wrapperRefOf(
  deps: InstallHooksDeps,
  request: InstallHooksRequest,
  strict: boolean,
): Promise<WrapperRef> {
  return resolveWrapperRef({
    style: request.wrapperRef ?? deps.configWrapperRef,
    wrapperPath: deps.paths.wrapper,
    env: deps.env,
    strict,
  });
}

/** Whether an error only says tmux cannot be reached (absent, no server, too slow). */
function tmuxUnreachable(error: unknown): error is TmaError {
  return error instanceof TmuxNoServerError || error instanceof TmuxNotInstalledError ||
    error instanceof TmuxTimeoutError;
}

async function wiredAgents(env: AgentEnv): Promise<AgentName[]> {
  const wired: AgentName[] = [];
  for (const agent of AGENT_NAMES) if (await isWired(agent, env)) wired.push(agent);
  return wired;
}

/** Reads the tmux plan, or says why the server's hooks are skipped. */
async function tmuxPlan(
  deps: InstallHooksDeps,
  remove: boolean,
): Promise<{ server?: TmuxServer; plan?: TmuxPlan; skipped?: string }> {
  try {
    const server = await deps.server();
    const plan = await planAttentionHooks(server, {
      launcher: deps.launcher,
      configDir: deps.paths.configDir,
      remove,
      focusEvents: deps.focusEvents,
    });
    return { server, plan };
  } catch (error) {
    if (tmuxUnreachable(error)) return { skipped: `tmux hooks skipped: ${error.message}` };
    throw error;
  }
}

/** Prints the plan and asks. Returns whether to go ahead. */
function preview(
  deps: InstallHooksDeps,
  changes: FileChange[],
  tmux: TmuxPlan | undefined,
  yes: boolean,
): Promise<boolean> {
  const steps = (tmux?.steps ?? []).map((step) => `${step.describe}\n`);
  return askToApply(deps, [...changes.map(describeChange), ...steps], yes);
}

function statuslineChoice(
  agent: AgentName,
  request: InstallHooksRequest,
  recorded: StatuslineState,
): boolean {
  if (request.statusline !== undefined) return request.statusline;
  return recorded[agent] !== "opted-out";
}

/** `statusline-state.toml` as it stands: its path, text and parsed choices. */
interface StatusStateFile {
  path: string;
  before: string | null;
  state: StatuslineState;
}

async function readStatusState(deps: InstallHooksDeps): Promise<StatusStateFile> {
  const path = `${deps.paths.configDir}/${STATUSLINE_STATE_FILE}`;
  const before = await readOrNull(path);
  return { path, before, state: parseStatuslineState(before, path) };
}

/** The change `update` makes to the file read once by `readStatusState`. */
function statusStateChange(
  file: StatusStateFile,
  update: (state: StatuslineState) => void,
): { change: FileChange; state: StatuslineState } {
  const state = { ...file.state };
  update(state);
  return {
    change: {
      path: file.path,
      before: file.before,
      after: renderStatuslineState(state),
      backup: false,
    },
    state,
  };
}

async function install(
  deps: InstallHooksDeps,
  request: InstallHooksRequest,
  agents: AgentName[],
): Promise<number> {
  const ref = await wrapperRefOf(deps, request, true);
  for (const warning of ref.warnings) deps.err(`tma: warning: ${warning}\n`);
  const env = agentEnv(deps, ref.ref);
  const stateFile = await readStatusState(deps);
  const recorded = stateFile.state;
  const plans: AgentPlan[] = [];
  for (const agent of agents) {
    plans.push(
      await planInstall(agent, env, { statusline: statuslineChoice(agent, request, recorded) }),
    );
  }
  const record = (state: StatuslineState) => {
    for (const agent of agents) {
      if (!STATUSLINE_AGENTS.includes(agent)) continue;
      state[agent] = statuslineChoice(agent, request, recorded) ? "installed" : "opted-out";
    }
  };
  const { change: stateChange } = statusStateChange(stateFile, record);
  const changes = [
    ...plans.flatMap((p) => p.changes),
    wrapperChange(deps.paths.wrapper, await readOrNull(deps.paths.wrapper)),
    stateChange,
  ].filter(isChange);
  for (const change of changes) await checkWritable(change);
  const tmux = await tmuxPlan(deps, false);
  const notes = plans.flatMap((p) => p.notes);
  if (changes.length === 0 && (tmux.plan?.steps.length ?? 0) === 0) {
    deps.out(`tma: ${agents.join(", ")} already wired; nothing to change\n`);
    // Hooks a tmux.conf recipe re-added are recorded, so a restart reads "wiped".
    if (tmux.server && tmux.plan) {
      await applyAttentionHooks(tmux.server, tmux.plan, {
        launcher: deps.launcher,
        remove: false,
        focusEvents: deps.focusEvents,
      });
    }
  } else {
    if (!(await preview(deps, changes, tmux.plan, request.yes))) return INCOMPLETE;
    const written = await applyLocked(deps, changes, { stateChange, update: record });
    if (tmux.server && tmux.plan) {
      await applyAttentionHooks(tmux.server, tmux.plan, {
        launcher: deps.launcher,
        remove: false,
        focusEvents: deps.focusEvents,
      });
    }
    for (const change of written) deps.out(`tma: wrote ${change.path}\n`);
  }
  await Deno.chmod(deps.paths.wrapper, 0o755).catch(() => undefined);
  if (tmux.skipped) deps.out(`tma: ${tmux.skipped}; the files are installed anyway\n`);
  for (const note of notes) deps.out(`note: ${note}\n`);
  if (!(await keysSourced(deps))) {
    deps.out(
      "note: the tmux attention hooks live in the running server only, so a restarted tmux " +
        "loses them; `tma install-keys` writes them into ~/.config/tma/tmux.conf, which your " +
        "tmux config then sources\n",
    );
  }
  return OK;
}

/** Whether the user's tmux config sources the managed keys file (item 7). */
async function keysSourced(deps: InstallHooksDeps): Promise<boolean> {
  try {
    const { paths, state } = await readKeysState(
      { check: true, uninstall: false, mouse: false, noDaemon: true, yes: false },
      deps.env,
    );
    return state.managed !== null &&
      checkKeys(paths, state, {
        mouse: false,
        daemon: false,
        noDaemon: true,
        focusEvents: deps.focusEvents ?? false,
        launcher: deps.launcher,
      }).sourced;
  } catch {
    return false;
  }
}

async function uninstall(
  deps: InstallHooksDeps,
  request: InstallHooksRequest,
  agents: AgentName[],
): Promise<number> {
  const ref = await wrapperRefOf(deps, request, false);
  const env = agentEnv(deps, ref.ref);
  const plans: AgentPlan[] = [];
  for (const agent of agents) plans.push(await planUninstall(agent, env));
  // An opt-out outlives an uninstall, so a later install still honours it.
  const forget = (state: StatuslineState) => {
    for (const agent of agents) if (state[agent] === "installed") delete state[agent];
  };
  const { change: stateChange } = statusStateChange(await readStatusState(deps), forget);
  const changes = [...plans.flatMap((p) => p.changes), stateChange];
  const left = await leftoversAfter(deps, changes);
  const mine = left.filter((l) => agents.some((a) => AGENT_PATHS[a](deps.paths).includes(l.path)));
  const remaining = (await wiredAgents(env)).filter((a) => !agents.includes(a));
  const last = remaining.length === 0;
  let tmux: Awaited<ReturnType<typeof tmuxPlan>> = {};
  const wrapperNeeded = left.some((l) => l.wrapper);
  if (last) {
    const wrapper = await readOrNull(deps.paths.wrapper);
    // Only the wrapper as this build ships it is removed, and only once no
    // file names it any more; anything else is left.
    if (wrapper !== null && wrapper === wrapperText() && !wrapperNeeded) {
      changes.push({ path: deps.paths.wrapper, before: wrapper, after: null, backup: false });
    }
    tmux = await tmuxPlan(deps, true);
  }
  const real = changes.filter(isChange);
  for (const change of real) await checkWritable(change);
  if (real.length === 0 && (tmux.plan?.steps.length ?? 0) === 0) {
    if (mine.length > 0) return reportLeftovers(deps, mine, wrapperNeeded);
    deps.out(`tma: ${agents.join(", ")} carries no tma wiring; nothing to change\n`);
    return OK;
  }
  if (!(await preview(deps, real, tmux.plan, request.yes))) return INCOMPLETE;
  const written = await applyLocked(deps, real, { stateChange, update: forget });
  for (const change of written) {
    deps.out(`tma: ${change.after === null ? "removed" : "wrote"} ${change.path}\n`);
  }
  if (last && tmux.server && tmux.plan) {
    await applyAttentionHooks(tmux.server, tmux.plan, { launcher: deps.launcher, remove: true });
    const cleared = await clearAgentOptions(tmux.server);
    if (cleared > 0) deps.out(`tma: cleared ${cleared} @agent_* pane options\n`);
    deps.out(
      "tma: no agent is wired any more; if your tmux status-right runs `tma status`, remove it " +
        "from your tmux.conf yourself\n",
    );
  }
  return mine.length > 0 ? reportLeftovers(deps, mine, wrapperNeeded) : OK;
}

/**
 * The lines still reaching tma in every agent's files once `changes` are
 * applied (their `after` text, else the file as it is).
 */
async function leftoversAfter(deps: InstallHooksDeps, changes: FileChange[]): Promise<Leftover[]> {
  const out: Leftover[] = [];
  for (const agent of AGENT_NAMES) {
    for (const path of AGENT_PATHS[agent](deps.paths)) {
      const change = changes.find((c) => c.path === path);
      const text = change ? change.after : await readOrNull(path).catch(() => null);
      if (text !== null) out.push(...leftoversIn(path, text));
    }
  }
  return out;
}

/** Says what uninstall could not remove, and why the wrapper stays. Exit 1. */
function reportLeftovers(deps: InstallHooksDeps, left: Leftover[], wrapperKept: boolean): number {
  deps.err(
    "tma: these lines still run tma, and were changed by hand past what uninstall recognises; " +
      "remove them yourself:\n",
  );
  for (const leftover of left) deps.err(`  ${describeLeftover(leftover)}\n`);
  if (wrapperKept) {
    deps.err(`tma: kept ${deps.paths.wrapper}, which they still call\n`);
  }
  return INCOMPLETE;
}

/**
 * Writes `changes` under the install lock, so two runs at once cannot lose
 * each other's bookkeeping: the statusline state is read again under the lock
 * and `update` applied to what it holds then, and a user file another run
 * changed since it was planned is refused rather than overwritten.
 */
async function applyLocked(
  deps: InstallHooksDeps,
  changes: FileChange[],
  state: { stateChange: FileChange; update: (state: StatuslineState) => void },
): Promise<FileChange[]> {
  return await withInstallLock(deps.paths.configDir, async () => {
    const fresh = statusStateChange(await readStatusState(deps), state.update).change;
    const final = changes.filter((c) => c.path !== state.stateChange.path);
    for (const change of final) {
      if (!change.backup) continue;
      if ((await readOrNull(change.path)) !== change.before) {
        throw new InstallError(
          `${change.path} changed while tma was planning its edit (another install-hooks?); ` +
            "nothing more was written: rerun",
          change.path,
        );
      }
    }
    if (isChange(fresh)) final.push(fresh);
    for (const change of final) await applyChange(change);
    return final;
  });
}

async function check(
  deps: InstallHooksDeps,
  request: InstallHooksRequest,
  named: AgentName | undefined,
): Promise<number> {
  const ref = await wrapperRefOf(deps, request, false);
  const env = agentEnv(deps, ref.ref);
  const recorded = (await readStatusState(deps)).state;
  const agents = named ? [named] : request.all ? await wiredAgents(env) : [...AGENT_NAMES];
  let failed = false;
  let wiredCount = 0;
  for (const warning of ref.warnings) {
    deps.out(`wrapper: ${warning}\n`);
    failed = true;
  }
  const wrapper = await readOrNull(deps.paths.wrapper);
  if (wrapper === null) {
    failed = true;
    deps.out(`wrapper: ${deps.paths.wrapper} is missing\n`);
  } else {
    const executable = ((await Deno.stat(deps.paths.wrapper)).mode ?? 0o755) & 0o111;
    const current = wrapper === wrapperText();
    if (!current || !executable) failed = true;
    deps.out(
      `wrapper: ${deps.paths.wrapper} ${
        !current
          ? "differs from this build's (rerun install-hooks)"
          : !executable
          ? "is not executable"
          : "ok"
      }\n`,
    );
  }
  try {
    const server = await deps.server();
    const hooks = await checkAttentionHooks(server, {
      launcher: deps.launcher,
      configDir: deps.paths.configDir,
      focusEvents: deps.focusEvents,
    });
    for (const hook of hooks) {
      if (hook.status !== "present") failed = true;
      deps.out(`tmux: ${hook.name}: ${hook.status} (${hook.detail})\n`);
    }
    if (hooks.some((hook) => hook.status === "wiped")) {
      deps.out("tmux: to keep the hooks across server restarts, add to your tmux.conf:\n");
      for (const line of durableRecipe(deps.launcher)) deps.out(`  ${line}\n`);
    }
  } catch (error) {
    if (!tmuxUnreachable(error)) throw error;
    deps.out(`tmux: not checked (${error.message})\n`);
  }
  for (const agent of agents) {
    const expect = STATUSLINE_AGENTS.includes(agent)
      ? statuslineChoice(agent, request, recorded)
      : false;
    const result = await inspectAgent(agent, env, {
      statusline: expect,
      recorded: recorded[agent],
    });
    deps.out(`${agent}: ${result.state === "absent" ? "not wired" : result.state}\n`);
    if (result.state !== "absent") { for (const line of result.lines) deps.out(`  ${line}\n`); }
    if (result.state === "wired") wiredCount++;
    if (result.state === "incomplete" || (named && result.state !== "wired")) failed = true;
  }
  if (wiredCount === 0 && !named) {
    failed = true;
    deps.out("no agent is wired (run tma install-hooks AGENT)\n");
  }
  return failed ? INCOMPLETE : OK;
}

/**
 * Runs install-hooks and returns the exit code (0 done/wired, 1 declined,
 * refused or incomplete; usage errors throw `UsageError`, exit 2).
 */
export async function runInstallHooks(
  request: InstallHooksRequest,
  deps: InstallHooksDeps,
): Promise<number> {
  const named = validate(request);
  if (request.check) return await check(deps, request, named);
  let agents: AgentName[];
  if (request.all) {
    agents = await wiredAgents(agentEnv(deps, (await wrapperRefOf(deps, request, false)).ref));
    if (agents.length === 0) {
      deps.out("tma: no agent carries tma wiring; name one (tma install-hooks AGENT)\n");
      return request.uninstall ? OK : INCOMPLETE;
    }
  } else {
    agents = [named!];
  }
  return request.uninstall
    ? await uninstall(deps, request, agents)
    : await install(deps, request, agents);
}

/**
 * `tma doctor` (C91-C93, U42-U44): gathers, without writing anything, what
 * the server, the process table, the manifests and the install bookkeeping
 * say, and hands it to the pure diagnosis in `core/doctor.ts`.
 * @module
 */
import { UsageError } from "../../core/errors.ts";
import {
  COMM_LIMIT,
  diagnose,
  type DoctorFacts,
  type DoctorPaneFacts,
  doctorSummary,
  type HookStatus,
  renderDoctor,
} from "../../core/doctor.ts";
import { identify } from "../../core/identity.ts";
import { indexProcesses, type ProcessInfo } from "../../core/snapshot.ts";
import { recognisedModel } from "../../core/telemetry/model_window.ts";
import { ENGINE_VERSION } from "../../core/version.ts";
import type { Config } from "../../core/config/schema.ts";
import { startSnapshot } from "../../runtime/cycle/snapshot_start.ts";
import { describeFailure, readFailure } from "../../runtime/notify/failure.ts";
import type { LoadedManifests } from "../../runtime/manifest/load.ts";
import type { TmuxServer } from "../../tmux/exec.ts";
import { TmuxNoServerError, TmuxNotInstalledError, TmuxTimeoutError } from "../../tmux/errors.ts";
import { readServerFacts } from "../../tmux/server_facts.ts";
import {
  AGENT_NAMES,
  currentLauncher,
  inspectWiring,
  resolveInstallPaths,
  type WiringView,
} from "../../install/mod.ts";
import { boolFlag, type ParsedArgs, stringFlag } from "../args.ts";
import type { CommandContext } from "../context.ts";

/** Agents with an HTTP API lane whose endpoint doctor probes. */
const API_LANE_AGENTS: ReadonlySet<string> = new Set(["opencode"]);

/** How long an endpoint may take to answer the probe. */
const PROBE_MS = 1000;

/** Whether an endpoint answers an HTTP request at all (any status). */
async function probe(endpoint: string): Promise<boolean> {
  try {
    const response = await fetch(endpoint, { signal: AbortSignal.timeout(PROBE_MS) });
    await response.body?.cancel();
    return true;
  } catch {
    return false;
  }
}

function hookStatusOf(agent: string, manifests: LoadedManifests, wiring: WiringView): HookStatus {
  const manifest = manifests.agents.get(agent);
  if (!manifest?.hooks) return "hookless";
  if (!(AGENT_NAMES as readonly string[]).includes(agent)) return "no_adapter";
  const check = wiring.agents[agent as keyof WiringView["agents"]];
  return check.state === "wired"
    ? "wired"
    : check.state === "incomplete"
    ? "incomplete"
    : "not_installed";
}

/** Whether a process's environment names its tmux pane (Linux `/proc`; unknown elsewhere). */
async function hasTmuxPane(pid: number): Promise<boolean | null> {
  if (pid <= 0) return null;
  try {
    const environ = await Deno.readTextFile(`/proc/${pid}/environ`);
    return environ.split("\0").some((entry) => entry.startsWith("TMUX_PANE="));
  } catch {
    return null;
  }
}

async function gather(
  ctx: CommandContext,
  server: TmuxServer,
  config: Config,
  args: ParsedArgs,
): Promise<DoctorFacts> {
  const tmux = await readServerFacts(server);
  const snapshot = startSnapshot(server); // no poll mark: doctor writes nothing
  const [panes, manifests] = await Promise.all([snapshot.panes, ctx.manifests()]);
  let processes: ProcessInfo[] = [];
  let processWalk: DoctorFacts["processWalk"] = { ok: true, error: null };
  try {
    processes = await snapshot.processes;
  } catch (error) {
    processWalk = { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
  const table = indexProcesses(processes);
  const paths = resolveInstallPaths({
    flags: { "config-dir": stringFlag(args.flags, "config-dir") },
    env: ctx.env,
    execPath: Deno.execPath(),
  });
  const wiring = await inspectWiring({
    paths,
    launcher: currentLauncher(ctx.env),
    env: ctx.env,
    wrapperRef: config.install.wrapper_ref,
    focusEvents: config.focus.events,
    server,
  });
  const profiles = manifests.models.map((m) => m.profile);
  const remotePanes: string[] = [];
  const nestedPanes: string[] = [];
  const ignoredPanes: string[] = [];
  const paneFacts: DoctorPaneFacts[] = [];
  for (const pane of panes) {
    if (pane.dead) continue;
    const identity = identify(pane, { table, profiles });
    if (identity.ignored) ignoredPanes.push(pane.paneId);
    if (identity.outOfScope === "remote") remotePanes.push(pane.paneId);
    if (identity.outOfScope === "nested") nestedPanes.push(pane.paneId);
    if (!identity.agent) continue;
    const agent = identity.agent;
    const hookStatus = hookStatusOf(agent, manifests, wiring);
    const check = wiring.agents[agent as keyof WiringView["agents"]];
    const apiLane = API_LANE_AGENTS.has(agent);
    const endpoint = apiLane
      ? pane.options["@agent_api_endpoint"] || config.api[agent]?.api_base || null
      : null;
    const model = pane.options["@agent_model"];
    const findings: DoctorPaneFacts["findings"] = [];
    paneFacts.push({
      pane: pane.paneId,
      agent,
      locator: pane.locator,
      options: pane.options,
      hookStatus,
      statusline: check?.statusline ?? null,
      windowCovered: model ? recognisedModel(model, config.telemetry.windows) !== null : null,
      endpoint,
      endpointOk: endpoint === null ? null : await probe(endpoint),
      apiLane,
      findings,
    });
    if (hookStatus === "wired" && !pane.options["@tma_hook_at"]) {
      const caveat = agent === "codex"
        ? "Codex runs hooks.json only once trusted: open /hooks in Codex and trust tma's entries"
        : agent === "gemini"
        ? "Gemini loads its settings only in a trusted folder: accept its trust dialog"
        : "the hooks fire on the agent's next event";
      findings.push({
        text: `hooks: wired, but no hook event has reached this pane yet (${caveat})`,
        counted: false,
      });
    }
    if (hookStatus === "wired" && (await hasTmuxPane(identity.pid)) === false) {
      findings.push({
        text: `hooks: ${agent} (pid ${identity.pid}) has no TMUX_PANE in its environment, so ` +
          "its hooks cannot name this pane: start it from a shell inside tmux",
        counted: true,
      });
    }
  }
  const processNames = [...manifests.agents.values()].flatMap((m) =>
    m.identity.process_names.filter((name) => name.length > COMM_LIMIT).map((name) => ({
      agent: m.name,
      name,
    }))
  );
  const unknownActionAgents = [...manifests.actions.entries()].flatMap(([action, m]) =>
    m.agents.filter((agent) => !manifests.agents.has(agent)).map((agent) => ({ action, agent }))
  );
  const alive = new Set(processes.map((p) => p.pid));
  return {
    nowMs: ctx.now(),
    tmuxVersion: tmux.version,
    daemon: await daemonFacts(ctx, server),
    tmaVersion: ENGINE_VERSION,
    lastPollMs: Math.max(0, ...panes.map((p) => p.lastPollMs)),
    statusRight: tmux.statusRight,
    statusOn: tmux.statusOn,
    mouse: { bindingsInstalled: tmux.tmaRootBindings > 0, enabled: tmux.mouseOn },
    clients: tmux.clients,
    watchers: tmux.watchPids.filter((pid) => processes.length === 0 || alive.has(pid)),
    wrapper: wiring.wrapper,
    notifyLastFailure: (() => {
      const failure = readFailure(ctx.env);
      return failure === null ? null : describeFailure(failure);
    })(),
    tmuxHooks: wiring.hooks?.map((h) => ({
      hook: h.name,
      hook_state: h.status,
      detail: h.detail,
    })) ?? null,
    manifests: {
      agents: manifests.agents.size,
      actions: manifests.actions.size,
      skipped: manifests.skipped,
      unknownActionAgents,
    },
    processNames,
    processWalk,
    remotePanes,
    nestedPanes,
    ignoredPanes,
    wiredAgents: AGENT_NAMES.filter((a) => wiring.agents[a].state !== "absent"),
    hookGates: wiring.gates,
    panes: paneFacts,
  };
}

/**
 * This server's daemon as its files say (U3, U14): alive when its socket
 * answers, with the version its lock records. Read without loading the
 * daemon (R13).
 */
async function daemonFacts(
  ctx: CommandContext,
  server: TmuxServer,
): Promise<DoctorFacts["daemon"]> {
  const [{ daemonOf }, { liveDaemon }] = await Promise.all([
    import("../../runtime/daemon_start.ts"),
    import("../../runtime/daemon_link.ts"),
  ]);
  const found = await daemonOf(server, (name) => ctx.env(name)).catch(() => null);
  const live = found === null ? null : await liveDaemon(found.paths);
  if (found === null || live === null) return { alive: false, socket: null, version: null };
  return { alive: true, socket: found.paths.sock, version: live.version || null, pid: live.pid };
}

/** Runs the command. */
export async function run(ctx: CommandContext, args: ParsedArgs): Promise<number> {
  if (args.positionals.length > 0) {
    throw new UsageError(`doctor takes no arguments (got "${args.positionals[0]}")`);
  }
  const config = await ctx.config();
  const server = await ctx.server();
  let facts: DoctorFacts;
  try {
    facts = await gather(ctx, server, config, args);
  } catch (error) {
    // "Doctor against no server says so in one line and exits 1" (C93).
    if (
      error instanceof TmuxNoServerError || error instanceof TmuxTimeoutError ||
      error instanceof TmuxNotInstalledError
    ) {
      ctx.err(`tma: ${error.message}\n`);
      return 1;
    }
    throw error;
  }
  const diagnosis = diagnose(facts);
  if (boolFlag(args.flags, "json")) {
    ctx.out(`${JSON.stringify(diagnosis.json)}\n`);
  } else {
    ctx.out(renderDoctor(facts, diagnosis));
  }
  if (!boolFlag(args.flags, "exit-code")) return 0;
  ctx.err(`${doctorSummary(diagnosis)}\n`);
  return diagnosis.counted > 0 ? 1 : 0;
}

/**
 * The hook intake behind `tma event` (C101): one agent event in, one guarded
 * stamp out. It runs inside the agent's own hook, so it is built to be cheap
 * and harmless: it loads one manifest and a few config keys, makes one
 * `list-panes` and one write (plus one `ps` for Codex), never throws, and
 * prints nothing but Claude's decision object (A25).
 *
 * Concurrency: the pane is read, the stamp decided in TypeScript, and the
 * write committed under a compare-and-swap on `@agent_stamped_at`. When
 * another writer stamped in between, the pane is read again and the stamp
 * re-decided, up to three retries, so racing events resolve by evidence
 * time (D47) rather than by who finished last.
 * @module
 */
import { decisionObject } from "../core/hook/decision.ts";
import type { HookManifest } from "../core/hook/hook_manifest.ts";
import { resolveHookAction } from "../core/hook/mapping.ts";
import { type HookPayload, parsePayload, stringField } from "../core/hook/payload.ts";
import {
  type HookGuard,
  type HookPlan,
  planHookEvent,
  windowRollupWrite,
} from "../core/hook/plan.ts";
import type { HookSettings } from "../core/hook/settings.ts";
import type { AgentProfile } from "../core/identity.ts";
import type { PaneFacts, ProcessTable } from "../core/snapshot.ts";
import type { TmuxServer } from "../tmux/exec.ts";
import { listPanes } from "../tmux/panes.ts";
import { resolveServer } from "../tmux/server.ts";
import { escapeFormat, writeChains } from "../tmux/writer.ts";
import { debugLog } from "./hook_debug.ts";
import { loadFullManifest, loadHookManifest, loadHookSettings } from "./hook_load.ts";
import type { EnvReader } from "./paths.ts";
import { holdForVerdict, mintRequestId, releaseRequest } from "./reply_lane.ts";

/** Retries after a lost compare-and-swap (D47, R12). */
export const STAMP_RETRIES = 3;

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
   * While holding, end the process on SIGTERM, SIGINT or SIGHUP after
   * clearing the held id (an agent that gives up on its hook kills it).
   * Only the `tma event` process sets this.
   */
  exitOnSignal?: boolean;
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
 * const result = await intakeEvent({ server, agent: "claude", kind: "Stop", pane: "%3",
 *   payload, manifest, settings, evidenceAtMs: Date.now(), now: Date.now });
 * ```
 */
export async function intakeEvent(options: IntakeEventOptions): Promise<IntakeResult> {
  const { payload } = options;
  const action = resolveHookAction(options.kind, {
    hooks: options.manifest.hooks,
    raw: payload.raw,
  });
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
  for (let attempt = 0; attempt <= STAMP_RETRIES; attempt++) {
    const panes = await listPanes(options.server);
    let pane: PaneFacts | undefined;
    if (table !== null) {
      const { attributeCodexEvent, codexSessionKey, runsInsidePane } = await import(
        "../core/hook/codex_attribution.ts"
      );
      const processes = await table;
      const reportedPane = paneIdOf(panes, options.pane);
      const reported = panes.find((p) => p.paneId === reportedPane);
      const found = attributeCodexEvent({
        panes,
        table: processes,
        profile: codexProfile(options),
        reportedPane,
        sessionKey: codexSessionKey(payload),
        cwd: stringField(payload.fields, ["cwd"]),
        registration,
        reportedTrusted: reported !== undefined &&
          runsInsidePane(Deno.pid, { table: processes, pane: reported }),
      });
      if (found.pane === null) return { ...result, note: found.reason };
      pane = panes.find((p) => p.paneId === found.pane);
    } else {
      const id = paneIdOf(panes, options.pane);
      pane = panes.find((p) => p.paneId === id);
    }
    if (!pane) return { ...result, note: "no such pane" };
    const plan = planHookEvent({
      agent: options.agent,
      options: pane.options,
      action,
      payload,
      evidenceAtMs: options.evidenceAtMs,
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
    const committed = await writeChains(options.server, [{
      pane: pane.paneId,
      guard: guardFormat(plan.guard),
      writes,
    }]);
    if (committed.get(pane.paneId)) {
      result.committed = true;
      result.note = plan.reason;
      break;
    }
  }
  if (!result.committed) return { ...result, note: result.note || "lost every compare-and-swap" };
  const plan = result.plan;
  if (requestId !== undefined && plan?.kind === "write" && plan.minted && result.pane !== null) {
    const held = { pane: result.pane, requestId };
    const unlisten = options.exitOnSignal ? releaseOnSignal(options.server, held) : () => {};
    try {
      const verdict = await holdForVerdict(options.server, {
        ...held,
        holdMs: options.settings.holdMs,
        now: options.now,
        sleep: options.sleep,
      });
      if (verdict !== null) result.stdout = decisionObject(verdict);
    } finally {
      unlisten();
    }
  }
  return result;
}

const HOLD_SIGNALS: readonly Deno.Signal[] = ["SIGTERM", "SIGINT", "SIGHUP"];

/**
 * Clears the held id and exits 0 when the hook is signalled mid-hold, so a
 * killed hold leaves no id for the broker to offer a verdict to. Returns
 * the function that removes the listeners.
 */
function releaseOnSignal(
  server: TmuxServer,
  held: { pane: string; requestId: string },
): () => void {
  const handler = () => {
    releaseRequest(server, held).catch(() => false).finally(() => Deno.exit(0));
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
  return () => {
    for (const signal of added) Deno.removeSignalListener(signal, handler);
  };
}

/** One process snapshot, indexed; its modules load only on this path. */
async function processTable(): Promise<ProcessTable> {
  const [{ indexProcesses }, { snapshotProcesses }] = await Promise.all([
    import("../core/snapshot.ts"),
    import("../tmux/ps.ts"),
  ]);
  return indexProcesses(await snapshotProcesses());
}

/** The tmux condition of a plan's guard. */
function guardFormat(guard: HookGuard): string {
  return `#{==:#{${guard.option}},${escapeFormat(guard.value)}}`;
}

/** The id of the pane named by an id or a locator, or null. */
function paneIdOf(panes: readonly PaneFacts[], name: string | null): string | null {
  if (!name) return null;
  return panes.find((p) => p.paneId === name || p.locator === name)?.paneId ?? null;
}

/** Codex's identity profile, with `[[agent]]` process names added (D34). */
function codexProfile(options: IntakeEventOptions): AgentProfile {
  const identity = options.manifest.identity;
  const extra = options.settings.agents.find((a) => a.name === options.agent)?.process_names ?? [];
  return {
    name: options.manifest.name,
    processNames: [...identity.process_names, ...extra],
    titlePatterns: identity.title_patterns.map((p) => p.re),
    argsPatterns: identity.args_patterns.map((p) => p.re),
  };
}

/** One `tma event` invocation, as the command line gave it. */
export interface HookEventRequest {
  agent: string | undefined;
  kind: string | undefined;
  /** `--pane`, else `$TMUX_PANE`. */
  pane: string | undefined;
  /** `--payload`: `-` for stdin, a path, or absent for none. */
  payload: string | undefined;
  /** `--print-status` (with `--kind context`): answer with the shim's own line (I7). */
  printStatus?: boolean;
  /** The global flags that select manifests, config and server. */
  globals: {
    manifestDir?: string;
    socketName?: string;
    socketPath?: string;
    config?: string;
    noConfig?: boolean;
  };
  env: EnvReader;
  /** The event's evidence time (the process's start). */
  evidenceAtMs: number;
  now(): number;
  /** Reads stdin for `--payload -`; tests may pass their own. */
  readStdin?: () => Promise<string>;
}

/**
 * Runs one `tma event` end to end and returns what it prints on stdout (only
 * ever Claude's decision object) or null. Never throws: every failure is one
 * line in `TMA_DEBUG_LOG`.
 */
export async function runHookEvent(request: HookEventRequest): Promise<string | null> {
  const label = `tma event ${request.agent ?? "?"} ${request.kind ?? "?"} pane=${
    request.pane ?? "-"
  }`;
  const log = (text: string) => debugLog(request.env, `${label}: ${text}`);
  const skipped: string[] = [];
  try {
    if (!request.agent || !request.kind) {
      await log("needs --agent and --kind");
      return null;
    }
    const rawPayload = await readPayload(request);
    const settings = await loadHookSettings({
      flag: request.globals.config,
      disabled: request.globals.noConfig,
      env: request.env,
    });
    if (settings.problem !== null) {
      await log(`config: ${settings.problem} (defaults, reply lane off)`);
    }
    if (settings.agents.some((a) => a.name === request.agent && !a.enabled)) {
      await log("agent disabled by [[agent]] in config");
      return null;
    }
    const server = resolveServer({
      socketName: request.globals.socketName,
      socketPath: request.globals.socketPath,
      envSocketPath: request.env("TMA_SOCKET_PATH"),
      envBin: request.env("TMA_TMUX_BIN"),
      configBin: settings.tmuxBin,
    });
    const place = {
      manifestDir: request.globals.manifestDir,
      env: request.env,
      onSkip: (problem: string) => skipped.push(problem),
    };
    if (request.kind === "context") {
      const line = await intakeContextEvent({ request, server, place, rawPayload, log });
      for (const problem of skipped) await log(`manifest skipped: ${problem}`);
      return request.printStatus ? line : null;
    }
    const manifest = await loadHookManifest(request.agent, place);
    for (const problem of skipped) await log(`manifest skipped: ${problem}`);
    if (manifest === null) {
      await log("unknown agent");
      return null;
    }
    const payload = parsePayload(rawPayload);
    if (payload === null) {
      await log("payload is not a JSON object");
      return null;
    }
    const result = await intakeEvent({
      server,
      agent: request.agent,
      kind: request.kind,
      pane: request.pane || null,
      payload,
      manifest,
      settings,
      evidenceAtMs: request.evidenceAtMs,
      now: request.now,
      exitOnSignal: true,
    });
    // Every event, stamped or not, with its evidence time: the log is how a
    // lost or reordered event is found (TMA_DEBUG_LOG unset writes nothing).
    await log(
      `${result.committed ? "stamped" : "not stamped"} pane=${result.pane ?? "-"} ` +
        `at=${request.evidenceAtMs}: ${result.note || "nothing to do"}`,
    );
    return result.stdout;
  } catch (error) {
    await log(error instanceof Error ? `${error.name}: ${error.message}` : String(error));
    return null;
  }
}

/**
 * `--kind context`: the telemetry intake reads the payload (I8). Returns the
 * shim's own status line (I7), "" when there is nothing to say; a stamp that
 * fails (no pane, no server) still leaves the line.
 */
async function intakeContextEvent(options: {
  request: HookEventRequest;
  server: TmuxServer;
  place: Parameters<typeof loadFullManifest>[1];
  rawPayload: string;
  log: (text: string) => Promise<void>;
}): Promise<string> {
  const { request } = options;
  const manifest = await loadFullManifest(request.agent!, options.place);
  if (manifest === null) return "";
  const [{ intakeContext }, { statusText }] = await Promise.all([
    import("./telemetry_intake.ts"),
    import("../core/telemetry/status_text.ts"),
  ]);
  let line = "";
  try {
    await intakeContext({
      server: options.server,
      // Outside tmux there is no pane to stamp, but the line is still wanted.
      pane: request.pane || null,
      manifest,
      payload: options.rawPayload,
      nowMs: request.evidenceAtMs,
      onReading: (reading) => line = statusText(reading),
    });
  } catch (error) {
    if (!request.printStatus) throw error;
    await options.log(error instanceof Error ? `${error.name}: ${error.message}` : String(error));
  }
  return line;
}

/** Reads `--payload`: stdin for `-`, a file for a path, nothing when absent. */
async function readPayload(request: HookEventRequest): Promise<string> {
  if (request.payload === undefined || request.payload === "") return "";
  if (request.payload === "-") {
    return await (request.readStdin ?? readStdin)();
  }
  return await Deno.readTextFile(request.payload);
}

/**
 * Reads stdin to its end with plain reads: the web-streams route
 * (`new Response(Deno.stdin.readable)`) costs a hook over 10 ms to set up.
 */
async function readStdin(): Promise<string> {
  const chunks: Uint8Array[] = [];
  let total = 0;
  const buffer = new Uint8Array(64 * 1024);
  for (;;) {
    const n = await Deno.stdin.read(buffer);
    if (n === null) break;
    chunks.push(buffer.slice(0, n));
    total += n;
  }
  const all = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    all.set(chunk, offset);
    offset += chunk.length;
  }
  return new TextDecoder().decode(all);
}

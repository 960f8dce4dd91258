/**
 * `tma event` end to end: the command line's flags, config and payload turned
 * into one call of the hook intake (`intake.ts`), or of the telemetry intake
 * for `--kind context` (C101, R10). It never throws and prints nothing but
 * Claude's decision object (A25) and, for `--print-status`, the statusline
 * shim's own line (I7); every failure is one line in `TMA_DEBUG_LOG`, and with
 * it set every event is logged with its evidence time.
 * @module
 */
import { resolveHookAction } from "../../core/hook/mapping.ts";
import { parsePayload } from "../../core/hook/payload.ts";
import type { ParsedAgentManifest } from "../../core/manifest/parse.ts";
import type { TmuxServer } from "../../tmux/exec.ts";
import { listPanes } from "../../tmux/panes.ts";
import { serverFromGlobals } from "../../tmux/server.ts";
import { type EnvReader, runtimeOwner } from "../paths.ts";
import { ownsItsProcess } from "../../core/hook/owns_process.ts";
import { debugLog } from "./debug_log.ts";
import { notifyAfterCommit, profileLoader } from "./follow_ups.ts";
import type { CommittedStamp } from "./intake.ts";
import { loadFullManifest, loadHookManifest, loadHookSettings } from "./load.ts";

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
  /**
   * The process that fired the hook, when another process than this one
   * (a daemon's direct stamp of an event it refused); else this process.
   */
  hookPid?: number;
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
    const server = serverFromGlobals(request.globals, {
      env: request.env,
      configBin: settings.tmuxBin,
    });
    // G11: TMA_NOTIFY_FROM_EVENT overrides the key (exactly 1 is on). The
    // dispatcher loads only when it is on (U24): no static import here.
    const fromEnv = request.env("TMA_NOTIFY_FROM_EVENT");
    const notify = fromEnv !== undefined ? fromEnv === "1" : settings.notifyFromEvent;
    const configFlags = { flag: request.globals.config, disabled: request.globals.noConfig };
    const place = {
      manifestDir: request.globals.manifestDir,
      env: request.env,
      onSkip: (problem: string) => skipped.push(problem),
    };
    if (request.kind === "context") {
      const { line, manifest } = await intakeContextEvent({
        request,
        server,
        place,
        rawPayload,
        log,
      });
      for (const problem of skipped) await log(`manifest skipped: ${problem}`);
      if (notify && manifest !== null && request.pane) {
        const { fireContextFromEvent } = await import("../notify/from_event.ts");
        await fireContextFromEvent({
          server,
          env: request.env,
          config: configFlags,
          pane: request.pane,
          manifest,
          now: request.now,
        });
      }
      return request.printStatus ? line : null;
    }
    if (await daemonTook(request, server, rawPayload, log)) return null;
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
    const action = resolveHookAction(request.kind, { hooks: manifest.hooks, raw: payload.raw });
    if (action === null) {
      // The same line the intake's result would log, without spawning tmux.
      await log(`not stamped pane=- at=${request.evidenceAtMs}: unmapped event`);
      return null;
    }
    // The listing is spawned before the intake's modules load (D64): tmux
    // answers while they do. A failure surfaces where the intake awaits it.
    const listing = listPanes(server);
    listing.catch(() => undefined);
    const { intakeEvent } = await import("./intake.ts");
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
      hookPid: request.hookPid,
      exitOnSignal: true,
      action,
      listing,
      afterCommit: notify
        ? ((after) => (committed: CommittedStamp) => after(committed, payload))(
          notifyAfterCommit({
            server,
            env: request.env,
            config: configFlags,
            now: request.now,
            log,
          }),
        )
        : undefined,
      profileOf: profileLoader((agent) => loadHookManifest(agent, place)),
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
 * The daemon lane (U10, D48): with a live daemon on this server the raw event
 * is handed over, and only its ACK spares the direct stamp. With none, any
 * events a dead daemon left in its spool are stamped first, oldest first,
 * so a daemon's death loses nothing (R13). When no daemon or drainer ever
 * ran, both cost one failed stat and load none of the daemon's client code.
 */
async function daemonTook(
  request: HookEventRequest,
  server: TmuxServer,
  rawPayload: string,
  log: (text: string) => Promise<void>,
): Promise<boolean> {
  const event = {
    agent: request.agent!,
    kind: request.kind!,
    pane: request.pane || null,
    firedAt: request.evidenceAtMs,
    payload: rawPayload,
    hookPid: request.hookPid ?? Deno.pid,
  };
  if (request.env("TMA_NO_DAEMON") || ownsItsProcess(event)) return false;
  // No runtime folder, no daemon and no spool: the client code is not loaded.
  const owner = runtimeOwner(request.env);
  if (owner === null) return false;
  const { daemonPaths, handOffEvent, socketPathOf } = await import("../daemon_link.ts");
  const socketPath = socketPathOf(server, request.env, owner);
  if (socketPath === null) return false;
  const paths = daemonPaths(request.env, socketPath);
  if (await handOffEvent(paths, event)) {
    await log(`handed to the daemon at=${request.evidenceAtMs}`);
    return true;
  }
  const { pendingEntries } = await import("../spool.ts");
  if ((await pendingEntries(paths.spool)).length > 0) {
    await replaySpool(request, server, paths.spool, log);
  }
  return false;
}

/** Stamps what a dead daemon or drainer left queued, through the same pass (R2, R13). */
async function replaySpool(
  request: HookEventRequest,
  server: TmuxServer,
  spool: string,
  log: (text: string) => Promise<void>,
): Promise<void> {
  const [{ drainOnce }, settings] = await Promise.all([
    import("./drain.ts"),
    loadHookSettings({
      flag: request.globals.config,
      disabled: request.globals.noConfig,
      env: request.env,
    }),
  ]);
  const place = { manifestDir: request.globals.manifestDir, env: request.env };
  await drainOnce(spool, {
    server,
    settings,
    manifestOf: (agent) => loadHookManifest(agent, place),
    fullManifestOf: (agent) => loadFullManifest(agent, place),
    now: request.now,
    log: (line) => log(`replayed: ${line}`),
  });
}

/**
 * `--kind context`: the telemetry intake reads the payload (I8). Returns the
 * shim's own status line (I7), "" when there is nothing to say (a stamp that
 * fails, no pane, no server, still leaves the line), and the manifest it
 * read, for the `context_high` check.
 */
async function intakeContextEvent(options: {
  request: HookEventRequest;
  server: TmuxServer;
  place: Parameters<typeof loadFullManifest>[1];
  rawPayload: string;
  log: (text: string) => Promise<void>;
}): Promise<{ line: string; manifest: ParsedAgentManifest | null }> {
  const { request } = options;
  const manifest = await loadFullManifest(request.agent!, options.place);
  if (manifest === null) return { line: "", manifest: null };
  const [{ intakeContext }, { statusText }] = await Promise.all([
    import("../telemetry/intake.ts"),
    import("../../core/telemetry/status_text.ts"),
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
  return { line, manifest };
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

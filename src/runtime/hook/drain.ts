/**
 * Draining the spool (X10): the events the `tma-hook` wrapper queued and
 * returned from at once, stamped in the order they fired. One pass
 * (`drainOnce`) is shared by the daemon, the server's drainer and a direct
 * `tma event` that finds entries a dead drainer left, so the stamps cannot
 * tell which path delivered them.
 *
 * The drainer (`tma event --drain`, started detached by the wrapper) is one
 * process per tmux server at a time, so a burst of fires costs one Deno
 * start, not one per fire. The claim file `<key>.drain` holds its pid:
 *
 * - the wrapper writes its entry, then reads the claim; a live pid means a
 *   drainer will see the entry, and the wrapper returns; otherwise it
 *   creates the claim exclusively (`set -C`) and starts one;
 * - the drainer, once the spool stays empty for {@link LINGER_MS}, removes
 *   its claim and only then looks at the spool once more: an entry written
 *   meanwhile either saw the claim (and this look finds it, so the drainer
 *   claims again and goes on) or did not (and its wrapper started a new
 *   drainer). Either way no entry waits for a fire that may never come.
 * @module
 */
import type { RawEvent } from "../../core/daemon_wire.ts";
import type { HookManifest } from "../../core/hook/hook_manifest.ts";
import type { ParsedAgentManifest } from "../../core/manifest/parse.ts";
import type { TmuxServer } from "../../tmux/exec.ts";
import { type DaemonPaths, daemonPaths } from "../daemon_link.ts";
import type { EnvReader } from "../paths.ts";
import { processAlive } from "../process_alive.ts";
import { claimEntries, coalesce, pendingEntries, release } from "../spool.ts";
import { debugLog } from "./debug_log.ts";
import { notifyAfterCommit, profileLoader } from "./follow_ups.ts";
import { type IngestContext, ingestRawEvent } from "./ingest.ts";
import { loadFullManifest, loadHookManifest, loadHookSettings } from "./load.ts";

/** How long the drainer waits for more entries once the spool is empty (bursts stay one process). */
export const LINGER_MS = 5000;

/** How soon an entry still being written is looked at again. */
const BUSY_RETRY_MS = 5;

/** What one pass did. */
export interface DrainPass {
  /** Events taken (stamped or not). */
  taken: number;
  /** Entries left because their writer still writes. */
  busy: number;
  /** Entries another drainer took first, or that cannot be taken. */
  untaken: string[];
  /** Panes a hook event stamped. */
  touched: Set<string>;
  /** Panes an event came from, stamped or not (hook liveness, U9). */
  heard: Set<string>;
  /** Events the intake refused (D48): the daemon stamps them directly. */
  refused: RawEvent[];
}

/**
 * Claims every finished entry, folds bursts, ingests oldest first and
 * releases each entry once its event is through. `log` hears one line per
 * event and per refused entry.
 */
export async function drainOnce(
  spool: string,
  context: IngestContext & { log(line: string): void | Promise<void> },
): Promise<DrainPass> {
  const pass: DrainPass = {
    taken: 0,
    busy: 0,
    untaken: [],
    touched: new Set(),
    heard: new Set(),
    refused: [],
  };
  const { items, busy, untaken } = await claimEntries(spool);
  pass.busy = busy;
  pass.untaken = untaken;
  const events: RawEvent[] = [];
  for (const item of items) {
    if (item.event === null) {
      await context.log(`spool entry ${item.name} refused: ${item.problem}`);
    } else {
      events.push(item.event);
    }
  }
  for (const event of coalesce(events)) {
    pass.taken++;
    const label = `queued ${event.agent} ${event.kind} pane=${event.pane ?? "-"} ` +
      `at=${event.firedAt}`;
    try {
      const got = await ingestRawEvent(event, context);
      if (!got.taken) pass.refused.push(event);
      else if (got.result?.committed && got.result.pane) pass.touched.add(got.result.pane);
      const pane = (got.taken ? got.result?.pane : null) ?? event.pane;
      if (pane) pass.heard.add(pane);
      await context.log(`${label}: ${got.reason || "nothing to do"}`);
    } catch (error) {
      await context.log(`${label}: ${error instanceof Error ? error.message : error}`);
    }
  }
  for (const item of items) if (item.event !== null) await release(item.claimed);
  return pass;
}

/** What the drainer runs with. */
export interface DrainerOptions {
  server: TmuxServer;
  /** The server's socket path, as the wrapper named it: the spool's key. */
  socketPath: string;
  env: EnvReader;
  globals: { config?: string; noConfig?: boolean; manifestDir?: string };
  now(): number;
  /** How long to wait for more once the spool is empty; {@link LINGER_MS} by default. */
  lingerMs?: number;
}

/**
 * The drainer's whole life: drain until the spool stays empty, then give
 * up the claim as the module notes say. Never throws: a hook's work must
 * never fail loudly, and its failures go to `TMA_DEBUG_LOG`.
 */
export async function runDrainer(options: DrainerOptions): Promise<void> {
  const paths = daemonPaths(options.env, options.socketPath);
  const log = (line: string) => debugLog(options.env, `tma event --drain: ${line}`);
  try {
    await writeAlias(paths);
    let context = await drainContext(options, log);
    for (;;) {
      const pass = await drainOnce(paths.spool, context);
      if (pass.busy > 0) {
        await pause(BUSY_RETRY_MS);
        continue;
      }
      if (pass.taken > 0) continue;
      // An entry this drainer cannot take never counts as one to wait for.
      const stuck = new Set(pass.untaken);
      if (await arrival(paths.spool, options.lingerMs ?? LINGER_MS, stuck)) {
        // After a quiet spell, config and manifests are read afresh (a burst keeps its set).
        context = await drainContext(options, log);
        continue;
      }
      await giveUpClaim(paths);
      if ((await pendingEntries(paths.spool)).every((name) => stuck.has(name))) return;
      if (!(await takeClaim(paths))) return;
    }
  } catch (error) {
    await log(error instanceof Error ? `${error.name}: ${error.message}` : String(error));
    await giveUpClaim(paths).catch(() => undefined);
  }
}

/** The ingest context of a drainer: config and manifests loaded once, notifications as `tma event`'s. */
async function drainContext(
  options: DrainerOptions,
  log: (line: string) => Promise<void>,
): Promise<IngestContext & { log(line: string): Promise<void> }> {
  const { env, globals } = options;
  const settings = await loadHookSettings({
    flag: globals.config,
    disabled: globals.noConfig,
    env,
  });
  if (settings.problem !== null) await log(`config: ${settings.problem} (defaults)`);
  const place = {
    manifestDir: globals.manifestDir,
    env,
    onSkip: (problem: string) => void log(`manifest skipped: ${problem}`),
  };
  const hooks = new Map<string, Promise<HookManifest | null>>();
  const full = new Map<string, Promise<ParsedAgentManifest | null>>();
  const once = <T>(cache: Map<string, Promise<T>>, agent: string, load: () => Promise<T>) => {
    if (!cache.has(agent)) cache.set(agent, load());
    return cache.get(agent)!;
  };
  const manifestOf = (agent: string) => once(hooks, agent, () => loadHookManifest(agent, place));
  const fromEnv = env("TMA_NOTIFY_FROM_EVENT");
  const notify = fromEnv !== undefined ? fromEnv === "1" : settings.notifyFromEvent;
  const config = { flag: globals.config, disabled: globals.noConfig };
  return {
    server: options.server,
    settings,
    manifestOf,
    fullManifestOf: (agent) => once(full, agent, () => loadFullManifest(agent, place)),
    profileOf: profileLoader(manifestOf),
    now: options.now,
    log,
    afterCommit: notify
      ? notifyAfterCommit({ server: options.server, env, config, now: options.now, log })
      : undefined,
    afterContext: notify
      ? async (pane, manifest) => {
        const { fireContextFromEvent } = await import("../notify/from_event.ts");
        await fireContextFromEvent({
          server: options.server,
          env,
          config,
          pane,
          manifest,
          now: options.now,
        });
      }
      : undefined,
  };
}

/**
 * Waits up to `ms` for an entry other than `stuck` to arrive; true when one
 * did. The folder is watched (inotify, kqueue), so an entry is seen at
 * once; where it cannot be watched it is looked at every 50 ms.
 */
async function arrival(spool: string, ms: number, stuck: ReadonlySet<string>): Promise<boolean> {
  const waiting = async () => (await pendingEntries(spool)).some((name) => !stuck.has(name));
  if (await waiting()) return true;
  let watcher: Deno.FsWatcher | null = null;
  try {
    watcher = Deno.watchFs(spool, { recursive: false });
  } catch {
    watcher = null;
  }
  const deadline = AbortSignal.timeout(ms);
  try {
    if (watcher === null) {
      while (!deadline.aborted) {
        await pause(50);
        if (await waiting()) return true;
      }
      return false;
    }
    const expired = new Promise<false>((resolve) => {
      deadline.addEventListener("abort", () => resolve(false), { once: true });
    });
    const iterator = watcher[Symbol.asyncIterator]();
    // An entry written between the look above and the watch's start is caught here.
    if (await waiting()) return true;
    for (;;) {
      const next = await Promise.race([iterator.next(), expired]);
      if (next === false || next.done) return false;
      if (next.value.paths.some((p) => p.endsWith(".ev"))) return true;
    }
  } finally {
    try {
      watcher?.close();
    } catch {
      // Closed already.
    }
  }
}

/** The claim file of a server's drainer. */
export function claimPath(paths: DaemonPaths): string {
  return `${paths.dir}/${paths.key}.drain`;
}

/** Removes the claim when it names this process or one that is gone (never a live other's). */
async function giveUpClaim(paths: DaemonPaths): Promise<void> {
  const path = claimPath(paths);
  const text = await Deno.readTextFile(path).catch(() => null);
  if (text === null) return;
  const pid = Number(text.trim());
  if (pid === Deno.pid || !Number.isSafeInteger(pid) || pid <= 0 || !processAlive(pid)) {
    await Deno.remove(path).catch(() => undefined);
  }
}

/** Creates the claim exclusively with this pid; false when another holds it. */
async function takeClaim(paths: DaemonPaths): Promise<boolean> {
  try {
    await Deno.writeTextFile(claimPath(paths), `${Deno.pid}\n`, { createNew: true, mode: 0o600 });
    return true;
  } catch {
    return false;
  }
}

/**
 * Writes `<escaped socket path>.key` when it is missing, so the next fire
 * reads the server key instead of running `cksum` (renamed into place: a
 * wrapper never reads half a key).
 */
export async function writeAlias(paths: DaemonPaths): Promise<void> {
  try {
    if ((await Deno.readTextFile(paths.alias)).trim() === paths.key) return;
  } catch {
    // Missing: written below.
  }
  const temp = `${paths.alias}.${Deno.pid}.tmp`;
  try {
    await Deno.writeTextFile(temp, `${paths.key}\n`, { mode: 0o600 });
    await Deno.rename(temp, paths.alias);
  } catch {
    await Deno.remove(temp).catch(() => undefined);
  }
}

/** Waits without `setTimeout` (its first use loads Deno's Node timers layer). */
function pause(ms: number): Promise<void> {
  return new Promise((resolve) => {
    AbortSignal.timeout(ms).addEventListener("abort", () => resolve(), { once: true });
  });
}

/**
 * The background refresher behind `tma status --all-hosts` (X9): a status
 * line polls often and must never wait on the network, so a poll reads the
 * cached tracks and makes sure one refresher runs; the refresher reads every
 * host each `[fleet] refresh_secs` and writes the tracks into the local
 * server's options, for as long as polls keep coming.
 *
 * - At most one refresher at a time, per local server and host set: it holds
 *   an exclusive `flock` on `$XDG_RUNTIME_DIR/tma/fleet-<key>.lock` (the
 *   kernel drops it when the process dies, so no stale lock survives it). A
 *   poll that can take the lock knows none runs, drops it and starts one; a
 *   second refresher started by a racing poll fails to take it and exits.
 * - The lease: every poll touches the lock file; a refresher whose lock file
 *   was not touched for the lease (no status line is polling any more)
 *   exits, and so does one whose local server is gone.
 * @module
 */
import { hostKey, type HostSpec } from "../../core/fleet/hosts.ts";
import { viewportHash } from "../../core/hash.ts";
import type { TmuxServer } from "../../tmux/exec.ts";
import { serverArgs } from "../../tmux/exec.ts";
import { runtimeDir } from "../daemon_link.ts";
import type { EnvReader } from "../paths.ts";
import { readCachedTracks, writeCachedTracks } from "./cache.ts";
import { FleetPoller } from "./fetch.ts";

/** How long a refresher outlives the last poll: at least two minutes, or four refreshes. */
export function leaseMs(refreshMs: number): number {
  return Math.max(120_000, 4 * refreshMs);
}

/** The lock file of the refresher of this server and these hosts. */
export function refresherLockPath(
  env: EnvReader,
  server: TmuxServer,
  specs: readonly HostSpec[],
): string {
  const key = viewportHash(JSON.stringify([serverArgs(server), specs.map(hostKey)]));
  return `${runtimeDir(env).replace(/\/+$/, "")}/tma/fleet-${key}.lock`;
}

/** Opens (creating) the lock file in a 0700 folder. */
function openLock(path: string): Deno.FsFile {
  const dir = path.slice(0, path.lastIndexOf("/"));
  Deno.mkdirSync(dir, { recursive: true, mode: 0o700 });
  return Deno.openSync(path, { read: true, write: true, create: true, mode: 0o600 });
}

/**
 * A poll's part (synchronous, a few system calls): renews the lease and
 * says whether a refresher must be started (none holds the lock).
 */
export function renewLease(path: string, nowMs: number): boolean {
  const file = openLock(path);
  try {
    const at = new Date(nowMs);
    Deno.utimeSync(path, at, at);
    const free = file.tryLockSync(true);
    if (free) file.unlockSync();
    return free;
  } finally {
    file.close();
  }
}

/** Starts `argv` detached from this process, its output discarded. */
export function startDetached(argv: readonly string[]): void {
  const [program, ...args] = argv;
  const child = new Deno.Command(program, {
    args,
    stdin: "null",
    stdout: "null",
    stderr: Deno.env.get("TMA_DBG") ? "inherit" : "null",
    detached: true,
  }).spawn();
  child.unref();
}

/** What a refresher runs with. */
export interface RefresherOptions {
  server: TmuxServer;
  specs: readonly HostSpec[];
  lockPath: string;
  refreshMs: number;
  now(): number;
  /** Sleeps `ms` (a test shortens it). */
  sleep?(ms: number): Promise<void>;
}

const sleepFor = (ms: number) =>
  new Promise<void>((resolve) =>
    AbortSignal.timeout(Math.max(0, ms)).addEventListener("abort", () => resolve())
  );

/**
 * Runs the refresher until its lease lapses or its server goes; returns at
 * once when another refresher holds the lock.
 */
export async function runRefresher(options: RefresherOptions): Promise<"held" | "done"> {
  const file = openLock(options.lockPath);
  try {
    if (!(await file.tryLock(true))) return "held";
    const sleep = options.sleep ?? sleepFor;
    const poller = new FleetPoller({
      specs: options.specs,
      now: options.now,
      tracks: await readCachedTracks(options.server, options.specs),
    });
    for (;;) {
      const tick = options.now();
      const touched = Deno.statSync(options.lockPath).mtime?.getTime() ?? 0;
      if (tick - touched > leaseMs(options.refreshMs)) return "done";
      poller.kick();
      // A host still busy at the next tick is skipped then, never queued.
      await poller.settled(options.refreshMs);
      if (!(await writeCachedTracks(options.server, poller.tracks()))) return "done";
      await sleep(tick + options.refreshMs - options.now());
    }
  } finally {
    file.close();
  }
}

/**
 * Detached exec (A23, A24, C103): an exec action with `detach = true` runs
 * under `tma supervise`, a tma of its own that outlives `tma act`.
 *
 * The broker, holding the pane's lock, starts the supervisor in a new
 * session with null stdio and the same server, config and manifest flags it
 * was started with (C9), hands it the job in one environment variable
 * (which only this user can read, unlike the argv `ps` shows everyone), and
 * returns `spawned`; a supervisor that cannot start leaves nothing held.
 * The supervisor starts `sh -c <command>` as the leader of a process group
 * of its own, rewrites the lock with its own pid while the lock still
 * carries the broker's nonce, kills the whole group at `detach_timeout_ms`
 * of wall-clock time (a suspended laptop does not stretch the deadline),
 * releases the lock and fires the completion notification once (P70). It
 * writes no log file: the completion and the audit log say what happened.
 *
 * ```ts
 * import { defaultConfig } from "../core/config/schema.ts";
 * declare const spec: SupervisorSpec;
 * const payload = await supervise(spec, {
 *   server: { bin: "tmux", socketName: "work" }, config: defaultConfig(),
 *   env: (name) => Deno.env.get(name), now: Date.now,
 * });
 * payload.outcome; // "exited", "timeout" or "error"
 * ```
 * @module
 */
import {
  type CompletionOutcome,
  type CompletionPayload,
  completionPayload,
} from "../core/action/completion.ts";
import type { Config } from "../core/config/schema.ts";
import { z } from "../deps/zod.ts";
import type { TmuxServer } from "../tmux/exec.ts";
import { listPane } from "../tmux/panes.ts";
import type { EnvReader } from "../runtime/paths.ts";
import { childEnv, KILL_GRACE_MS } from "./exec.ts";
import { adoptLock, LOCK_SLACK_MS, lockCarries, releaseLock } from "./lock.ts";

/** The environment variable that carries a supervisor's job. */
export const SUPERVISE_ENV = "TMA_SUPERVISE";

/** How often the supervisor reads the wall clock while its child runs. */
const CLOCK_TICK_MS = 1000;

/** The job the broker hands its supervisor. */
export const supervisorSpecSchema = z.strictObject({
  action: z.string().min(1),
  pane: z.string().min(1),
  agent: z.string(),
  /** The nonce of the lock the broker took for this firing. */
  nonce: z.string().min(1),
  command: z.string().min(1),
  /** `detach_timeout_ms` (M40). */
  timeout_ms: z.int().min(1),
  /** The child's `TMA_*` context (A22). */
  context: z.record(z.string(), z.string()),
});

/** A supervisor's job. */
export type SupervisorSpec = z.infer<typeof supervisorSpecSchema>;

/**
 * Reads a job from its environment variable: the job, or the reason (a
 * string) when it is absent or malformed.
 */
export function parseSpec(text: string | undefined): SupervisorSpec | string {
  if (text === undefined || text === "") return `${SUPERVISE_ENV} is not set`;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return `${SUPERVISE_ENV} is not JSON`;
  }
  const parsed = supervisorSpecSchema.safeParse(value);
  return parsed.success ? parsed.data : `${SUPERVISE_ENV} is not a supervisor job`;
}

/** How to start the supervisor. */
export interface SupervisorLaunch {
  /** The program and its arguments up to the subcommand: tma and its global flags (C9). */
  argv: readonly string[];
  /** The environment to hand on (tma's own). */
  inherited: Record<string, string>;
}

/**
 * Starts `tma … supervise` in a new session with null stdio and returns its
 * pid; throws when it cannot be started (the caller releases the lock).
 */
export function startSupervisor(launch: SupervisorLaunch, spec: SupervisorSpec): number {
  const [program, ...args] = launch.argv;
  const env = { ...launch.inherited, [SUPERVISE_ENV]: JSON.stringify(spec) };
  const child = new Deno.Command(program, {
    args: [...args, "supervise"],
    env,
    clearEnv: true,
    stdin: "null",
    stdout: "null",
    stderr: "null",
    // setsid: no terminal, no signal from the shell that ran `tma act`.
    detached: true,
  }).spawn();
  child.unref();
  child.status.catch(() => undefined);
  return child.pid;
}

/** What the supervisor runs with. */
export interface SuperviseContext {
  server: TmuxServer;
  config: Config;
  env: EnvReader;
  /** The wall clock, epoch ms. */
  now(): number;
  /** The environment the child inherits (the job's variable already removed). */
  inherited?: Record<string, string>;
  /** Fires the completion; `fireCompletion` by default (a seam for tests). */
  notify?(payload: CompletionPayload, tty: string | null): Promise<void>;
}

/** How the child ended. */
interface Ended {
  outcome: CompletionOutcome;
  exitCode: number | null;
}

function killGroup(pid: number, signal: Deno.Signal): void {
  try {
    Deno.kill(-pid, signal);
  } catch {
    // The group is gone.
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));
}

/**
 * Waits for the child against a wall-clock deadline: the clock is read
 * again at least every second, so time spent suspended counts. At the
 * deadline the whole group gets SIGTERM, then SIGKILL after a grace.
 */
async function waitWithDeadline(
  child: Deno.ChildProcess,
  deadlineMs: number,
  now: () => number,
): Promise<Ended> {
  let finished = false;
  const status = child.status.then((s) => {
    finished = true;
    return s;
  });
  while (!finished) {
    const left = deadlineMs - now();
    if (left <= 0) break;
    await Promise.race([status, sleep(Math.min(left, CLOCK_TICK_MS))]);
  }
  if (finished) return { outcome: "exited", exitCode: (await status).code };
  killGroup(child.pid, "SIGTERM");
  const grace = setTimeout(() => killGroup(child.pid, "SIGKILL"), KILL_GRACE_MS);
  await status;
  clearTimeout(grace);
  // The leader may die of SIGTERM while a member ignores it.
  killGroup(child.pid, "SIGKILL");
  return { outcome: "timeout", exitCode: null };
}

/** Starts the command as the leader of its own process group; null when it cannot start. */
function startChild(spec: SupervisorSpec, inherited: Record<string, string>) {
  try {
    return new Deno.Command("sh", {
      args: ["-c", spec.command],
      env: childEnv(inherited, spec.context),
      clearEnv: true,
      stdin: "null",
      stdout: "null",
      stderr: "null",
      // A new session: the child leads a process group the deadline kills whole.
      detached: true,
    }).spawn();
  } catch {
    return null;
  }
}

/**
 * The supervisor's whole run (C103): the child, the lock, the deadline, the
 * release and the completion. Resolves with the payload it fired.
 */
export async function supervise(
  spec: SupervisorSpec,
  context: SuperviseContext,
): Promise<CompletionPayload> {
  const inherited = { ...(context.inherited ?? Deno.env.toObject()) };
  delete inherited[SUPERVISE_ENV];
  const child = startChild(spec, inherited);
  let ended: Ended = { outcome: "error", exitCode: null };
  if (child !== null) {
    const deadline = context.now() + spec.timeout_ms;
    await adoptLock(context.server, {
      pane: spec.pane,
      nonce: spec.nonce,
      expiryMs: deadline + KILL_GRACE_MS + LOCK_SLACK_MS,
    }).catch(() => null);
    // A supervisor told to stop takes its child's group down with it.
    const onSignal = () => killGroup(child.pid, "SIGTERM");
    const signals: Deno.Signal[] = ["SIGINT", "SIGTERM", "SIGHUP"];
    for (const signal of signals) Deno.addSignalListener(signal, onSignal);
    try {
      ended = await waitWithDeadline(child, deadline, context.now);
    } finally {
      for (const signal of signals) Deno.removeSignalListener(signal, onSignal);
    }
  }
  const lockReleaseFailed = !await release(context.server, spec);
  const pane = await listPane(context.server, spec.pane).catch(() => null);
  const payload = completionPayload({
    action: spec.action,
    pane: spec.pane,
    agent: spec.agent,
    outcome: ended.outcome,
    exitCode: ended.exitCode,
    locator: pane?.locator ?? null,
    lockReleaseFailed,
  });
  const tty = pane?.tty || null;
  if (context.notify) {
    await context.notify(payload, tty);
  } else {
    const { fireCompletion } = await import("../runtime/notify/completion.ts");
    await fireCompletion(payload, { ...context, tty }).catch(() => undefined);
  }
  return payload;
}

/**
 * Releases the lock by its nonce; false only when it still carries the
 * nonce afterwards (a pane that closed took its lock with it).
 */
async function release(server: TmuxServer, spec: SupervisorSpec): Promise<boolean> {
  const lock = {
    held: true as const,
    pane: spec.pane,
    value: { expiryMs: 0, nonce: spec.nonce, pid: Deno.pid, name: spec.action },
    raw: "",
  };
  const released = await releaseLock(server, lock).catch(() => false);
  if (released) return true;
  return !await lockCarries(server, { pane: spec.pane, nonce: spec.nonce });
}

/**
 * The exec transport: `sh -c <command>` verbatim, in its own process group,
 * in tma's own working directory, with the pane's context only in `TMA_*`
 * environment variables (A21, A22, R4). Nothing from the pane or `--arg` is
 * ever spliced into the command, so a hostile title stays an inert value
 * unless the action's author unquotes it.
 *
 * ```ts
 * import type { PaneView } from "../core/action/view.ts";
 * declare const view: PaneView;
 * const env = execEnv(view, { action: "summarize", args: [] });
 * const result = await runExec({ command: 'echo "$TMA_PANE"', env, timeoutMs: 30000 });
 * ```
 * @module
 */
import type { PaneView } from "../core/action/view.ts";

/** The context variables tma sets or clears for an exec child (A22). */
export const CONTEXT_ENV = [
  "TMA_PANE",
  "TMA_AGENT",
  "TMA_STATE",
  "TMA_DETAIL",
  "TMA_LOCATOR",
  "TMA_ACTION",
  "TMA_SESSION_ID",
  "TMA_CWD",
  "TMA_PID",
  "TMA_TITLE",
  "TMA_ARG",
  "TMA_ARG_COUNT",
] as const;

const ARG_N = /^TMA_ARG_\d+$/;

/** How long a timed-out group gets between SIGTERM and SIGKILL. */
export const KILL_GRACE_MS = 1000;

/**
 * The `TMA_*` context of one target (A22). Always: `TMA_PANE`, `TMA_AGENT`,
 * `TMA_STATE`, `TMA_DETAIL`, `TMA_LOCATOR`, `TMA_ACTION` (empty when
 * unknown). When the pane has them: `TMA_SESSION_ID`, `TMA_CWD`, `TMA_PID`,
 * `TMA_TITLE`. With `--arg`: `TMA_ARG` (the first value), `TMA_ARG_1..N`
 * and `TMA_ARG_COUNT`; none of them without. `TMA_SOCKET_PATH` names the
 * pane's tmux server, so a nested `tma` or `tmux -S` reaches the same one.
 */
export function execEnv(
  view: PaneView,
  context: { action: string; args: readonly string[] },
): Record<string, string> {
  const env: Record<string, string> = {
    TMA_PANE: view.pane,
    TMA_AGENT: view.agent ?? "",
    TMA_STATE: view.state ?? "",
    TMA_DETAIL: view.detail ?? "",
    TMA_LOCATOR: view.locator,
    TMA_ACTION: context.action,
  };
  if (view.session !== null) env.TMA_SESSION_ID = view.session;
  if (view.cwd !== null) env.TMA_CWD = view.cwd;
  if (view.pid !== null) env.TMA_PID = String(view.pid);
  if (view.title !== null) env.TMA_TITLE = view.title;
  if (view.socketPath !== "") env.TMA_SOCKET_PATH = view.socketPath;
  if (context.args.length > 0) {
    env.TMA_ARG = context.args[0];
    env.TMA_ARG_COUNT = String(context.args.length);
    context.args.forEach((value, i) => {
      env[`TMA_ARG_${i + 1}`] = value;
    });
  }
  return env;
}

/**
 * The child's whole environment: tma's own, minus every inherited context
 * variable (so an outer `TMA_ARG_3` cannot leak into a run without it),
 * plus this target's context.
 */
export function childEnv(
  inherited: Record<string, string>,
  context: Record<string, string>,
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(inherited)) {
    if ((CONTEXT_ENV as readonly string[]).includes(name) || ARG_N.test(name)) continue;
    env[name] = value;
  }
  return { ...env, ...context };
}

/** Options of `runExec`. */
export interface ExecOptions {
  command: string;
  /** The `TMA_*` context from {@linkcode execEnv}. */
  env: Record<string, string>;
  timeoutMs: number;
  /** Where the child's stdout goes: through (default), or to tma's stderr under `--json`. */
  stdout?: "inherit" | "stderr";
  /** The environment to inherit; defaults to tma's own. */
  inherited?: Record<string, string>;
}

/** How a sync exec ended. */
export type ExecEnd = { kind: "exited"; code: number } | { kind: "timeout" };

/**
 * Runs an exec action's command and waits for it (A21). The child leads its
 * own process group, so a timeout, or an interrupt of tma itself, takes
 * down everything it started: SIGTERM to the group, SIGKILL after a grace.
 */
export async function runExec(options: ExecOptions): Promise<ExecEnd> {
  const toStderr = options.stdout === "stderr";
  const child = new Deno.Command("sh", {
    args: ["-c", options.command],
    env: childEnv(options.inherited ?? Deno.env.toObject(), options.env),
    clearEnv: true,
    stdin: "null",
    stdout: toStderr ? "piped" : "inherit",
    stderr: "inherit",
    // A new session makes the child its own process-group leader.
    detached: true,
  }).spawn();
  const forwarding = toStderr
    ? child.stdout.pipeTo(Deno.stderr.writable, { preventClose: true })
    : null;
  const killGroup = (signal: Deno.Signal) => {
    try {
      Deno.kill(-child.pid, signal);
    } catch {
      // The group is already gone.
    }
  };
  const onSignal = () => killGroup("SIGTERM");
  const signals: Deno.Signal[] = ["SIGINT", "SIGTERM"];
  for (const signal of signals) Deno.addSignalListener(signal, onSignal);
  let timedOut = false;
  let grace: ReturnType<typeof setTimeout> | undefined;
  const timer = setTimeout(() => {
    timedOut = true;
    killGroup("SIGTERM");
    grace = setTimeout(() => killGroup("SIGKILL"), KILL_GRACE_MS);
  }, options.timeoutMs);
  try {
    const status = await child.status;
    if (timedOut) {
      // The leader may have died of SIGTERM while a child ignores it.
      killGroup("SIGKILL");
      await forwarding?.catch(() => undefined);
      return { kind: "timeout" };
    }
    await forwarding?.catch(() => undefined);
    return { kind: "exited", code: status.code };
  } finally {
    clearTimeout(timer);
    clearTimeout(grace);
    for (const signal of signals) Deno.removeSignalListener(signal, onSignal);
  }
}

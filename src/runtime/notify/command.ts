/**
 * The command sink (U21, U28): the user's notify command, run detached and
 * fire-and-forget with the JSON payload on stdin and the `TMA_*` variables
 * in its environment. Nothing from the pane is ever spliced into a command
 * line: the title, the excerpt and the rest reach the command only as
 * stdin and environment values, so a hostile title stays data (R4).
 *
 * The command runs under a small `sh` wrapper that leads its own session
 * (so it outlives a hook or a status poll that fired it), discards its
 * output, and on a non-zero status writes the failure record; on success it
 * removes the record. A dispatching process caps its in-flight commands:
 * at the cap the oldest is killed.
 *
 * ```ts
 * spawnNotifyCommand({
 *   command: 'notify-send "$TMA_AGENT" "$TMA_REASON"',
 *   payload: '{"schema":1}',
 *   env: { TMA_AGENT: "claude", TMA_REASON: "permission" },
 *   failure: { at_ms: Date.now(), trigger: "blocked", pane: "%3" },
 *   stateEnv: (name) => Deno.env.get(name),
 * });
 * ```
 * @module
 */
import { COMPLETION_ENV_NAMES } from "../../core/action/completion.ts";
import { PAYLOAD_ENV_NAMES } from "../../core/notify/payload.ts";
import type { EnvReader } from "../paths.ts";
import {
  clearFailure,
  failureDir,
  failurePrefix,
  type NotifyFailure,
  recordFailure,
} from "./failure.ts";

/** How many notify commands one process keeps in flight (U21). */
export const IN_FLIGHT_CAP = 8;

/**
 * The wrapper: `$1` the command, `$2` the record's directory, `$3` the
 * record lacking its status. The command inherits the payload on stdin.
 */
const WRAPPER = [
  'sh -c "$1" >/dev/null 2>&1',
  "rc=$?",
  'if [ "$rc" -eq 0 ]; then',
  '  rm -f "$2/notify-failure.json"',
  "else",
  '  mkdir -p "$2" && printf \'%s%s}\\n\' "$3" "$rc" > "$2/.notify-failure.$$" &&',
  '    mv -f "$2/.notify-failure.$$" "$2/notify-failure.json"',
  "fi",
].join("\n");

/**
 * tma's environment minus inherited payload variables (a state fire's and a
 * detached completion's, A24), plus this fire's.
 */
export function commandEnv(
  inherited: Record<string, string>,
  payloadEnv: Record<string, string>,
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(inherited)) {
    if (!PAYLOAD_ENV_NAMES.includes(name) && !COMPLETION_ENV_NAMES.includes(name)) {
      env[name] = value;
    }
  }
  return { ...env, ...payloadEnv };
}

/** One command to run. */
export interface NotifyCommand {
  command: string;
  /** The payload JSON, written to stdin. */
  payload: string;
  /** The fire's `TMA_*` variables (`payloadEnv`). */
  env: Record<string, string>;
  /** The record to write if it fails. */
  failure: Omit<NotifyFailure, "exit_code" | "reason" | "command">;
  /** Where the failure record's state directory is (`XDG_STATE_HOME`, `HOME`). */
  stateEnv: EnvReader;
}

const inFlight: Deno.ChildProcess[] = [];

function killGroup(child: Deno.ChildProcess): void {
  try {
    Deno.kill(-child.pid, "SIGTERM");
  } catch {
    // Already gone.
  }
}

/**
 * Starts the command and returns without waiting for it. A command that
 * cannot be started at all (no `sh`) is recorded as a failure here.
 */
export async function spawnNotifyCommand(spec: NotifyCommand): Promise<void> {
  const failure = { ...spec.failure, command: spec.command };
  while (inFlight.length >= IN_FLIGHT_CAP) killGroup(inFlight.shift()!);
  let child: Deno.ChildProcess;
  try {
    child = new Deno.Command("sh", {
      args: [
        "-c",
        WRAPPER,
        "tma-notify",
        spec.command,
        failureDir(spec.stateEnv),
        failurePrefix(failure),
      ],
      env: commandEnv(Deno.env.toObject(), spec.env),
      clearEnv: true,
      stdin: "piped",
      stdout: "null",
      stderr: "null",
      // Its own session: it outlives the process that fired it, and a kill at
      // the cap takes down everything it started.
      detached: true,
    }).spawn();
  } catch (error) {
    recordFailure(spec.stateEnv, {
      ...failure,
      exit_code: null,
      reason: error instanceof Error ? error.message : String(error),
    });
    return;
  }
  inFlight.push(child);
  child.status.then(() => {
    const at = inFlight.indexOf(child);
    if (at >= 0) inFlight.splice(at, 1);
  }, () => undefined);
  child.unref();
  const writer = child.stdin.getWriter();
  // A command that never reads its stdin closes it: its status tells the rest.
  await writer.write(new TextEncoder().encode(`${spec.payload}\n`)).catch(() => undefined);
  await writer.close().catch(() => undefined);
}

/** What a synchronous test run showed. */
export interface TestRun {
  /** The exit status, or null when it could not start. */
  code: number | null;
  stderr: string;
  /** Why it could not start. */
  reason: string | null;
}

/**
 * Runs the command in the foreground and waits (C99): the payload on stdin,
 * its stderr kept for showing, its stdout discarded. Updates the failure
 * record: recorded on failure, cleared on success.
 */
export async function runNotifyCommand(spec: NotifyCommand): Promise<TestRun> {
  const failure = { ...spec.failure, command: spec.command };
  let child: Deno.ChildProcess;
  try {
    child = new Deno.Command("sh", {
      args: ["-c", spec.command],
      env: commandEnv(Deno.env.toObject(), spec.env),
      clearEnv: true,
      stdin: "piped",
      // Piped to be collected and dropped: only stderr is shown.
      stdout: "piped",
      stderr: "piped",
    }).spawn();
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    recordFailure(spec.stateEnv, { ...failure, exit_code: null, reason });
    return { code: null, stderr: "", reason };
  }
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode(`${spec.payload}\n`)).catch(() => undefined);
  await writer.close().catch(() => undefined);
  const out = await child.output();
  const stderr = new TextDecoder().decode(out.stderr);
  if (out.code === 0) clearFailure(spec.stateEnv);
  else recordFailure(spec.stateEnv, { ...failure, exit_code: out.code });
  return { code: out.code, stderr, reason: null };
}

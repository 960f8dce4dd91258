/**
 * The notify failure record (U28): the last notify command that could not
 * start or exited non-zero, as one small JSON file in tma's state
 * directory (`$XDG_STATE_HOME/tma/notify-failure.json`). `doctor` shows it;
 * the next clean fire, or a passing `tma debug notify-test`, removes it.
 *
 * A detached command's wrapper writes the record itself when the command
 * fails (the dispatcher may be long gone by then): tma hands it the record
 * as JSON text lacking only the exit status, which the wrapper appends.
 *
 * ```ts
 * const env = (name: string) => Deno.env.get(name);
 * const failure = readFailure(env);
 * if (failure) console.log(describeFailure(failure));
 * ```
 * @module
 */
import { type EnvReader, stateDir } from "../paths.ts";

/** One recorded failure. */
export interface NotifyFailure {
  /** When the failing fire happened (epoch ms). */
  at_ms: number;
  /** The trigger word of that fire. */
  trigger: string;
  /** The pane it fired for ("" for `notify-test`). */
  pane: string;
  /** The command as configured. */
  command: string;
  /** Its exit status, or null when it could not be started at all. */
  exit_code: number | null;
  /** Why it could not start, when it could not. */
  reason?: string;
}

const FILE = "notify-failure.json";

/** The directory the record lives in. */
export function failureDir(env: EnvReader): string {
  return stateDir(env);
}

/** The record's path. */
export function failurePath(env: EnvReader): string {
  return `${failureDir(env)}/${FILE}`;
}

/**
 * The record's JSON text without its exit status and closing brace: the
 * wrapper of a detached command appends `<status>}` when it fails.
 *
 * ```ts
 * failurePrefix({ at_ms: 1, trigger: "blocked", pane: "%3", command: "x" });
 * // '{"at_ms":1,"trigger":"blocked","pane":"%3","command":"x","exit_code":'
 * ```
 */
export function failurePrefix(failure: Omit<NotifyFailure, "exit_code" | "reason">): string {
  const body = JSON.stringify({
    at_ms: failure.at_ms,
    trigger: failure.trigger,
    pane: failure.pane,
    command: failure.command,
  });
  return `${body.slice(0, -1)},"exit_code":`;
}

/** Reads the record, or null when there is none (or it cannot be read). */
export function readFailure(env: EnvReader): NotifyFailure | null {
  try {
    const value = JSON.parse(Deno.readTextFileSync(failurePath(env)));
    if (typeof value?.command !== "string" || typeof value?.at_ms !== "number") return null;
    return value as NotifyFailure;
  } catch {
    return null;
  }
}

/** Writes the record (atomically: a temporary file renamed over it). Errors are silent. */
export function recordFailure(env: EnvReader, failure: NotifyFailure): void {
  try {
    const dir = failureDir(env);
    Deno.mkdirSync(dir, { recursive: true });
    const temp = `${dir}/.${FILE}.${Deno.pid}`;
    Deno.writeTextFileSync(temp, `${JSON.stringify(failure)}\n`);
    Deno.renameSync(temp, failurePath(env));
  } catch {
    // The record is a courtesy for doctor; a fire never fails over it.
  }
}

/** Removes the record, if any. */
export function clearFailure(env: EnvReader): void {
  try {
    Deno.removeSync(failurePath(env));
  } catch {
    // Nothing to clear.
  }
}

/**
 * One line for a user: what failed, how, when.
 *
 * ```ts
 * describeFailure({ at_ms: 0, trigger: "blocked", pane: "%3", command: "nosuch", exit_code: 127 });
 * // 'notify command "nosuch" (blocked, %3) exited with status 127 (command not found) at 1970-01-01T00:00:00.000Z'
 * ```
 */
export function describeFailure(failure: NotifyFailure): string {
  const how = failure.exit_code === null
    ? `could not start: ${failure.reason ?? "unknown error"}`
    : `exited with status ${failure.exit_code}${statusHint(failure.exit_code)}`;
  const where = [failure.trigger, failure.pane].filter((s) => s !== "").join(", ");
  return `notify command "${failure.command}" (${where}) ${how} at ${
    new Date(failure.at_ms).toISOString()
  }`;
}

function statusHint(code: number): string {
  if (code === 127) return " (command not found)";
  if (code === 126) return " (not executable)";
  return "";
}

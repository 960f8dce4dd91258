/**
 * The completion notification of a detached exec action (A24): fired once
 * by its supervisor when the child ends, through the `[notify]` sinks (the
 * status-line message on every attached client, the bell and OSC 9 when
 * configured, the command, the log line). Unlike a state trigger it claims
 * no episode marker and ignores a mute (C59): one spawn, one completion. A
 * command that cannot start or exits non-zero is recorded for doctor, as
 * every notify command is (U28).
 *
 * ```ts
 * import { completionPayload } from "../../core/action/completion.ts";
 * import { defaultConfig } from "../../core/config/schema.ts";
 * const payload = completionPayload({
 *   action: "summarize", pane: "%3", agent: "claude", outcome: "exited", exitCode: 0,
 *   locator: "work:2.0", lockReleaseFailed: false,
 * });
 * await fireCompletion(payload, {
 *   server: { bin: "tmux", socketName: "work" }, config: defaultConfig(),
 *   env: (name) => Deno.env.get(name), now: Date.now, tty: "/dev/pts/3",
 * });
 * ```
 * @module
 */
import {
  completionEnv,
  completionLogLine,
  completionMessage,
  completionOsc,
  type CompletionPayload,
} from "../../core/action/completion.ts";
import type { Config } from "../../core/config/schema.ts";
import { messageClients } from "../../core/notify/route.ts";
import { listClientFacts } from "../../tmux/clients.ts";
import type { TmuxServer } from "../../tmux/exec.ts";
import { showMessage } from "../../tmux/notify.ts";
import type { EnvReader } from "../paths.ts";
import { spawnNotifyCommand } from "./command.ts";
import { appendLog, ringPane } from "./sinks.ts";

/** The failure record's trigger word for a completion's command (U28). */
export const COMPLETION_TRIGGER = "completion";

/** What a completion fires with. */
export interface CompletionContext {
  server: TmuxServer;
  config: Config;
  env: EnvReader;
  now(): number;
  /** The pane's tty for the bell and OSC 9, or null when the pane is gone. */
  tty: string | null;
}

/**
 * Fires every sink once, each best-effort: the bell and OSC 9, the command
 * (`TMA_NOTIFY_CMD`, else `[notify] command`; the payload on stdin), the
 * status-line message, the log line.
 */
export async function fireCompletion(
  payload: CompletionPayload,
  context: CompletionContext,
): Promise<void> {
  const notify = context.config.notify;
  const nowMs = context.now();
  if (context.tty !== null && (notify.bell || notify.osc)) {
    await ringPane(context.tty, {
      bell: notify.bell,
      osc: notify.osc ? completionOsc(payload) : null,
    });
  }
  const command = context.env("TMA_NOTIFY_CMD") || notify.command;
  if (command) {
    await spawnNotifyCommand({
      command,
      payload: JSON.stringify(payload),
      env: completionEnv(payload),
      failure: { at_ms: nowMs, trigger: COMPLETION_TRIGGER, pane: payload.pane },
      stateEnv: context.env,
    });
  }
  const clients = messageClients(await listClientFacts(context.server).catch(() => []));
  await showMessage(context.server, { clients, text: completionMessage(payload) })
    .catch(() => undefined);
  if (notify.log !== undefined) {
    appendLog(notify.log, completionLogLine(payload, nowMs), context.env);
  }
}

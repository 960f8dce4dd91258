/**
 * `tma debug notify-test [--trigger blocked|done|context_high]` (C99): runs
 * the command a trigger resolves to against a synthesized payload, in the
 * foreground, and shows its stderr and exit status. Needs no tmux. It
 * reports the failure record a failed fire left, then updates it: a failing
 * run records itself, a passing one clears it (U28). Exits 1 when there is
 * no command or it fails.
 * @module
 */
import { EXIT, TmaError } from "../../core/errors.ts";
import { buildPayload, payloadEnv } from "../../core/notify/payload.ts";
import { commandFor } from "../../core/notify/route.ts";
import type { TriggerName } from "../../core/notify/trigger.ts";
import { runNotifyCommand } from "../../runtime/notify/command.ts";
import { describeFailure, readFailure } from "../../runtime/notify/failure.ts";
import { type ParsedArgs, stringFlag } from "../args.ts";
import type { CommandContext } from "../context.ts";

/** The synthesized payload of a test run: a plausible pane that does not exist. */
export function testPayload(trigger: TriggerName, nowMs: number) {
  return buildPayload({
    agent: "claude",
    pane: "%0",
    state: trigger === "done" ? "idle" : "blocked",
    detail: trigger === "done" ? null : "permission",
    session: null,
    locator: "notify-test:1.0",
    title: "tma notify-test",
    windowName: "notify-test",
    repo: null,
    branch: null,
    episodeMs: nowMs - 5000,
    contextPct: trigger === "context_high" ? 85 : 42,
    server: "",
  }, {
    trigger,
    excerpt: trigger === "blocked" ? "Bash: echo tma notify-test" : null,
    nowMs,
    direct: false,
  });
}

/** Runs the notify test. */
export async function notifyTest(ctx: CommandContext, args: ParsedArgs): Promise<number> {
  const trigger = (stringFlag(args.flags, "trigger") ?? "blocked") as TriggerName;
  const config = await ctx.config();
  const command = commandFor(trigger, config.notify, ctx.env("TMA_NOTIFY_CMD"));
  if (command === null) {
    throw new TmaError(
      `notify-test: no command for ${trigger}: set [notify] command, ${
        trigger === "context_high" ? "[notify] context_high.command" : `[notify.${trigger}] command`
      } or TMA_NOTIFY_CMD`,
    );
  }
  const previous = readFailure(ctx.env);
  if (previous !== null) ctx.out(`last failure: ${describeFailure(previous)}\n`);
  const nowMs = ctx.now();
  const payload = testPayload(trigger, nowMs);
  ctx.out(`running the ${trigger} command: ${command}\n`);
  const run = await runNotifyCommand({
    command,
    payload: JSON.stringify(payload),
    env: payloadEnv(payload),
    failure: { at_ms: nowMs, trigger, pane: "" },
    stateEnv: ctx.env,
  });
  if (run.stderr !== "") {
    ctx.out(`stderr:\n${run.stderr.replace(/\n?$/, "\n").replace(/^/gm, "  ")}`);
  }
  if (run.code === null) {
    ctx.out(`could not start: ${run.reason}\n`);
    return EXIT.runtime;
  }
  ctx.out(`exit status ${run.code}${run.code === 0 ? " (failure record cleared)" : ""}\n`);
  return run.code === 0 ? EXIT.ok : EXIT.runtime;
}

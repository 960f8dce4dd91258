/**
 * The broker: every action tma fires goes through `fire`, whether it comes
 * from `tma act`, the menu, a deck or a library caller (A11).
 *
 * 1. identity: the pane exists and holds an agent the action covers;
 * 2. the gate (`requires`, `when`, the API lane's preconditions), after one
 *    on-demand detection cycle when a keys action finds the stamp stale;
 *    a blocked pane's dialog is fingerprinted here;
 * 3. the single-flight lock;
 * 4. the gate again, under the lock;
 * 5. delivery: keys, text, Claude's hook lane, the OpenCode API or a
 *    process; keys at a held dialog go out in one tmux invocation whose
 *    server-side condition is that the dialog still reads as it did (X1);
 * 6. release, on every path out.
 *
 * ```ts
 * import type { ParsedActionManifest } from "../core/manifest/parse.ts";
 * declare const env: BrokerEnv;
 * declare const actions: ReadonlyMap<string, ParsedActionManifest>;
 * const report = await fire(env, { action: actions.get("approve")!, pane: "%3" });
 * report.result.outcome; // "sent"
 * ```
 * @module
 */
import { UsageError } from "../core/errors.ts";
import type { ParsedActionManifest } from "../core/manifest/parse.ts";
import { type Held, sendKeys, sendKeysIfScreen, sendText, sendTextIfScreen } from "../tmux/keys.ts";
import { apiCall, postApi } from "./api.ts";
import { appendAudit } from "./audit.ts";
import { execEnv, runExec } from "./exec.ts";
import { checkGate, type Refusal } from "../core/action/gate.ts";
import { HANDOFF_MS, handVerdict } from "./hook_lane.ts";
import { acquireLock, type HeldLock, releaseLock } from "./lock.ts";
import { type BrokerEnv, gateInput, readView, redetect } from "./observe.ts";
import { markDelivered } from "./settle_mark.ts";
import { type ActResult, exitCodeOf, type Outcome, type Reason } from "../core/action/outcome.ts";
import { type PromptLook, promptRefusal, readPrompt, recordPrompt } from "./prompt.ts";
import type { Transport } from "../core/action/transport.ts";
import { isStale, type PaneView } from "../core/action/view.ts";

export type { BrokerEnv };

/** Seams where a caller (a test) may act between the broker's steps. */
export interface FireSeams {
  /** After the first gate passed, before the lock. */
  afterGate?(view: PaneView): Promise<void>;
  /** With the lock held, before the second gate; gets the pane id. */
  afterLock?(pane: string): Promise<void>;
}

/** One firing of one action at one pane. */
export interface FireRequest {
  action: ParsedActionManifest;
  /** The target: a pane id (`%3`) or locator (`main:1.0`). */
  pane: string;
  /** The message of a text action (C49); required by one, refused by others. */
  text?: string;
  /** Values for an exec action (C48), as `TMA_ARG*` env only. */
  args?: readonly string[];
  /**
   * The picked option labels, one list per question, for an action whose
   * `[api]` op is `question-reply` (A33). The only way to answer a question
   * without typing into the pane.
   */
  answers?: readonly (readonly string[])[];
  /** Skip `when` (A17) and the stale-stamp re-verify (C50). */
  force?: boolean;
  /** The caller confirmed a `confirm` action (`--yes` or a prompt, R7). */
  confirmed?: boolean;
  /** Where an exec child's stdout goes (`stderr` keeps a `--json` stdout clean). */
  execStdout?: "inherit" | "stderr";
  seams?: FireSeams;
}

/** What one firing did. */
export interface FireReport {
  /** The schema-1 result object (P65). */
  result: ActResult;
  agent: string | null;
  transport: Transport["kind"] | null;
  /** The prompt fingerprint the gate passed on, when the pane was blocked. */
  fingerprint: string | null;
  /** Why, in words, for a refusal, a vanish or an error; null on success. */
  message: string | null;
}

/**
 * Refuses a request the caller got wrong before anything is looked at:
 * `--text` and `--arg` where the action takes none or needs them, answers
 * for an action that has no `question-reply` op, an unconfirmed `confirm`
 * action. Throws {@linkcode UsageError} (exit 2).
 */
export function validateRequest(request: FireRequest): void {
  const { action } = request;
  if (action.text) {
    if (request.text === undefined || request.text === "") {
      throw new UsageError(`${action.name} is a text action: pass the message with --text`);
    }
  } else if (request.text !== undefined) {
    throw new UsageError(`${action.name} takes no --text (only text actions, such as steer, do)`);
  }
  if (action.kind === "keys" && (request.args?.length ?? 0) > 0) {
    throw new UsageError(`${action.name} is a keys action and takes no --arg (its keys are fixed)`);
  }
  const answersOp = Object.values(action.api).some((op) => op.op === "question-reply");
  if (request.answers !== undefined && !answersOp) {
    throw new UsageError(`${action.name} has no question-reply op to carry answers`);
  }
  if (action.confirm && !request.confirmed) {
    throw new UsageError(
      `${action.name} needs confirmation: pass --yes (or run it from a terminal)`,
    );
  }
}

/**
 * Fires one action at one pane through the whole broker sequence and
 * appends the outcome to the audit log. Never throws for what happens at
 * the pane (that is the outcome); throws {@linkcode UsageError} for a
 * request the caller got wrong.
 */
export async function fire(env: BrokerEnv, request: FireRequest): Promise<FireReport> {
  validateRequest(request);
  let report: FireReport;
  try {
    report = await fireOnce(env, request);
  } catch (error) {
    if (error instanceof UsageError) throw error;
    report = reportOf(request)({ outcome: "error", reason: null }, {
      message: error instanceof Error ? error.message : String(error),
    });
  }
  await audit(env, report);
  return report;
}

interface Ending {
  outcome: Outcome;
  reason: Reason | null;
  childCode?: number;
}

/** What a report carries besides its ending. */
interface EndDetail {
  pane?: string;
  view?: PaneView | null;
  transport?: Transport | null;
  fingerprint?: string | null;
  message?: string | null;
}

/** The report builder of one request: `reportOf(request)(ending, detail)`. */
function reportOf(request: FireRequest): (ending: Ending, detail?: EndDetail) => FireReport {
  return (ending, detail = {}) => ({
    result: {
      schema: 1,
      action: request.action.name,
      pane: detail.view?.pane ?? detail.pane ?? request.pane,
      outcome: ending.outcome,
      exit_code: exitCodeOf(ending),
      reason: ending.reason,
    },
    agent: detail.view?.agent ?? null,
    transport: detail.transport?.kind ?? null,
    fingerprint: detail.fingerprint ?? null,
    message: detail.message ?? null,
  });
}

/** The report of a pane that went away mid-run (closed, or its server gone). */
function vanishedOf(request: FireRequest, detail: EndDetail & { pane: string }): FireReport {
  return reportOf(request)({ outcome: "vanished", reason: null }, {
    ...detail,
    message: `pane ${detail.pane} is gone`,
  });
}

/** Reads the pane and, for a keys action on a stale stamp, re-detects it (A12). */
async function observe(
  env: BrokerEnv,
  request: FireRequest,
  pane: string,
): Promise<PaneView | null> {
  const view = await readView(env, pane);
  if (view === null) return null;
  const keys = request.action.kind === "keys";
  const stale = isStale(view, { nowMs: env.now(), freshnessSecs: env.config.fold.freshness_secs });
  // Identity needs an agent even under --force: an unstamped pane is looked at.
  if (view.agent === null || (keys && stale && !request.force)) {
    return await redetect(env, { pane: view.pane });
  }
  return view;
}

async function fireOnce(env: BrokerEnv, request: FireRequest): Promise<FireReport> {
  const { action } = request;
  const force = request.force ?? false;
  const view = await observe(env, request, request.pane);
  if (view === null) {
    return vanishedOf(request, { pane: request.pane });
  }
  const first = checkGate(action, gateInput(env, { view, force }));
  if (!first.ok) return refusalOf(request)(first.refusal, { view });
  const transport = first.transport;
  if (transport.kind === "api" && transport.op.op === "question-reply" && !request.answers) {
    throw new UsageError(
      `${action.name} answers a question with question-reply, which needs answers; ` +
        "tma act cannot carry them (fire it from the library with answers)",
    );
  }
  const prompt = needsPrint(transport) ? await recordPrompt(env, view) : null;
  const print = prompt?.print ?? null;
  await request.seams?.afterGate?.(view);

  const lock = await acquireLock(env.server, {
    pane: view.pane,
    name: action.name,
    // A detached child holds the lock for its whole run (A23).
    timeoutMs: transport.kind === "exec" && action.detach
      ? action.detach_timeout_ms
      : action.timeout_ms,
    nowMs: env.now(),
  });
  if (!lock.held) {
    if (lock.vanished) {
      return vanishedOf(request, { pane: view.pane, view, transport, fingerprint: print });
    }
    const holder = lock.holder;
    return refusalOf(request)({
      reason: "locked",
      message: `pane ${view.pane} is busy: ${
        holder
          ? `${holder.name} (pid ${holder.pid}) holds its action lock`
          : "another action holds its lock"
      }`,
    }, { view, transport, fingerprint: print });
  }
  // A detached exec hands the lock to its supervisor, which releases it (A23).
  let handedOver = false;
  try {
    return await underLock(env, request, { lock, prompt, handOver: () => handedOver = true });
  } finally {
    if (!handedOver) await releaseLock(env.server, lock).catch(() => undefined);
  }
}

function needsPrint(transport: Transport): boolean {
  return transport.kind === "keys" || transport.kind === "text" || transport.kind === "hook-lane";
}

/** A refusal's report builder: `refusalOf(request)(refusal, detail)`. */
function refusalOf(
  request: FireRequest,
): (refusal: Refusal, detail: EndDetail & { view: PaneView }) => FireReport {
  return (refusal, detail) =>
    reportOf(request)({ outcome: "refused", reason: refusal.reason }, {
      ...detail,
      message: refusal.message,
    });
}

/** The lock a firing holds, and how a detached exec hands it to its supervisor. */
interface LockHold {
  lock: HeldLock;
  prompt: PromptLook | null;
  /** Called once a supervisor owns the lock: the broker then leaves it held. */
  handOver(): void;
}

async function underLock(
  env: BrokerEnv,
  request: FireRequest,
  held: LockHold,
): Promise<FireReport> {
  const { action } = request;
  const force = request.force ?? false;
  const { prompt } = held;
  const print = prompt?.print ?? null;
  await request.seams?.afterLock?.(held.lock.pane);
  const view = await observe(env, request, held.lock.pane);
  if (view === null) {
    return vanishedOf(request, { pane: held.lock.pane, fingerprint: print });
  }
  const second = checkGate(action, gateInput(env, { view, force }));
  if (!second.ok) return refusalOf(request)(second.refusal, { view, fingerprint: print });
  // Taken before anything goes out, so a hook the delivery provokes is newer (D65, D67).
  const deliveredAt = env.now();
  const report = await deliver(env, request, {
    view,
    transport: second.transport,
    print,
    prompt,
    held,
  });
  const outcome = report.result.outcome;
  if (action.settles && (outcome === "sent" || outcome === "replied")) {
    await markDelivered(env.server, { pane: view.pane, state: view.state, at: deliveredAt });
  }
  return report;
}

/** Step 5: hands the action to its transport, under the lock and past both gates. */
async function deliver(
  env: BrokerEnv,
  request: FireRequest,
  gated: {
    view: PaneView;
    transport: Transport;
    print: string | null;
    prompt: PromptLook | null;
    held: LockHold;
  },
): Promise<FireReport> {
  const { action } = request;
  const force = request.force ?? false;
  const { view, transport, print, prompt } = gated;
  const base = { view, transport, fingerprint: print };

  switch (transport.kind) {
    case "keys":
    case "text":
      return await deliverKeys(env, request, { view, transport, prompt });
    case "hook-lane": {
      const handoffMs = Math.min(HANDOFF_MS, action.timeout_ms);
      const end = await handVerdict(env.server, {
        pane: view.pane,
        requestId: transport.requestId,
        verdict: transport.verdict,
        handoffMs,
      });
      if (end === "taken") return reportOf(request)({ outcome: "replied", reason: null }, base);
      if (end === "vanished") {
        return vanishedOf(request, { ...base, pane: view.pane });
      }
      // The hook did not take it and can no longer: answer with the keys
      // arm, after a fresh look at the pane (A26, A12).
      const fresh = await redetect(env, { pane: view.pane });
      if (fresh === null) {
        return vanishedOf(request, { ...base, pane: view.pane });
      }
      const third = checkGate(action, gateInput(env, { view: fresh, force }));
      if (!third.ok) return refusalOf(request)(third.refusal, { view: fresh, fingerprint: print });
      return await deliverKeys(env, request, {
        view: fresh,
        transport: { kind: "keys", keys: transport.keys },
        prompt,
        lane: transport,
      });
    }
    case "api": {
      const call = apiCall(transport.op, {
        endpoint: gateInput(env, { view, force }).endpoint ?? "",
        permissionRequest: view.permissionRequest,
        questionRequest: view.questionRequest,
        answers: request.answers,
      });
      const end = await postApi(call, action.timeout_ms);
      if (end.kind === "ok") {
        return reportOf(request)({ outcome: call.held ? "replied" : "sent", reason: null }, base);
      }
      if (end.kind === "gone") {
        return reportOf(request)({ outcome: "vanished", reason: "request-gone" }, {
          ...base,
          message: `the request on pane ${view.pane} was already answered or withdrawn (404)`,
        });
      }
      // What a user can do about it, doctor-style: the endpoint is only as good as the plugin
      // that stamped it.
      return reportOf(request)({ outcome: "error", reason: null }, {
        ...base,
        message: `${end.message}; the endpoint comes from @agent_api_endpoint, which the ` +
          `agent's tma plugin stamps when it starts: run tma install-hooks ${view.agent} and ` +
          `restart the agent, or set [api.${view.agent}] api_base`,
      });
    }
    case "exec": {
      if (action.detach) {
        return await detach(env, request, { ...base, transport, held: gated.held });
      }
      const end = await runExec({
        command: transport.command,
        env: execEnv(view, { action: action.name, args: request.args ?? [] }),
        timeoutMs: action.timeout_ms,
        stdout: request.execStdout,
      });
      if (end.kind === "timeout") {
        return reportOf(request)({ outcome: "timeout", reason: null }, {
          ...base,
          message: `${action.name} did not finish within ${action.timeout_ms} ms and was killed`,
        });
      }
      return reportOf(request)({ outcome: "exited", reason: null, childCode: end.code }, {
        ...base,
        message: end.code === 0 ? null : `${action.name} exited ${end.code}`,
      });
    }
  }
}

/**
 * A detached exec (A23): starts `tma supervise` on the target's server with
 * the job and the lock's nonce, and hands it the lock. A supervisor that
 * cannot start leaves the lock to the broker, which clears it before
 * returning.
 */
async function detach(
  env: BrokerEnv,
  request: FireRequest,
  options: {
    view: PaneView;
    transport: Transport & { kind: "exec" };
    fingerprint: string | null;
    held: LockHold;
  },
): Promise<FireReport> {
  const { action } = request;
  const { view, transport, held } = options;
  const [{ childFlags }, { selfArgv }, { startSupervisor }] = await Promise.all([
    import("../runtime/daemon_start.ts"),
    import("./self.ts"),
    import("./supervise.ts"),
  ]);
  const globals = env.childGlobals ?? {};
  const server = view.socketPath
    ? childFlags({ ...globals, socketPath: view.socketPath })
    : serverFlags(env, globals);
  try {
    startSupervisor({
      argv: [...(env.tma ?? selfArgv()), ...server],
      inherited: Deno.env.toObject(),
    }, {
      action: action.name,
      pane: view.pane,
      agent: view.agent ?? "",
      nonce: held.lock.value.nonce,
      command: transport.command,
      timeout_ms: action.detach_timeout_ms,
      context: execEnv(view, { action: action.name, args: request.args ?? [] }),
    });
  } catch (error) {
    return reportOf(request)({ outcome: "error", reason: null }, {
      ...options,
      message: `could not start the supervisor of ${action.name}: ${
        error instanceof Error ? error.message : String(error)
      }`,
    });
  }
  held.handOver();
  return reportOf(request)({ outcome: "spawned", reason: null }, options);
}

/** The child flags from the broker's own server, when the pane did not say its socket path. */
function serverFlags(env: BrokerEnv, globals: NonNullable<BrokerEnv["childGlobals"]>): string[] {
  const server = env.server.socketPath
    ? ["--socket-path", env.server.socketPath]
    : env.server.socketName
    ? ["--socket-name", env.server.socketName]
    : [];
  if (globals.noConfig) server.push("--no-config");
  else if (globals.config) server.push("--config", globals.config);
  if (globals.manifestDir) server.push("--manifest-dir", globals.manifestDir);
  return server;
}

async function deliverKeys(
  env: BrokerEnv,
  request: FireRequest,
  options: {
    view: PaneView;
    transport: Transport & { kind: "keys" | "text" };
    prompt: PromptLook | null;
    lane?: Transport;
  },
): Promise<FireReport> {
  const { view, transport, prompt } = options;
  const base = { view, transport: options.lane ?? transport, fingerprint: prompt?.print ?? null };
  const pane = view.pane;
  const text = request.text ?? "";
  let delivery: Awaited<ReturnType<typeof sendKeys>> | Held;
  if (prompt === null) {
    delivery = transport.kind === "keys"
      ? await sendKeys(env.server, { pane, keys: transport.keys })
      : await sendText(env.server, { pane, sequence: transport.sequence, text });
  } else {
    // The check and the send in one tmux invocation: the server sends only
    // while the dialog's rows still read as they did when the gate passed.
    const rows = prompt.rows;
    delivery = transport.kind === "keys"
      ? await sendKeysIfScreen(env.server, { pane, keys: transport.keys, rows })
      : await sendTextIfScreen(env.server, { pane, sequence: transport.sequence, text, rows });
  }
  if (delivery === "vanished") {
    return vanishedOf(request, { ...base, pane });
  }
  if (delivery !== "sent") {
    const look = await readPrompt(env, { view, capture: delivery.capture });
    const refusal = promptRefusal(
      { view, action: request.action, force: request.force ?? false },
      look,
    );
    return refusalOf(request)(refusal, base);
  }
  return reportOf(request)({ outcome: "sent", reason: null }, base);
}

async function audit(env: BrokerEnv, report: FireReport): Promise<void> {
  if (env.auditPath === null) return;
  try {
    await appendAudit(env.auditPath, {
      time: env.now(),
      pane: report.result.pane,
      agent: report.agent,
      action: report.result.action,
      transport: report.transport,
      outcome: report.result.outcome,
      reason: report.result.reason,
      exit_code: report.result.exit_code,
      fingerprint: report.fingerprint,
      pid: Deno.pid,
    });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    env.warn?.(`tma: could not append to the action log ${env.auditPath}: ${message}`);
  }
}

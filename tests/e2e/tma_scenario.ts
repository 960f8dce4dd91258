/**
 * One real agent, one mode, the whole tma walk, each step a named check with its own timing:
 *
 * 0. every first-run dialog (Claude's trust, API-key and auto-mode dialogs, Codex's and Gemini's
 *    trust) reads blocked/setup, and `tma act approve` refuses it (D66);
 * 1. idle at start; with hooks, Gemini's one-shot start prints no warning about tma's hooks;
 * 2. working in a slow turn, then idle;
 * 3. blocked/permission at the probe prompt, `tma act approve`, the probe file, idle with
 *    attention;
 * 4. a second probe prompt answered with `tma act deny`: no probe file, idle (D67), and the
 *    agent goes on; for Claude and Gemini a third one dismissed with a raw Escape (Claude with
 *    hooks only after its reply lane's hold expired), idle within 3 s of the dialog leaving;
 * 5. `tma act steer` on the idle pane, where the agent declares it: the text is the next user
 *    turn;
 * 6. `tma act steer_now` on a working pane, where declared: the queued text arrives as a user
 *    turn;
 * 7. a slow turn ended by `tma act interrupt`, idle (D65), and the next prompt reads working
 *    with no idle in between (sampled every 200 ms until its turn ends);
 * 8. `tma act compact` on Claude (gated below its context bound, then forced);
 * 9. OpenCode's question tool: blocked/question and `tma act question_reject`.
 *
 * In `hooks` mode `tma install-hooks <agent> --yes` runs first and the covered states must carry
 * `@agent_source` = `hook`. A failed check does not stop the walk; the test fails at the end
 * unless every failure is a listed known gap. Beside each state the report keeps the seconds from
 * the matching screen change to the `tma ls` call that first showed it.
 *
 * ```ts
 * import { runScenario } from "./tma_scenario.ts";
 * const report = await runScenario({ agent: "pi", mode: "screen", root, mock, tmux });
 * ```
 * @module
 */

import { type AgentDriver, type AgentRun, AGENTS } from "./agents.ts";
import { DONE_TEXT } from "./mock_script.ts";
import type { MockModel } from "./mock_model.ts";
import { AgentPane, sleep } from "./pane.ts";
import { type AgentName, REPO_ROOT } from "./pins.ts";
import { type LsRow, TmaCli } from "./tma_cli.ts";
import { actionAgents, type Expected, expectedOutcome, matches, type Mode } from "./tma_expect.ts";
import type { ScratchTmux } from "./tmux.ts";

export type { Mode };

/** One named expectation and how it went. */
export interface Check {
  name: string;
  ok: boolean;
  /** What was seen, when it failed (or a note when it passed). */
  detail: string;
  /** Why a failure is a known gap, not a regression. */
  gap?: string;
}

/** One measured screen change → tma state. */
export interface Latency {
  /** The step (a column of the summary table). */
  step: string;
  /** Seconds from the screen change to the `tma ls` call that returned the state (may be < 0). */
  seconds: number;
}

/** What one agent and mode produced. */
export interface ScenarioReport {
  agent: AgentName;
  mode: Mode;
  /** The walk ran with a tma daemon on its scratch server (issue 17). */
  daemon: boolean;
  checks: Check[];
  latencies: Latency[];
  notes: string[];
}

/** Options of {@link runScenario}. */
export interface ScenarioOptions {
  agent: AgentName;
  mode: Mode;
  root: string;
  mock: MockModel;
  tmux: ScratchTmux;
  /** Run the walk with a tma daemon on the scratch server (default: `TMA_E2E_DAEMON=1`). */
  daemon?: boolean;
  /** Known gaps: check name → the reason (a failure there does not fail the test). */
  gaps?: Record<string, string>;
  /** Bound of each wait. */
  stepTimeoutMs?: number;
}

/** The columns of the summary table, in walk order. */
export const STEPS = [
  "setup",
  "idle",
  "working",
  "blocked",
  "done",
  "deny",
  "dismissed",
  "steer",
  "interrupted",
  "question",
] as const;

const DONE = new RegExp(DONE_TEXT.replace(/[.()]/g, "\\$&"));

/** First-run dialogs that must read blocked/setup (D66), by the drivers' dialog names. */
const SETUP_DIALOGS: Partial<Record<AgentName, string[]>> = {
  claude: ["trust", "api_key", "auto_mode"],
  codex: ["trust"],
  gemini: ["trust"],
};

/** `[hooks] hold_ms` of the suite's tma config: long enough to approve, short to wait out. */
const HOLD_MS = 10_000;

/** Text tma's hooks must never make an agent print (item 9: Gemini's start-up warning). */
const HOOK_WARNING = /Invalid hook event name|hook[^\n]{0,60}(?:is invalid|failed to load)/i;

/** How long before the turn's end the last working sample of step 7d may be. */
const CONTINUITY_SLACK_MS = 2000;

/** The D65 and D67 bound: an interrupt or a dismissed dialog reads idle within this many seconds. */
const SETTLE_BOUND_S = 3;

/** The states a manifest's hooks cover (`[hooks] covers`), read from manifests/<agent>.toml. */
export function hookCovers(agent: AgentName): string[] {
  const text = Deno.readTextFileSync(`${REPO_ROOT}/manifests/${agent}.toml`);
  const match = /^covers\s*=\s*\[([^\]]*)\]/m.exec(text);
  return match ? [...match[1].matchAll(/"([^"]+)"/g)].map((m) => m[1]) : [];
}

/** The walk's shared state and the helpers every step uses. */
class Walk {
  readonly report: ScenarioReport;
  readonly driver: AgentDriver;
  readonly covers: string[];

  constructor(
    readonly options: ScenarioOptions,
    readonly tma: TmaCli,
    readonly pane: AgentPane,
    readonly run: AgentRun,
    readonly bound: number,
  ) {
    const { agent, mode } = options;
    this.report = {
      agent,
      mode,
      daemon: options.daemon ?? Deno.env.get("TMA_E2E_DAEMON") === "1",
      checks: [],
      latencies: [],
      notes: [],
    };
    this.driver = AGENTS[agent];
    this.covers = mode === "hooks" ? hookCovers(agent) : [];
  }

  get agent(): AgentName {
    return this.options.agent;
  }

  get mode(): Mode {
    return this.options.mode;
  }

  get mock(): MockModel {
    return this.options.mock;
  }

  /** Screens captured when a check failed, awaited into the notes at the end. */
  readonly failedScreens: Promise<void>[] = [];

  check(name: string, ok: boolean, detail: string): boolean {
    const gap = ok ? undefined : this.options.gaps?.[name];
    this.report.checks.push({ name, ok, detail, gap });
    if (!ok) {
      this.failedScreens.push(
        this.pane.screen().then(
          (screen) => {
            const rows = screen.split("\n").filter((l) => l.trim() !== "").slice(-18);
            this.note(`screen when "${name}" failed:\n    ${rows.join("\n    ")}`);
          },
          () => {},
        ),
      );
    }
    return ok;
  }

  note(line: string): void {
    this.report.notes.push(line);
  }

  /** Notes the `tma ls` calls of a poll that failed outright (they are retried, not fatal). */
  noteFailures(polled: { failures: number; lastFailure?: string }): void {
    if (polled.failures > 0) {
      this.note(`${polled.failures} tma ls call(s) failed and were retried: ${polled.lastFailure}`);
    }
  }

  describe(row: LsRow | undefined): string {
    return row
      ? `state=${row.state} detail=${row.detail} attention=${row.attention} done=${row.done}`
      : "no row for the pane";
  }

  /**
   * Waits for a tma state while timing the screen change it answers; the latency is recorded
   * under `step` when both were seen.
   */
  async observe(
    step: string | null,
    screen: ((text: string) => boolean) | number,
    want: (row: LsRow | undefined) => boolean,
    timeoutMs = this.bound,
  ) {
    // A number is the time the screen change was already seen.
    let screenAt: number | undefined = typeof screen === "number" ? screen : undefined;
    const stop = new AbortController();
    const watcher = (async () => {
      while (!stop.signal.aborted && screenAt === undefined) {
        const text = await this.pane.screen().catch(() => "");
        if (typeof screen === "function" && screen(text)) screenAt = Date.now();
        else await sleep(100);
      }
    })();
    const polled = await this.tma.pollRow(this.pane.id, want, { timeoutMs });
    this.noteFailures(polled);
    // Hooks can run ahead of the screen: give the watcher a moment to see the change.
    const until = Date.now() + 3000;
    while (polled.ok && screenAt === undefined && Date.now() < until) await sleep(100);
    stop.abort();
    await watcher;
    const seconds = polled.ok && screenAt !== undefined ? (polled.at - screenAt) / 1000 : null;
    if (step !== null && seconds !== null) this.report.latencies.push({ step, seconds });
    return { ...polled, latency: seconds };
  }

  async option(name: string): Promise<string> {
    return (await this.options.tmux.run(["show-options", "-pqv", "-t", this.pane.id, name], true))
      .trim();
  }

  /** In hooks mode, a covered state must come from a hook (bounded: the screen may lead). */
  async checkSource(state: string): Promise<void> {
    if (this.mode !== "hooks" || !this.covers.includes(state)) return;
    const deadline = Date.now() + 5000;
    let value = await this.option("@agent_source");
    while (value !== "hook" && Date.now() < deadline) {
      await sleep(100);
      value = await this.option("@agent_source");
    }
    this.check(`${state}: @agent_source is hook`, value === "hook", `@agent_source=${value}`);
  }

  /** Fires an action and checks its outcome against `expected`. */
  async act(name: string, check: string, expected: Expected, more: string[] = []) {
    const fired = await this.tma.act(name, this.pane.id, more);
    this.check(
      `${check} → ${JSON.stringify(expected)}`,
      matches(fired, expected),
      `exit ${fired.code} ${JSON.stringify(fired.result)} ${fired.stderr.trim().slice(0, 300)}`,
    );
    return fired;
  }

  /** Waits until the mock received a model request whose prompt holds `text`. */
  async requestWith(text: string, from: number, timeoutMs = this.bound): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      if (this.mock.requests.slice(from).some((r) => r.prompt?.includes(text))) return true;
      await sleep(200);
    }
    return false;
  }

  /** Waits for the pane to read idle (no latency recorded). */
  async settle(check: string): Promise<boolean> {
    const idle = await this.tma.pollRow(this.pane.id, (r) => r?.state === "idle", {
      timeoutMs: this.bound,
    });
    this.noteFailures(idle);
    return this.check(check, idle.ok, this.describe(idle.row));
  }

  get probeFile(): string {
    return `${this.run.project}/probe_created.txt`;
  }

  async probeExists(): Promise<boolean> {
    return await Deno.stat(this.probeFile).then(() => true, () => false);
  }

  /** The whole history of the pane as text (for warnings that scrolled away). */
  async history(): Promise<string> {
    return await this.options.tmux.run(["capture-pane", "-p", "-S", "-", "-t", this.pane.id], true);
  }
}

/** Runs the walk; never throws for a failed expectation (only for a broken harness). */
export async function runScenario(options: ScenarioOptions): Promise<ScenarioReport> {
  const { agent, mode, mock, tmux } = options;
  const driver = AGENTS[agent];
  const bound = options.stepTimeoutMs ?? 60_000;

  const run = await driver.prepare({ root: options.root, mockUrl: mock.url, tag: mode });
  const extraEnv: Record<string, string> = { TMPDIR: `${run.dir}/tmp` };
  if (run.env.CODEX_HOME) extraEnv.CODEX_HOME = run.env.CODEX_HOME;
  // issue 17: TMA_E2E_DAEMON=1 runs the walk with a tma daemon on the scratch server; the pane's
  // hooks and every tma command find it (and, without it, the hooks' spool and drainer, X10)
  // through the same scratch runtime folder.
  const daemon = options.daemon ?? Deno.env.get("TMA_E2E_DAEMON") === "1";
  extraEnv.XDG_RUNTIME_DIR = `${run.dir}/run`;
  await Deno.mkdir(extraEnv.XDG_RUNTIME_DIR, { recursive: true });
  run.env.XDG_RUNTIME_DIR = extraEnv.XDG_RUNTIME_DIR;
  const tma = await TmaCli.create({ dir: run.dir, home: run.home, socket: tmux.socket, extraEnv });
  await Deno.mkdir(`${tma.env.XDG_CONFIG_HOME}/tma`, { recursive: true });
  await Deno.writeTextFile(
    `${tma.env.XDG_CONFIG_HOME}/tma/config.toml`,
    `# tma e2e: a reply-lane hold short enough to wait out (step 4).\n[hooks]\nhold_ms = ${HOLD_MS}\n`,
  );
  const early: Check[] = [];
  const debugLog = `${run.dir}/tma_debug.log`;
  if (mode === "hooks") {
    const installed = await tma.run(["install-hooks", agent, "--yes"]);
    early.push({
      name: "install-hooks",
      ok: installed.code === 0,
      detail: `exit ${installed.code} ${installed.stderr.trim().slice(0, 300)}`,
    });
    if (agent === "claude") early.push(await claudeAsyncCheck(`${run.home}/.claude/settings.json`));
    // The pane must find tma (TMA_BIN) and pin the scratch server (TMA_HOOK_SOCKET); every hook
    // event is logged, so a failure can be traced to the event that caused it.
    Object.assign(run.env, {
      TMA_BIN: tma.env.TMA_BIN,
      TMA_HOOK_SOCKET: tma.env.TMA_HOOK_SOCKET,
      XDG_CONFIG_HOME: tma.env.XDG_CONFIG_HOME,
      XDG_STATE_HOME: tma.env.XDG_STATE_HOME,
      DENO_DIR: tma.env.DENO_DIR,
      TMA_DEBUG_LOG: debugLog,
    });
  }

  if (daemon) {
    const started = await tma.run(["daemon", "--ensure"]);
    early.push({
      name: "daemon --ensure",
      ok: started.code === 0,
      detail: `exit ${started.code} ${started.stderr.trim().slice(0, 300)}`,
    });
  }
  const pane = await AgentPane.launch(run, { tmux, width: 120, height: 40 });
  const walk = new Walk(options, tma, pane, run, bound);
  walk.report.checks.push(...early);
  await firstRun(walk);
  await startUp(walk);
  await headlessStart(walk);
  await slowTurn(walk);
  await approveStep(walk);
  await denyStep(walk);
  await dismissStep(walk);
  await steerStep(walk);
  await steerNowStep(walk);
  await interruptStep(walk);
  await compactStep(walk);
  await questionStep(walk);
  await Promise.all(walk.failedScreens);
  const history = await walk.history();
  walk.check(
    "the agent printed no warning about tma's hooks",
    !HOOK_WARNING.test(history),
    HOOK_WARNING.exec(history)?.[0] ?? "",
  );
  if (mode === "hooks" && walk.report.checks.some((c) => !c.ok)) {
    const log = await Deno.readTextFile(debugLog).catch(() => "");
    walk.note(
      `hook events (TMA_DEBUG_LOG, last 40):\n    ${
        log.trim().split("\n").slice(-40).join("\n    ")
      }`,
    );
  }
  return walk.report;
}

/**
 * Issue 20 (X10): the Claude entries tma installed carry `"async": true`, all but the answering
 * `PermissionRequest`, so the real Claude runs them in the background for the rest of the walk.
 */
async function claudeAsyncCheck(settingsPath: string): Promise<Check> {
  const wrong: string[] = [];
  let seen = 0;
  try {
    const hooks = JSON.parse(await Deno.readTextFile(settingsPath)).hooks ?? {};
    for (const [event, groups] of Object.entries(hooks)) {
      for (const group of groups as { hooks?: { command?: string; async?: boolean }[] }[]) {
        for (const hook of group.hooks ?? []) {
          if (!hook.command?.includes("tma-hook")) continue;
          seen++;
          if ((hook.async === true) !== (event !== "PermissionRequest")) {
            wrong.push(`${event} async=${hook.async}`);
          }
        }
      }
    }
  } catch (error) {
    wrong.push(String(error));
  }
  return {
    name: "install-hooks: Claude entries async but PermissionRequest",
    ok: seen > 0 && wrong.length === 0,
    detail: `${seen} tma entries; ${wrong.join(", ") || "as wired"}`,
  };
}

/** Step 0: each first-run dialog reads blocked/setup and approve refuses it (D66). */
async function firstRun(walk: Walk): Promise<void> {
  const wanted = SETUP_DIALOGS[walk.agent] ?? [];
  await walk.pane.passFirstRun(walk.driver, {
    onDialog: async (name, seenAt) => {
      if (!wanted.includes(name)) return;
      const seen = await walk.observe(
        "setup",
        seenAt,
        (r) => r?.state === "blocked" && r.detail === "setup",
        20_000,
      );
      walk.check(`0 ${name} dialog: blocked/setup`, seen.ok, walk.describe(seen.row));
      await walk.act("approve", `0 ${name} dialog: act approve`, {
        outcome: "refused",
        reason: "gated",
        code: 4,
      });
    },
  });
}

/** Step 1: idle after start, and no warning about tma's hooks. */
async function startUp(walk: Walk): Promise<void> {
  const idle = await walk.observe(
    "idle",
    (s) => walk.driver.ready.test(s),
    (r) => r?.state === "idle",
  );
  walk.check("1 idle after start", idle.ok, walk.describe(idle.row));
  // In hooks mode the idle at start may still be the screen's until the first hook fires
  // (Codex registers at the first prompt), so the source is checked on the turn states only.
}

/**
 * Agents whose one-shot mode reports on stderr what their TUI keeps off the screen (Gemini 0.61
 * writes `Invalid hook event name` there, and only into a console panel in the TUI).
 */
const HEADLESS: Partial<Record<AgentName, string[]>> = { gemini: ["-p", "say hi"] };

/** Step 1b, hooks mode: the agent's one-shot start prints no warning about tma's hooks. */
async function headlessStart(walk: Walk): Promise<void> {
  const args = HEADLESS[walk.agent];
  if (walk.mode !== "hooks" || args === undefined) return;
  const out = await new Deno.Command(walk.run.argv[0], {
    args,
    cwd: walk.run.project,
    env: walk.run.env,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
    signal: AbortSignal.timeout(walk.bound),
  }).output().catch((error) => ({
    code: -1,
    stdout: new Uint8Array(),
    stderr: new TextEncoder().encode(String(error)),
  }));
  const stderr = new TextDecoder().decode(out.stderr);
  const warning = HOOK_WARNING.exec(stderr);
  walk.check(
    `1b ${walk.agent} ${args.join(" ")} warns about no hook`,
    out.code === 0 && warning === null,
    `exit ${out.code}${warning ? `: ${warning[0]}` : ""} ${stderr.trim().slice(0, 200)}`,
  );
}

/** Step 2: working during a slow turn, then idle. */
async function slowTurn(walk: Walk): Promise<void> {
  await walk.pane.sendPrompt("say something slow please", { mock: walk.mock });
  const working = await walk.observe(
    "working",
    (s) => walk.driver.working.test(s),
    (r) => r?.state === "working",
  );
  walk.check("2 working during a slow turn", working.ok, walk.describe(working.row));
  if (working.ok) await walk.checkSource("working");
  if (await walk.settle("2b idle after the slow turn")) await walk.checkSource("idle");
}

/** Raises the probe command's prompt; pi's confirm gate only reads "not idle". */
async function raiseProbe(walk: Walk, label: string, step: string | null): Promise<boolean> {
  await Deno.remove(walk.probeFile).catch(() => {});
  await walk.pane.sendPrompt("please run probe-tool", { mock: walk.mock });
  const pi = walk.agent === "pi";
  const blocked = await walk.observe(
    step,
    (s) => walk.driver.blocked.test(s),
    (r) => pi ? !!r && r.state !== "idle" : r?.state === "blocked" && r.detail === "permission",
  );
  walk.check(
    pi ? `${label} not idle at the confirm gate` : `${label} blocked/permission at the prompt`,
    blocked.ok,
    walk.describe(blocked.row),
  );
  await walk.pane.waitFor(walk.driver.blocked, { timeoutMs: walk.bound }).catch(() => {});
  return blocked.ok;
}

/** Answers a prompt on screen by keys unless `fired` already did. */
async function answerUnlessDone(
  walk: Walk,
  fired: { result?: { outcome: string } } | null,
  keys: string[],
): Promise<void> {
  const answered = await walk.pane.waitForGone(walk.driver.blocked, { timeoutMs: 5000 }).then(
    () => true,
    () => false,
  );
  if (answered) return;
  if (fired?.result?.outcome === "sent" || fired?.result?.outcome === "replied") {
    walk.note(`${fired.result.outcome} but the prompt stayed; answered by keys`);
  }
  await walk.pane.answer(keys, walk.driver.blocked).catch((e) => walk.note(`${e}`));
}

/** Step 3: the probe prompt, `tma act approve`, the file, idle with attention. */
async function approveStep(walk: Walk): Promise<void> {
  const blocked = await raiseProbe(walk, "3", "blocked");
  if (blocked && walk.agent !== "pi") await walk.checkSource("blocked");
  let fired = null;
  if (walk.agent !== "pi") {
    // A key sent the moment a prompt is drawn can be lost (see pane.answer).
    await sleep(1000);
    fired = await walk.act(
      "approve",
      "3 act approve",
      expectedOutcome("approve", walk.agent, walk.mode),
    );
  }
  await answerUnlessDone(walk, fired, walk.driver.approve);
  const created = await waitForFile(walk.probeFile, walk.bound);
  walk.check("3 probe_created.txt exists", created, created ? "" : `${walk.probeFile} missing`);
  const done = await walk.observe(
    "done",
    (s) => DONE.test(s) && !walk.driver.blocked.test(s),
    (r) => r?.state === "idle" && r.attention === true,
  );
  walk.check("3 idle with attention (done)", done.ok, walk.describe(done.row));
}

/** Step 4: the probe prompt denied through `tma act deny` (D67 with the broker's mark). */
async function denyStep(walk: Walk): Promise<void> {
  if (!actionAgents("deny").has(walk.agent)) return;
  await raiseProbe(walk, "4", null);
  await sleep(1000);
  const fired = await walk.act(
    "deny",
    "4 act deny",
    expectedOutcome("deny", walk.agent, walk.mode),
  );
  const gone = Date.now();
  await answerUnlessDone(walk, fired, ["Escape"]);
  const idle = await walk.observe(
    "deny",
    (s) => !walk.driver.blocked.test(s),
    (r) => r?.state === "idle",
  );
  walk.check("4 idle after deny", idle.ok, walk.describe(idle.row));
  // The tool must not have run, however long after the answer we look.
  await sleep(Math.max(0, 2000 - (Date.now() - gone)));
  const created = await walk.probeExists();
  walk.check("4 no probe_created.txt after deny", !created, created ? "the probe file exists" : "");
}

/**
 * Step 4b: a prompt dismissed with a raw Escape, as a user would, for Claude (with hooks only
 * after the reply lane's hold expired, so the hook's blocked claim is fresh and unanswered) and
 * Gemini: idle within 3 s of the dialog leaving (D67 without the broker's mark).
 */
async function dismissStep(walk: Walk): Promise<void> {
  if (walk.agent !== "claude" && walk.agent !== "gemini") return;
  await raiseProbe(walk, "4b", null);
  if (walk.agent === "claude" && walk.mode === "hooks") {
    // The holding hook clears its request id when its hold ends.
    const deadline = Date.now() + HOLD_MS + 20_000;
    await sleep(1000);
    while (Date.now() < deadline && (await walk.option("@agent_permission_request")) !== "") {
      await sleep(250);
    }
    walk.note("claude: the reply lane's hold had ended before the raw Escape");
  }
  await walk.pane.answer(["Escape"], walk.driver.blocked).catch((e) => walk.note(`${e}`));
  const idle = await walk.observe(
    "dismissed",
    (s) => !walk.driver.blocked.test(s),
    (r) => r?.state === "idle",
  );
  walk.check("4b idle after a raw Escape", idle.ok, walk.describe(idle.row));
  if (idle.latency !== null) {
    walk.check(
      `4b idle within ${SETTLE_BOUND_S} s of the dialog leaving`,
      idle.latency <= SETTLE_BOUND_S,
      `${idle.latency.toFixed(2)} s`,
    );
  }
  const created = await walk.probeExists();
  walk.check(
    "4b no probe_created.txt after Escape",
    !created,
    created ? "the probe file exists" : "",
  );
}

/** Step 5: `tma act steer` types the text as the next user turn of an idle pane. */
async function steerStep(walk: Walk): Promise<void> {
  if (!actionAgents("steer").has(walk.agent)) return;
  const idle = await walk.tma.pollRow(walk.pane.id, (r) => r?.state === "idle", {
    timeoutMs: walk.bound,
  });
  walk.check("5 idle before steer", idle.ok, walk.describe(idle.row));
  const text = `steer-marker-${walk.agent} reply slow please`;
  const from = walk.mock.requests.length;
  await walk.act("steer", "5 act steer", expectedOutcome("steer", walk.agent, walk.mode), [
    "--text",
    text,
  ]);
  const working = await walk.observe(
    "steer",
    (s) => walk.driver.working.test(s),
    (r) => r?.state === "working",
  );
  walk.check("5 working on the steered turn", working.ok, walk.describe(working.row));
  const arrived = await walk.requestWith("steer-marker", from);
  walk.check("5 the steered text is the next user turn", arrived, arrived ? "" : "no request");
  await walk.settle("5 idle after the steered turn");
}

/** Step 6: `tma act steer_now` queues text into a working pane; it arrives as a user turn. */
async function steerNowStep(walk: Walk): Promise<void> {
  if (!actionAgents("steer_now").has(walk.agent)) return;
  await walk.pane.sendPrompt("one more slow reply please", { mock: walk.mock });
  const working = await walk.observe(
    null,
    (s) => walk.driver.working.test(s),
    (r) => r?.state === "working",
  );
  walk.check("6 working before steer_now", working.ok, walk.describe(working.row));
  const from = walk.mock.requests.length;
  await walk.act(
    "steer_now",
    "6 act steer_now",
    expectedOutcome("steer_now", walk.agent, walk.mode),
    [
      "--text",
      `queued-marker-${walk.agent}`,
    ],
  );
  const arrived = await walk.requestWith("queued-marker", from, walk.bound + 30_000);
  walk.check("6 the queued text arrives as a user turn", arrived, arrived ? "" : "no request");
  await walk.settle("6 idle after the queued turn");
}

/**
 * Step 7: `tma act interrupt` ends a slow turn (idle, D65), and the next prompt reads working
 * with no idle in between until its turn ends.
 */
async function interruptStep(walk: Walk): Promise<void> {
  await walk.pane.sendPrompt("another slow reply please", { mock: walk.mock });
  const working = await walk.observe(
    "working",
    (s) => walk.driver.working.test(s),
    (r) => r?.state === "working",
  );
  walk.check("7a working during the slow turn", working.ok, walk.describe(working.row));
  await walk.act("interrupt", "7b act interrupt", { outcome: "sent" });
  if (walk.agent === "opencode") {
    await sleep(700);
    if (/esc again to interrupt/.test(await walk.pane.screen())) {
      walk.note("opencode: the bundled interrupt sent one Escape; the test sent a second");
      await walk.pane.sendKeys(["Escape"]);
    }
  }
  const interrupted = await walk.observe(
    "interrupted",
    (s) => (walk.driver.interrupted?.test(s) ?? false) || !walk.driver.working.test(s),
    (r) => r?.state === "idle",
  );
  walk.check("7c idle after the interrupt", interrupted.ok, walk.describe(interrupted.row));
  if (interrupted.latency !== null) {
    walk.check(
      `7c idle within ${SETTLE_BOUND_S} s of the interrupt`,
      interrupted.latency <= SETTLE_BOUND_S,
      `${interrupted.latency.toFixed(2)} s`,
    );
  }
  await continuousWorking(walk);
}

/**
 * Samples `tma ls` every 200 ms from a new slow prompt until its turn has ended: once the pane
 * read working, an idle sample taken before the mock finished streaming the reply fails the
 * check (no flicker, D65).
 */
async function continuousWorking(walk: Walk): Promise<void> {
  const prompt = "a last slow reply please";
  const from = walk.mock.requests.length;
  const samples: { at: number; state: string }[] = [];
  let failed = 0;
  const stop = new AbortController();
  const sampler = (async () => {
    while (!stop.signal.aborted) {
      const started = Date.now();
      // A listing that failed outright (a slow `ps`) is no sample.
      const row = await walk.tma.row(walk.pane.id).then(
        (r) => ({ state: r?.state ?? "none" }),
        () => {
          failed++;
          return null;
        },
      );
      if (row !== null) samples.push({ at: started, state: row.state });
      await sleep(Math.max(0, 200 - (Date.now() - started)));
    }
  })();
  await walk.pane.sendPrompt(prompt, { mock: walk.mock });
  // The turn ends when the mock has finished streaming the slow reply to the prompt (a title
  // side call that carries it streams alongside and ends with it).
  const deadline = Date.now() + walk.bound;
  let ended = 0;
  while (Date.now() < deadline && ended === 0) {
    const main = walk.mock.requests.slice(from).find((r) =>
      r.prompt?.includes(prompt) && r.slow === true && r.outcome !== "streaming"
    );
    if (main) ended = Date.now();
    else await sleep(100);
  }
  stop.abort();
  await sampler;
  if (failed > 0) walk.note(`7d: ${failed} tma ls sample(s) failed outright and were skipped`);
  // Working from the first working sample to the last, with nothing else between, and the last
  // one taken close to the turn's end (a sample takes a few hundred ms, so the very end of the
  // stream and the idle it leads to may share one).
  const first = samples.findIndex((s) => s.state === "working");
  const last = samples.findLastIndex((s) => s.state === "working");
  const between = first < 0 ? [] : samples.slice(first, last + 1);
  const flicker = between.filter((s) => s.state !== "working");
  const lastAt = last < 0 ? 0 : samples[last].at;
  const closeToEnd = ended > 0 && lastAt >= ended - CONTINUITY_SLACK_MS;
  walk.check(
    "7d the next prompt reads working until its turn ends (no idle between)",
    first >= 0 && ended > 0 && flicker.length === 0 && closeToEnd,
    `${samples.length} samples, working #${first}-#${last}, off-working between: ` +
      `${flicker.map((s) => s.state).join(",") || "none"}; turn end ${
        ended ? `seen ${((ended - lastAt) / 1000).toFixed(2)} s after the last working` : "not seen"
      }`,
  );
  await walk.settle("7e idle after the next turn");
}

/** Step 8: `tma act compact` on Claude: gated below its bound, forced it compacts. */
async function compactStep(walk: Walk): Promise<void> {
  if (!actionAgents("compact").has(walk.agent)) return;
  await walk.act("compact", "8 act compact below its context bound", {
    outcome: "refused",
    reason: "gated",
    code: 4,
  });
  const from = walk.mock.requests.length;
  await walk.act("compact", "8 act compact --force", { outcome: "sent" }, ["--force"]);
  // Claude sends the conversation for a summary, then shows the compacted transcript.
  const deadline = Date.now() + walk.bound;
  let summarised = false;
  while (Date.now() < deadline && !summarised) {
    summarised = walk.mock.requests.slice(from).some((r) =>
      r.route === "anthropic" && /summar/i.test(r.prompt ?? "")
    );
    if (!summarised) await sleep(250);
  }
  walk.check("8 compact sent the conversation for a summary", summarised, summarised ? "" : "none");
  await walk.settle("8 idle after compact");
}

/** Step 9: OpenCode's question tool: blocked/question, then `tma act question_reject`. */
async function questionStep(walk: Walk): Promise<void> {
  if (!actionAgents("question_reject").has(walk.agent)) return;
  const dialog = /esc dismiss/;
  await walk.pane.sendPrompt("please ask probe-question", { mock: walk.mock });
  const blocked = await walk.observe(
    "question",
    (s) => dialog.test(s),
    (r) => r?.state === "blocked" && r.detail === "question",
  );
  walk.check("9 blocked/question at the question", blocked.ok, walk.describe(blocked.row));
  await walk.pane.waitFor(dialog, { timeoutMs: walk.bound }).catch(() => {});
  await sleep(1000);
  const fired = await walk.act(
    "question_reject",
    "9 act question_reject",
    expectedOutcome("question_reject", walk.agent, walk.mode),
  );
  const answered = await walk.pane.waitForGone(dialog, { timeoutMs: 5000 }).then(
    () => true,
    () => false,
  );
  if (!answered) {
    if (fired.result?.outcome === "replied") {
      walk.note("question_reject replied; the dialog stayed");
    }
    await walk.pane.answer(["Escape"], dialog).catch((e) => walk.note(`${e}`));
  }
  await walk.settle("9 idle after the question");
}

async function waitForFile(path: string, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await Deno.stat(path).then(() => true, () => false)) return true;
    await sleep(250);
  }
  return false;
}

/** The median of a list (undefined when empty). */
export function median(values: number[]): number | undefined {
  if (values.length === 0) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** A plain-text table of every report: the latencies per agent and mode, then the checks. */
/** How a walk is named in the summary: `claude/hooks`, `codex/screen+daemon`. */
function walkName(r: ScenarioReport): string {
  return `${r.agent}/${r.mode}${r.daemon ? "+daemon" : ""}`;
}

export function summaryTable(reports: ScenarioReport[]): string {
  const lines: string[] = [];
  lines.push("tma e2e: seconds from the screen change to the tma ls state (median where several)");
  lines.push(["agent/mode".padEnd(20), ...STEPS.map((s) => s.padStart(12))].join(""));
  for (const r of reports) {
    const cells = STEPS.map((step) => {
      const m = median(r.latencies.filter((l) => l.step === step).map((l) => l.seconds));
      return (m === undefined ? "-" : m.toFixed(2)).padStart(12);
    });
    lines.push([walkName(r).padEnd(20), ...cells].join(""));
  }
  lines.push("");
  for (const r of reports) {
    const failed = r.checks.filter((c) => !c.ok);
    lines.push(
      `${walkName(r)}: ${r.checks.length - failed.length}/${r.checks.length} checks pass`,
    );
    for (const c of failed) {
      lines.push(`  FAIL ${c.name}: ${c.detail}${c.gap ? ` [known gap: ${c.gap}]` : ""}`);
    }
    for (const n of r.notes) lines.push(`  note: ${n}`);
  }
  return lines.join("\n");
}

/**
 * Records real screens of the pinned agents as fixtures:
 * `fixtures/real/<agent>_<state>[_<variant>]_w<width>.txt`
 * plus `fixtures/real/<agent>_processes.txt` (the pane's process tree) and `recording.json`.
 *
 * Each agent runs at each width (100 and 140 columns, 40 rows) against the loopback mock model,
 * in a private tmux server with a scratch HOME, through: its first-run dialogs, idle after start,
 * working during a `slow` turn, blocked at the `probe-tool` permission prompt, idle after
 * approving, and idle after an interrupt of a slow turn. Every capture is redacted (paths, the
 * scratch folder, the host name) with `src/core/redact.ts` before it is written.
 *
 * Run (after `deno task e2e:install`):
 *   deno run --allow-read --allow-write --allow-env --allow-run --allow-net=127.0.0.1 \
 *     scripts/record_real_screens.ts [agent…] [--widths=100,140] [--out=fixtures/real] [--keep]
 *     [--processes-only]   (only the process trees, at the first width)
 *
 * @module
 */

import { redact } from "../src/core/redact.ts";
import { type AgentDriver, type AgentRun, AGENTS } from "../tests/e2e/agents.ts";
import { AgentPane, sleep } from "../tests/e2e/pane.ts";
import { DONE_TEXT } from "../tests/e2e/mock_script.ts";
import {
  AGENT_NAMES,
  AGENT_PINS,
  type AgentName,
  isAgentName,
  REPO_ROOT,
} from "../tests/e2e/pins.ts";
import { withE2eSession } from "../tests/e2e/session.ts";
import type { ProcessRow, ScratchTmux } from "../tests/e2e/tmux.ts";

/** The pane height of every recording. */
const HEIGHT = 40;

/** The header state of a fixture. */
type FixtureState = "idle" | "working" | "blocked" | "unknown";

/** What the recording learned about one agent at one width, for `recording.json`. */
interface RunReport {
  agent: AgentName;
  version: string;
  width: number;
  files: string[];
  dialogs: string[];
  startMs?: number;
  interruptPresses?: number;
  probeFileCreated?: boolean;
  error?: string;
}

/** Redaction of one run: its scratch folders, the host name. */
interface Redaction {
  home: string;
  root: string;
  hosts: string[];
}

function redactText(text: string, r: Redaction): string {
  const rootName = r.root.slice(r.root.lastIndexOf("/") + 1);
  return redact(text, {
    home: r.home,
    literals: [r.root, rootName, ...r.hosts],
    patterns: [/tma-e2e-[0-9a-f]{8,}/g],
  });
}

/** The fixture text: the header (C96), `---`, then the raw capture. */
function fixtureText(
  fields: { agent: AgentName; state: FixtureState; title: string; command: string },
  pane: { pid: number; height: number; capturedAt: number; capture: string },
): string {
  const header = [
    `# agent: ${fields.agent}`,
    `# state: ${fields.state}`,
    `# title: ${fields.title}`,
    `# command: ${fields.command}`,
    `# pid: ${pane.pid}`,
    `# captured_at: ${pane.capturedAt}`,
    `# height: ${pane.height}`,
    "---",
  ];
  return header.join("\n") + "\n" + pane.capture;
}

/** Captures the pane and writes one redacted fixture; returns the file name. */
async function capture(
  ctx: { tmux: ScratchTmux; pane: string; agent: AgentName; width: number; out: string },
  what: { state: FixtureState; variant?: string; redaction: Redaction },
): Promise<string> {
  const screen = await ctx.tmux.capture(ctx.pane);
  const capturedAt = Date.now();
  const facts = await ctx.tmux.facts(ctx.pane);
  const variant = what.variant ? `_${what.variant}` : "";
  const name = `${ctx.agent}_${what.state}${variant}_w${ctx.width}.txt`;
  const text = fixtureText(
    {
      agent: ctx.agent,
      state: what.state,
      title: redactText(facts.title, what.redaction),
      command: facts.command,
    },
    {
      pid: facts.pid,
      height: facts.height,
      capturedAt,
      capture: redactText(screen, what.redaction),
    },
  );
  await Deno.writeTextFile(`${ctx.out}/${name}`, text);
  console.log(`  wrote ${name} (title ${JSON.stringify(facts.title.trimEnd())})`);
  return name;
}

/**
 * The process tree of a pane as a `ps`-style table. Identity rules read the argv (for example
 * `…/node_modules/@openai/codex…/codex`), so only the private prefixes are replaced: the scratch
 * root by `<scratch>`, the repository by `<repo>` and host names by `<host>`; system paths such
 * as `/usr/bin/node` stay.
 */
function processTable(rows: ProcessRow[], redaction: Redaction): string {
  const scrub = (text: string) => {
    let out = text.replaceAll(redaction.root, "<scratch>").replaceAll(REPO_ROOT, "<repo>");
    for (const host of redaction.hosts) {
      out = out.replace(
        new RegExp(`(?<![\\w-])${host.replace(/[.]/g, "\\.")}(?![\\w-])`, "g"),
        "<host>",
      );
    }
    return out;
  };
  const lines = ["PID PPID PGID TPGID COMM ARGS"];
  for (const r of rows) {
    lines.push(`${r.pid} ${r.ppid} ${r.pgid} ${r.tpgid} ${r.comm} ${scrub(r.args)}`);
  }
  return lines.join("\n") + "\n";
}

/** Drives one agent at one width through every state, writing fixtures as it goes. */
async function recordOne(
  driver: AgentDriver,
  options: {
    width: number;
    out: string;
    keep: boolean;
    processes: boolean;
    processesOnly: boolean;
  },
): Promise<RunReport> {
  const agent = driver.agent;
  const report: RunReport = {
    agent,
    version: AGENT_PINS[agent].version,
    width: options.width,
    files: [],
    dialogs: [],
  };
  await withE2eSession(async ({ root, mock, tmux }) => {
    const run: AgentRun = await driver.prepare({
      root,
      mockUrl: mock.url,
      tag: `w${options.width}`,
    });
    const hosts = (await tmux.run(["display-message", "-p", "#{host}\n#{host_short}"]))
      .split("\n").map((h) => h.trim()).filter((h) => h.length > 0);
    const redaction: Redaction = { home: run.home, root, hosts };
    const started = Date.now();
    const pane = await AgentPane.launch(run, { tmux, width: options.width, height: HEIGHT });
    const ctx = { tmux, pane: pane.id, agent, width: options.width, out: options.out };
    const shot = async (state: FixtureState, variant?: string) => {
      if (options.processesOnly) return;
      report.files.push(await capture(ctx, { state, variant, redaction }));
    };
    try {
      // 1. First-run dialogs, each captured before it is answered.
      const seen = await pane.passFirstRun(driver, {
        onDialog: (name) => shot("blocked", name),
      });
      report.dialogs = seen.map((d) => d.name);
      await pane.waitForQuiet({ quietMs: 2000, timeoutMs: 15_000 });
      report.startMs = Date.now() - started;
      await shot("idle", "start");

      // 2. Working: a slow reply streams for about ten seconds.
      await pane.sendPrompt("hello, reply slow please", { mock });
      await pane.waitFor(driver.working, { timeoutMs: 30_000 });
      await sleep(2500);
      await shot("working");
      await pane.waitFor(/streamed slowly\./, { timeoutMs: 90_000 });
      await pane.waitForGone(driver.working, { timeoutMs: 30_000 });
      await pane.waitForQuiet({ timeoutMs: 10_000 });

      // 3. Blocked at the permission prompt of the probe command.
      await pane.sendPrompt("please run probe-tool", { mock });
      await pane.waitFor(driver.blocked, { timeoutMs: 60_000 });
      await sleep(1500);
      await shot("blocked", "permission");
      if (options.processes) {
        const rows = await tmux.processTree(pane.id);
        const facts = await tmux.facts(pane.id);
        const table = [
          `# agent: ${agent}`,
          `# version: ${AGENT_PINS[agent].version}`,
          `# command: ${facts.command}`,
          `# pane_pid: ${facts.pid}`,
          `# alternate_on: ${facts.alternate ? 1 : 0}`,
          `# captured: at the permission prompt; ps -o pid,ppid,pgid,tpgid,comm,args`,
          "---",
          processTable(rows, redaction),
        ].join("\n");
        await Deno.writeTextFile(`${options.out}/${agent}_processes.txt`, table);
        report.files.push(`${agent}_processes.txt`);
        console.log(`  wrote ${agent}_processes.txt (${rows.length} processes)`);
      }
      if (options.processesOnly) return;

      // 4. Approve once; the tool runs and the model closes the turn.
      await pane.answer(driver.approve, driver.blocked);
      await pane.waitFor(new RegExp(DONE_TEXT.replace(/[.()]/g, "\\$&")), {
        timeoutMs: 60_000,
      });
      await pane.waitForGone(driver.working, { timeoutMs: 30_000 });
      await pane.waitForQuiet({ timeoutMs: 10_000 });
      await shot("idle", "done");
      report.probeFileCreated = await Deno.stat(`${run.project}/probe_created.txt`)
        .then(() => true, () => false);

      // 5. Interrupt a slow turn. The interrupt has landed when the agent hangs up on the mock's
      // stream (the screen alone misleads: OpenCode swaps `esc interrupt` for another hint).
      const prompt = "one more slow answer";
      await pane.sendPrompt(prompt, { mock });
      await pane.waitFor(driver.working, { timeoutMs: 30_000 });
      await sleep(2500);
      const aborted = () =>
        mock.requests.some((r) => r.prompt?.includes(prompt) && r.outcome === "aborted");
      let presses = 0;
      while (presses < 3 && !aborted()) {
        await pane.sendKeys(driver.interrupt);
        presses += 1;
        for (let i = 0; i < 25 && !aborted(); i++) await sleep(100);
        // One press did not land (OpenCode asks for a second Esc): keep that screen too.
        if (presses === 1 && !aborted()) await shot("working", "interrupt_pending");
      }
      if (!aborted()) {
        throw new Error(`${presses} × ${driver.interrupt.join(" ")} did not interrupt`);
      }
      report.interruptPresses = presses;
      await pane.waitForGone(driver.working, { timeoutMs: 15_000 });
      if (driver.interrupted) {
        await pane.waitFor(driver.interrupted, { timeoutMs: 10_000 }).catch(() => {});
      }
      await pane.waitForQuiet({ timeoutMs: 10_000 });
      await shot("idle", "interrupted");
    } catch (error) {
      report.error = error instanceof Error ? error.message.split("\n")[0] : String(error);
      console.error(`  ${agent} w${options.width}: ${report.error}`);
      // The failing screen goes to the git-ignored cache, never among the fixtures.
      const errors = `${REPO_ROOT}/.cache/e2e-errors`;
      await Deno.mkdir(errors, { recursive: true });
      await capture({ ...ctx, out: errors }, { state: "unknown", variant: "error", redaction })
        .then((name) => console.error(`  the failing screen is in ${errors}/${name}`))
        .catch(() => {});
    }
  }, { keep: options.keep, log: (line) => console.log(`  cleanup: ${line}`) });
  return report;
}

function parseArgs(args: string[]) {
  const agents: AgentName[] = [];
  let widths = [100, 140];
  let out = `${REPO_ROOT}/fixtures/real`;
  let keep = false;
  let processesOnly = false;
  for (const arg of args) {
    if (arg.startsWith("--widths=")) widths = arg.slice(9).split(",").map(Number);
    else if (arg.startsWith("--out=")) out = arg.slice(6);
    else if (arg === "--keep") keep = true;
    else if (arg === "--processes-only") processesOnly = true;
    else if (isAgentName(arg)) agents.push(arg);
    else throw new Error(`unknown argument ${arg}; agents are ${AGENT_NAMES.join(", ")}`);
  }
  if (processesOnly) widths = widths.slice(0, 1);
  const all = agents.length > 0 ? agents : [...AGENT_NAMES];
  return { agents: all, widths, out, keep, processesOnly };
}

async function main(): Promise<number> {
  const options = parseArgs(Deno.args);
  await Deno.mkdir(options.out, { recursive: true });
  const reports: RunReport[] = [];
  for (const agent of options.agents) {
    for (const width of options.widths) {
      console.log(`${agent} at ${width}x${HEIGHT}`);
      reports.push(
        await recordOne(AGENTS[agent], {
          width,
          out: options.out,
          keep: options.keep,
          processes: width === options.widths[0],
          processesOnly: options.processesOnly,
        }),
      );
    }
  }
  if (options.processesOnly) return reports.some((r) => r.error) ? 1 : 0;
  // Merge with an earlier recording of other agents, so agents can be re-recorded one by one.
  const manifestPath = `${options.out}/recording.json`;
  let earlier: RunReport[] = [];
  try {
    earlier = JSON.parse(await Deno.readTextFile(manifestPath)).runs ?? [];
  } catch {
    // first recording
  }
  const kept = earlier.filter((r) =>
    !reports.some((n) => n.agent === r.agent && n.width === r.width)
  );
  const runs = [...kept, ...reports].sort((a, b) =>
    a.agent.localeCompare(b.agent) || a.width - b.width
  );
  await Deno.writeTextFile(
    manifestPath,
    JSON.stringify({ recorder: "scripts/record_real_screens.ts", height: HEIGHT, runs }, null, 2) +
      "\n",
  );
  const failed = reports.filter((r) => r.error);
  console.log(
    `recorded ${reports.length - failed.length}/${reports.length} runs into ${options.out}`,
  );
  return failed.length === 0 ? 0 : 1;
}

if (import.meta.main) Deno.exit(await main());

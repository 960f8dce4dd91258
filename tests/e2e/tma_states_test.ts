/**
 * tma against the real agents (issue 7, item 3): for each installed agent, in `hooks` mode (tma's
 * hooks installed into the scratch HOME first) and in `screen` mode (no hooks), the states
 * `tma ls --json --pane P` reports through a whole walk: first-run dialogs, idle, working,
 * blocked/permission, every bundled answer through `tma act` (approve, deny, steer, steer_now,
 * interrupt, compact, question_reject where the agent declares it), done. The walk is in
 * `tma_scenario.ts`; the last test prints a table of checks and screen-to-state seconds.
 *
 * Two walks run again with a tma daemon on their scratch server (issue 17): Claude with hooks and
 * Codex without (a hookless agent, whose prompts the daemon sees through its control clients).
 * Narrow a run with `TMA_E2E_AGENTS=claude,pi` and `TMA_E2E_MODES=hooks`; `TMA_E2E_DAEMON=1` runs
 * every walk with a daemon instead. Run with `deno task e2e`.
 */

import { AGENT_NAMES, AGENT_PINS, agentBin, type AgentName } from "./pins.ts";
import { type Mode, runScenario, type ScenarioReport, summaryTable } from "./tma_scenario.ts";
import { withE2eSession } from "./session.ts";

function installed(bin: string): boolean {
  try {
    Deno.statSync(bin);
    return true;
  } catch {
    return false;
  }
}

function listFromEnv<T extends string>(name: string, all: readonly T[]): readonly T[] {
  const raw = Deno.env.get(name);
  if (!raw) return all;
  const wanted = raw.split(",").map((s) => s.trim());
  return all.filter((x) => wanted.includes(x));
}

/**
 * Failures that an open issue names, keyed `<agent>/<mode>` then check name, with the issue and
 * the reason. They are reported, never hidden, and do not fail the test. Empty: every check must
 * pass on every agent in both modes (issue 12).
 */
const KNOWN_GAPS: Record<string, Record<string, string>> = {};

const MODES: readonly Mode[] = ["hooks", "screen"];
const reports: ScenarioReport[] = [];
const started = Date.now();

/** The walks that run again with a daemon (issue 17), unless every walk already does. */
const DAEMON_WALKS: readonly [AgentName, Mode][] = [["claude", "hooks"], ["codex", "screen"]];

const everyWalkDaemon = Deno.env.get("TMA_E2E_DAEMON") === "1";
const walks: { agent: AgentName; mode: Mode; daemon: boolean }[] = [];
for (const agent of listFromEnv<AgentName>("TMA_E2E_AGENTS", AGENT_NAMES)) {
  for (const mode of listFromEnv<Mode>("TMA_E2E_MODES", MODES)) {
    walks.push({ agent, mode, daemon: everyWalkDaemon });
  }
}
if (!everyWalkDaemon) {
  for (const [agent, mode] of DAEMON_WALKS) {
    if (walks.some((w) => w.agent === agent && w.mode === mode)) {
      walks.push({ agent, mode, daemon: true });
    }
  }
}

for (const { agent, mode, daemon } of walks) {
  Deno.test({
    name: `e2e: tma states of ${agent} ${AGENT_PINS[agent].version} (${mode}${
      daemon ? ", daemon" : ""
    })`,
    ignore: !installed(agentBin(agent)),
    sanitizeResources: false,
    sanitizeOps: false,
    async fn() {
      const walk = `${agent}/${mode}${daemon ? "+daemon" : ""}`;
      const log = (line: string) => console.log(`  [${walk}] ${line}`);
      const report = await withE2eSession(
        ({ root, mock, tmux }) =>
          runScenario({
            agent,
            mode,
            root,
            mock,
            tmux,
            daemon,
            gaps: KNOWN_GAPS[`${agent}/${mode}`],
          }),
        { log },
      );
      reports.push(report);
      const failed = report.checks.filter((c) => !c.ok && !c.gap);
      if (failed.length > 0) {
        throw new Error(
          `${walk}: ${failed.length} check(s) failed:\n` +
            failed.map((c) => `  ${c.name}: ${c.detail}`).join("\n") +
            (report.notes.length ? `\nnotes:\n  ${report.notes.join("\n  ")}` : ""),
        );
      }
    },
  });
}

Deno.test({
  name: "e2e: tma states summary (checks and screen-to-state seconds)",
  sanitizeResources: false,
  sanitizeOps: false,
  fn() {
    if (reports.length === 0) return;
    console.log(`\n${summaryTable(reports)}`);
    console.log(
      `\nwall time of the tma state tests: ${((Date.now() - started) / 1000).toFixed(0)} s`,
    );
  },
});

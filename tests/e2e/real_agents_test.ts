/**
 * The real agents against the mock model, without tma: each installed agent starts offline in a
 * private tmux server, raises its permission prompt for the probe command, runs it once approved
 * and closes the turn with the mock's done text. This pins the groundwork every tma e2e assertion
 * stands on (the launchers, the first-run dialogs, the mock's tool-call shapes).
 *
 * An agent that `deno task e2e:install` has not installed is skipped. Run with `deno task e2e`.
 */

import { assert, assertEquals } from "../harness/assert.ts";
import { AGENTS } from "./agents.ts";
import { AgentPane } from "./pane.ts";
import { DONE_TEXT } from "./mock_script.ts";
import { AGENT_NAMES, AGENT_PINS, agentBin } from "./pins.ts";
import { withE2eSession } from "./session.ts";

function installed(bin: string): boolean {
  try {
    Deno.statSync(bin);
    return true;
  } catch {
    return false;
  }
}

const DONE = new RegExp(DONE_TEXT.replace(/[.()]/g, "\\$&"));

for (const agent of AGENT_NAMES) {
  const driver = AGENTS[agent];
  Deno.test({
    name: `e2e: ${agent} ${AGENT_PINS[agent].version} asks before the probe command and runs it`,
    ignore: !installed(agentBin(agent)),
    sanitizeResources: false,
    sanitizeOps: false,
    async fn() {
      await withE2eSession(async ({ root, mock, tmux }) => {
        const run = await driver.prepare({ root, mockUrl: mock.url, tag: "test" });
        const pane = await AgentPane.launch(run, { tmux, width: 100, height: 40 });
        await pane.passFirstRun(driver);
        await pane.sendPrompt("please run probe-tool", { mock });
        await pane.waitFor(driver.blocked, { timeoutMs: 60_000 });
        const before = await Deno.stat(`${run.project}/probe_created.txt`).then(() => 1, () => 0);
        assertEquals(before, 0, "the command must not run before it is approved");
        await pane.answer(driver.approve, driver.blocked);
        await pane.waitFor(DONE, { timeoutMs: 60_000 });
        await Deno.stat(`${run.project}/probe_created.txt`);
        const routes = mock.requests.map((r) => r.reply);
        assert(routes.includes("tool"), "the mock answered with a tool call");
        assert(routes.includes("done"), "the agent sent the tool result back");
      });
    },
  });
}

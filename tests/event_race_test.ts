/**
 * Issue 13 item 3 (R12, D47): the newest hook event is never lost under
 * load. Twenty events of one pane start at once, each with its own evidence
 * time, beside five detection cycles; whatever order they finish in, the
 * pane ends on the newest event's claim. `TMA_RACE_ROUNDS` raises the number
 * of rounds (the figures in the closing note use 100).
 * @module
 */
import { assertEquals } from "./harness/assert.ts";
import { payload, sessionOf } from "./harness/hook.ts";
import { tmuxTest } from "./harness/tmux.ts";
import { BUNDLED_AGENTS } from "../src/assets/bundled.ts";
import { buildModels } from "../src/core/agent_model.ts";
import { readHookManifest } from "../src/core/hook/hook_manifest.ts";
import { parsePayload } from "../src/core/hook/payload.ts";
import { defaultHookSettings } from "../src/core/hook/settings.ts";
import { runCycle } from "../src/runtime/cycle/run.ts";
import { intakeEvent } from "../src/runtime/hook/intake.ts";
import { bundledManifests } from "../src/runtime/manifest/load.ts";

const ROUNDS = Number(Deno.env.get("TMA_RACE_ROUNDS") ?? "8");
const EVENTS = 20;
const CYCLES = 5;

tmuxTest(
  "tma event R12, D47: under load the newest of 20 racing events always lands",
  async (t) => {
    const agent = await t.standIn("claude");
    await agent.draw("✻ Churned for 3s\n\n❯ \n⏵⏵ accept edits on\n");
    const manifest = readHookManifest(BUNDLED_AGENTS.claude, { path: "claude", stem: "claude" });
    const models = buildModels(bundledManifests().agents.values());
    const settings = { ...defaultHookSettings(), replyLane: false };
    const session = sessionOf("claude", "Stop");
    let slowest = 0;
    const fire = async (kind: string, at: number) => {
      const t0 = performance.now();
      const r = await intakeEvent({
        server: t.server,
        agent: "claude",
        kind,
        pane: agent.pane,
        payload: parsePayload(payload("claude", kind).replace(sessionOf("claude", kind), session))!,
        manifest,
        settings,
        evidenceAtMs: at,
        now: () => Date.now(),
      });
      slowest = Math.max(slowest, performance.now() - t0);
      return r;
    };
    const cycle = () =>
      runCycle({
        server: t.server,
        models,
        windows: { dwellSecs: 3, hookDecaySecs: 60, blockedDecaySecs: 300 },
        now: () => Date.now(),
        forceCapture: new Set([agent.pane]),
      });
    await fire("SessionStart", Date.now());
    const lost: string[] = [];
    // A round whose newest event met a server too loaded to answer within
    // tmux's timeout says nothing about the compare-and-swap: counted apart.
    let unanswered = 0;
    for (let round = 0; round < ROUNDS; round++) {
      const base = Date.now() + 1000;
      // Odd evidence times say working, even ones idle; the newest (last) says working.
      const events = Array.from({ length: EVENTS }, (_, i) => i).map((i) =>
        fire(i % 2 === 1 ? "PreToolUse" : "Stop", base + i)
      );
      const outcomes = await Promise.allSettled([
        ...events,
        ...Array.from({ length: CYCLES }, cycle),
      ]);
      if (outcomes[EVENTS - 1].status === "rejected") {
        unanswered++;
        continue;
      }

      const [state, hookAt] = await Promise.all([
        t.option(agent.pane, "@agent_state"),
        t.option(agent.pane, "@tma_hook_at"),
      ]);
      if (state !== "working" || hookAt !== String(base + EVENTS - 1)) {
        lost.push(`round ${round}: ${state} at ${hookAt}, newest ${base + EVENTS - 1}`);
      }
    }
    console.log(
      `lost the newest event in ${lost.length} of ${ROUNDS} rounds (${unanswered} more where ` +
        `tmux did not answer it in time); slowest event ${Math.round(slowest)} ms`,
    );
    assertEquals(lost, []);
  },
);

/**
 * The Codex pull (I29-I31): a rollout file in a scratch CODEX_HOME becomes
 * guarded writes dated by its mtime, first through `pullCodexTelemetry`
 * directly, then end to end through the cycle behind `tma ls --json`.
 */
import { assert, assertEquals } from "./harness/assert.ts";
import { runTma, type ScratchTmux, tmuxTest } from "./harness/tmux.ts";
import { BUNDLED_AGENTS } from "../src/assets/bundled.ts";
import { parseAgentManifest, type ParsedAgentManifest } from "../src/core/manifest/parse.ts";
import { RolloutMemo } from "../src/runtime/telemetry/codex_rollout.ts";
import { pullCodexTelemetry, pullTelemetry, wantsPull } from "../src/runtime/telemetry/pull.ts";

const SESSION = "019fa1b2-3c4d-7e5f-8a9b-0c1d2e3f4a5b";
const MODEL = "gpt-5.3-codex";

const codex: ParsedAgentManifest = parseAgentManifest(BUNDLED_AGENTS.codex, {
  path: "bundled:codex.toml",
  stem: "codex",
});
const claude: ParsedAgentManifest = parseAgentManifest(BUNDLED_AGENTS.claude, {
  path: "bundled:claude.toml",
  stem: "claude",
});

/** A rollout tail: a turn_context, then a token_count at `pct` percent of a 272k window. */
function rollout(
  opts: { pct: number; primary: number; secondary: number; resetsAtS: number },
): string {
  const window = 272000;
  const used = Math.round((window * opts.pct) / 100);
  const lines = [
    { timestamp: "2026-07-25T18:02:55.210Z", type: "session_meta", payload: { id: SESSION } },
    {
      timestamp: "2026-07-25T18:02:55.211Z",
      type: "turn_context",
      payload: { cwd: "/tmp", model: MODEL },
    },
    {
      timestamp: "2026-07-25T18:05:12.481Z",
      type: "event_msg",
      payload: {
        type: "token_count",
        info: {
          // The sum is the gauge's numerator; neither term is a footprint count (I30).
          total_token_usage: { input_tokens: used - 4000, output_tokens: 4000, total_tokens: used },
          last_token_usage: {
            input_tokens: used - 4000,
            output_tokens: 300,
            total_tokens: used - 3700,
          },
          model_context_window: window,
        },
        rate_limits: {
          primary: { used_percent: opts.primary, window_minutes: 300, resets_at: opts.resetsAtS },
          secondary: { used_percent: opts.secondary, window_minutes: 10080 },
        },
      },
    },
  ];
  return lines.map((line) => JSON.stringify(line)).join("\n") + "\n";
}

/** Writes the session's rollout file under `codexHome` and returns its path. */
async function writeRollout(codexHome: string, text: string): Promise<string> {
  const dir = `${codexHome}/sessions/2026/07/25`;
  await Deno.mkdir(dir, { recursive: true });
  const path = `${dir}/rollout-2026-07-25T18-02-55-${SESSION}.jsonl`;
  await Deno.writeTextFile(path, text);
  return path;
}

async function mtimeMs(path: string): Promise<number> {
  return (await Deno.stat(path)).mtime!.getTime();
}

Deno.test("telemetry pull I29: wantsPull needs a file-tail Codex channel and a registered session", () => {
  assertEquals(wantsPull(codex, { "@agent_session": SESSION }), true);
  assertEquals(wantsPull(codex, {}), false);
  assertEquals(wantsPull(codex, { "@agent_session": "" }), false);
  assertEquals(wantsPull(claude, { "@agent_session": SESSION }), false);
  assertEquals(wantsPull({ ...codex, telemetry: undefined }, { "@agent_session": SESSION }), false);
});

Deno.test("telemetry pull I29-I31: a rollout tail plans a gauge, quota and model dated by its mtime, no tokens", async () => {
  const dir = await Deno.makeTempDir({ prefix: "tma-pull-" });
  try {
    const nowMs = Date.now();
    const resetsAtS = Math.floor(nowMs / 1000) + 3600;
    const path = await writeRollout(
      `${dir}/codex`,
      rollout({ pct: 50, primary: 30, secondary: 12, resetsAtS }),
    );
    const evidence = String(await mtimeMs(path));
    const env = (name: string) => (name === "CODEX_HOME" ? `${dir}/codex` : undefined);
    const target = { paneId: "%7", options: { "@agent_session": SESSION }, manifest: codex };
    const chains = await pullCodexTelemetry(target, { nowMs, env, memo: new RolloutMemo() });
    assertEquals(chains, [
      {
        pane: "%7",
        guard: `#{e|<=:#{@agent_context_at},${evidence}}`,
        writes: [
          { name: "@agent_context_pct", value: "50" },
          { name: "@agent_model", value: MODEL },
          { name: "@agent_context_at", value: evidence },
        ],
      },
      {
        pane: "%7",
        guard: `#{e|<=:#{@agent_quota_at},${evidence}}`,
        writes: [
          { name: "@agent_quota_pct", value: "30" },
          { name: "@agent_quota_window", value: "primary" },
          { name: "@agent_quota_resets_at", value: String(resetsAtS * 1000) },
          { name: "@agent_quota_at", value: evidence },
        ],
      },
    ]);
    // Once stamped, the unmoved file plans nothing: no write per cycle.
    const stamped = await pullTelemetry([target], { nowMs, env, memo: new RolloutMemo() });
    const options = stamped.get("%7")!.options;
    assertEquals(options["@agent_context_pct"], "50");
    assertEquals(options["@agent_tokens"], undefined);
    const again = await pullTelemetry([{ ...target, options }], {
      nowMs,
      env,
      memo: new RolloutMemo(),
    });
    assertEquals(again.size, 0);
    // A session with no file is a miss, and so is a pane that is not Codex.
    const miss = await pullTelemetry([
      {
        paneId: "%8",
        options: { "@agent_session": "019fa1b2-0000-7e5f-8a9b-0c1d2e3f4a5b" },
        manifest: codex,
      },
      { paneId: "%9", options: { "@agent_session": SESSION }, manifest: claude },
    ], { nowMs, env, memo: new RolloutMemo() });
    assertEquals(miss.size, 0);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

interface Row {
  pane: string;
  agent: string;
  context: number | null;
  context_at_ms: number | null;
  tokens: number | null;
  quota: number | null;
  quota_window: string | null;
  quota_resets_at_ms: number | null;
  quota_at_ms: number | null;
  cost_usd: number | null;
  model: string | null;
}

async function lsRow(t: ScratchTmux, pane: string, codexHome: string): Promise<Row> {
  const out = await runTma(t, ["ls", "--json"], { env: { CODEX_HOME: codexHome } });
  assertEquals(out.code, 0, out.stderr);
  const doc = JSON.parse(out.stdout) as { agents: Row[] };
  const row = doc.agents.find((r) => r.pane === pane);
  assert(row, `no row for ${pane} in ${out.stdout}`);
  return row;
}

tmuxTest(
  "telemetry pull I29, P50-P55: a Codex pane gets its gauge from the cycle behind ls --json",
  async (t) => {
    const codexHome = `${t.dir}/codex`;
    const resetsAtS = Math.floor(Date.now() / 1000) + 3600;
    const path = await writeRollout(
      codexHome,
      rollout({ pct: 50, primary: 30, secondary: 12, resetsAtS }),
    );
    const evidence = await mtimeMs(path);
    const agent = await t.standIn("codex");
    await t.tmux("set-option", "-p", "-t", agent.pane, "@agent_session", SESSION);

    const row = await lsRow(t, agent.pane, codexHome);
    assertEquals(row.agent, "codex");
    assertEquals(row.context, 50);
    assertEquals(row.context_at_ms, evidence);
    assertEquals(row.quota, 30);
    assertEquals(row.quota_window, "primary");
    assertEquals(row.quota_resets_at_ms, resetsAtS * 1000);
    assertEquals(row.quota_at_ms, evidence);
    assertEquals(row.model, MODEL);
    assertEquals(row.tokens, null);
    assertEquals(row.cost_usd, null);
    // Stamped on the pane, not only reported.
    assertEquals(await t.option(agent.pane, "@agent_context_pct"), "50");
    assertEquals(await t.option(agent.pane, "@agent_context_at"), String(evidence));
    assertEquals(await t.option(agent.pane, "@agent_tokens"), "");

    // The file is rewritten but dated before the stored reading: refused.
    await Deno.writeTextFile(path, rollout({ pct: 90, primary: 95, secondary: 95, resetsAtS }));
    const past = new Date(evidence - 60_000);
    await Deno.utime(path, past, past);
    const held = await lsRow(t, agent.pane, codexHome);
    assertEquals(held.context, 50);
    assertEquals(held.context_at_ms, evidence);
    assertEquals(held.quota, 30);
    assertEquals(await t.option(agent.pane, "@agent_context_pct"), "50");

    // A newer write moves it forward.
    const later = new Date(evidence + 60_000);
    await Deno.utime(path, later, later);
    const moved = await lsRow(t, agent.pane, codexHome);
    assertEquals(moved.context, 90);
    assertEquals(moved.context_at_ms, later.getTime());
    assertEquals(moved.quota, 95);
    assertEquals(await t.option(agent.pane, "@agent_quota_pct"), "95");
  },
);

tmuxTest("telemetry pull I29: a Codex pane without @agent_session gets no gauge", async (t) => {
  const codexHome = `${t.dir}/codex`;
  const resetsAtS = Math.floor(Date.now() / 1000) + 3600;
  await writeRollout(codexHome, rollout({ pct: 50, primary: 30, secondary: 12, resetsAtS }));
  const agent = await t.standIn("codex");
  const row = await lsRow(t, agent.pane, codexHome);
  assertEquals(row.context, null);
  assertEquals(row.context_at_ms, null);
  assertEquals(row.quota, null);
  assertEquals(row.model, null);
});

/**
 * The push intake end to end on a scratch tmux server: a Claude statusline
 * payload through `intakeContext` stamps the pane under the evidence-time
 * guards and the session-ownership filter (I8, I9, I18-I21, D44, P17-P26).
 */
import { assertEquals, assertRejects } from "./harness/assert.ts";
import { runTma, type ScratchTmux, tmuxTest } from "./harness/tmux.ts";
import { BUNDLED_AGENTS } from "../src/assets/bundled.ts";
import { parseAgentManifest, type ParsedAgentManifest } from "../src/core/manifest/parse.ts";
import { MalformedPayloadError, UnknownFormatError } from "../src/core/telemetry/errors.ts";
import { parseTelemetry } from "../src/core/telemetry/registry.ts";
import { planTelemetryWrites } from "../src/core/telemetry/stamp_plan.ts";
import { intakeContext } from "../src/runtime/telemetry/intake.ts";
import { writeChains } from "../src/tmux/writer.ts";

const SESSION = "4f1c2d3e-5a6b-4c7d-8e9f-0a1b2c3d4e5f";
const T0 = 1_785_000_000_000;
const RESETS_S = 1_785_018_000; // well after every intake time below

const claude: ParsedAgentManifest = parseAgentManifest(BUNDLED_AGENTS.claude, {
  path: "bundled:claude.toml",
  stem: "claude",
});

const TELEMETRY_OPTIONS = [
  "@agent_context_pct",
  "@agent_context_at",
  "@agent_tokens",
  "@agent_tokens_at",
  "@agent_model",
  "@agent_quota_pct",
  "@agent_quota_window",
  "@agent_quota_resets_at",
  "@agent_quota_at",
  "@agent_cost_usd",
] as const;

/** A Claude statusline payload (the fields tma reads, plus a few it ignores). */
function statusline(overrides: {
  session?: string;
  pct?: number | null;
  tokens?: number;
  cost?: number;
  fiveHour?: number;
  sevenDay?: number;
  noLimits?: boolean;
} = {}): string {
  const payload: Record<string, unknown> = {
    hook_event_name: "Status",
    session_id: overrides.session ?? SESSION,
    version: "2.1.212",
    cwd: "/tmp/proj",
    model: { id: "claude-opus-4-8", display_name: "Opus" },
    context_window: overrides.pct === null ? null : {
      used_percentage: overrides.pct ?? 42,
      total_input_tokens: overrides.tokens ?? 84000,
      context_window_size: 200000,
    },
    cost: { total_cost_usd: overrides.cost ?? 1.2345, total_duration_ms: 60000 },
  };
  if (!overrides.noLimits) {
    payload.rate_limits = {
      five_hour: { used_percentage: overrides.fiveHour ?? 61.6, resets_at: RESETS_S },
      seven_day: { used_percentage: overrides.sevenDay ?? 20, resets_at: RESETS_S + 86400 },
    };
  }
  return JSON.stringify(payload);
}

async function telemetryOf(t: ScratchTmux, pane: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const name of TELEMETRY_OPTIONS) out[name] = await t.option(pane, name);
  return out;
}

async function claudePane(t: ScratchTmux): Promise<string> {
  const agent = await t.standIn("claude");
  await t.tmux("set-option", "-p", "-t", agent.pane, "@agent_session", SESSION);
  return agent.pane;
}

tmuxTest(
  "tma event --kind context I18-I21: a Claude statusline payload stamps gauge, tokens, model, quota and cost",
  async (t) => {
    const pane = await claudePane(t);
    await intakeContext({
      server: t.server,
      pane,
      manifest: claude,
      payload: statusline(),
      nowMs: T0,
    });
    assertEquals(await telemetryOf(t, pane), {
      "@agent_context_pct": "42",
      "@agent_context_at": String(T0),
      "@agent_tokens": "84000",
      "@agent_tokens_at": String(T0),
      "@agent_model": "claude-opus-4-8",
      "@agent_quota_pct": "62",
      "@agent_quota_window": "five_hour",
      "@agent_quota_resets_at": String(RESETS_S * 1000),
      "@agent_quota_at": String(T0),
      "@agent_cost_usd": "1.2345",
    });
    // The guard's scratch flag never outlives a chain.
    assertEquals(await t.option(pane, "@tma_guard"), "");
  },
);

tmuxTest(
  "tma event --kind context P18, P25: a payload with an older evidence time than the stored one is refused",
  async (t) => {
    const pane = await claudePane(t);
    const newer = statusline({ pct: 55, tokens: 110000, cost: 2.5, fiveHour: 70 });
    await intakeContext({
      server: t.server,
      pane,
      manifest: claude,
      payload: newer,
      nowMs: T0 + 2000,
    });
    const stamped = await telemetryOf(t, pane);
    assertEquals(stamped["@agent_context_pct"], "55");
    // The older payload arrives late: its evidence (intake time) is behind.
    const older = statusline({ pct: 10, tokens: 20000, cost: 0.5, fiveHour: 5, sevenDay: 1 });
    await intakeContext({
      server: t.server,
      pane,
      manifest: claude,
      payload: older,
      nowMs: T0 + 1000,
    });
    assertEquals(await telemetryOf(t, pane), stamped);
    // Two intakes racing: this one read the pane before the newer write
    // landed, so only the server-side guard stands between it and the
    // gauge. Replay its plan from that stale (empty) read.
    const stale = planTelemetryWrites(
      {},
      parseTelemetry("claude-statusline-json", older, {
        nowMs: T0 + 1000,
      }),
      { evidenceMs: T0 + 1000, channelCarriesTokens: true },
    );
    assertEquals(stale.map((chain) => chain.lane), ["context", "quota"]);
    for (const chain of stale) {
      const verdict = await writeChains(t.server, [{
        pane,
        guard: chain.guard,
        writes: chain.writes,
      }]);
      assertEquals(verdict.get(pane), false);
    }
    assertEquals(await telemetryOf(t, pane), stamped);
  },
);

tmuxTest(
  "tma event --kind context D44: a subagent's payload (foreign session id) changes nothing",
  async (t) => {
    const pane = await claudePane(t);
    await intakeContext({
      server: t.server,
      pane,
      manifest: claude,
      payload: statusline(),
      nowMs: T0,
    });
    const stamped = await telemetryOf(t, pane);
    const sub = statusline({
      session: "9e8d7c6b-0000-4000-8000-aaaaaaaaaaaa",
      pct: 3,
      cost: 0.01,
    });
    await intakeContext({
      server: t.server,
      pane,
      manifest: claude,
      payload: sub,
      nowMs: T0 + 1000,
    });
    assertEquals(await telemetryOf(t, pane), stamped);
  },
);

tmuxTest(
  "tma event --kind context I8, I9: a null context clears the gauge and advances its time; quota stays without rate_limits",
  async (t) => {
    const pane = await claudePane(t);
    await intakeContext({
      server: t.server,
      pane,
      manifest: claude,
      payload: statusline(),
      nowMs: T0,
    });
    const cleared = statusline({ pct: null, noLimits: true });
    await intakeContext({
      server: t.server,
      pane,
      manifest: claude,
      payload: cleared,
      nowMs: T0 + 500,
    });
    const after = await telemetryOf(t, pane);
    assertEquals(after["@agent_context_pct"], "");
    assertEquals(after["@agent_context_at"], String(T0 + 500));
    assertEquals(after["@agent_tokens"], "");
    assertEquals(after["@agent_tokens_at"], String(T0 + 500));
    assertEquals(after["@agent_quota_pct"], "62");
    assertEquals(after["@agent_quota_at"], String(T0));
    // A stale payload cannot bring the cleared value back.
    await intakeContext({
      server: t.server,
      pane,
      manifest: claude,
      payload: statusline(),
      nowMs: T0 + 100,
    });
    assertEquals(await t.option(pane, "@agent_context_pct"), "");
  },
);

tmuxTest(
  "tma event --kind context M23: no block, a non-event channel, an unknown format or a malformed payload write nothing",
  async (t) => {
    const pane = await claudePane(t);
    const payload = statusline();
    const bare: ParsedAgentManifest = { ...claude, telemetry: undefined };
    await intakeContext({ server: t.server, pane, manifest: bare, payload, nowMs: T0 });
    const pulled: ParsedAgentManifest = {
      ...claude,
      telemetry: { context: { channel: "file-tail", format: "claude-statusline-json" } },
    };
    await intakeContext({ server: t.server, pane, manifest: pulled, payload, nowMs: T0 });
    const unknown: ParsedAgentManifest = {
      ...claude,
      telemetry: { context: { channel: "event", format: "claude-json-v9" } },
    };
    await assertRejects(
      () => intakeContext({ server: t.server, pane, manifest: unknown, payload, nowMs: T0 }),
      UnknownFormatError,
    );
    await assertRejects(
      () =>
        intakeContext({ server: t.server, pane, manifest: claude, payload: "[1,2]", nowMs: T0 }),
      MalformedPayloadError,
    );
    for (const value of Object.values(await telemetryOf(t, pane))) assertEquals(value, "");
  },
);

tmuxTest(
  "tma event --kind context D44: a pane with no registered session accepts the payload; a vanished pane is a no-op",
  async (t) => {
    const agent = await t.standIn("claude");
    await intakeContext({
      server: t.server,
      pane: agent.pane,
      manifest: claude,
      payload: statusline({ session: "anything-at-all-1234" }),
      nowMs: T0,
    });
    assertEquals(await t.option(agent.pane, "@agent_context_pct"), "42");
    await intakeContext({
      server: t.server,
      pane: "%999",
      manifest: claude,
      payload: statusline(),
      nowMs: T0,
    });
  },
);

const pi: ParsedAgentManifest = parseAgentManifest(BUNDLED_AGENTS.pi, {
  path: "bundled:pi.toml",
  stem: "pi",
});

tmuxTest(
  "tma event --kind context D46: another agent's payload leaves a registered pane's telemetry alone",
  async (t) => {
    const pane = await claudePane(t);
    await t.tmux("set-option", "-p", "-t", pane, "@agent_name", "claude");
    await intakeContext({
      server: t.server,
      pane,
      manifest: claude,
      payload: statusline(),
      nowMs: T0,
    });
    const stamped = await telemetryOf(t, pane);
    // A pi run as a tool by the pane's claude inherits TMUX_PANE; its extension
    // forwards a payload with no session id, which the session filter lets by.
    const foreign = JSON.stringify({
      context_usage: { tokens: 1000, contextWindow: 200000, percent: 1 },
    });
    await intakeContext({
      server: t.server,
      pane,
      manifest: pi,
      payload: foreign,
      nowMs: T0 + 1000,
    });
    assertEquals(await telemetryOf(t, pane), stamped);
    // On a pane registered to pi, the same payload stamps.
    const piPane = (await t.standIn("pi")).pane;
    await t.tmux("set-option", "-p", "-t", piPane, "@agent_name", "pi");
    await intakeContext({
      server: t.server,
      pane: piPane,
      manifest: pi,
      payload: foreign,
      nowMs: T0,
    });
    assertEquals(await t.option(piPane, "@agent_context_pct"), "1");
  },
);

tmuxTest(
  "tma event --kind context --print-status I7: stamps the pane and prints the shim's line",
  async (t) => {
    const pane = await claudePane(t);
    const args = ["event", "--agent", "claude", "--kind", "context", "--payload", "-"];
    // (The payload's quota windows reset before today's clock, so no quota part.)
    const printed = await runTma(t, [...args, "--pane", pane, "--print-status"], {
      stdin: statusline(),
    });
    assertEquals([printed.code, printed.stdout], [0, "claude-opus-4-8 · context 42%\n"]);
    assertEquals(await t.option(pane, "@agent_context_pct"), "42");
    // Without the flag tma stays silent (R10), and with no pane it still prints.
    const quiet = await runTma(t, [...args, "--pane", pane], { stdin: statusline() });
    assertEquals([quiet.code, quiet.stdout], [0, ""]);
    const nowhere = await runTma(t, [...args, "--print-status"], {
      stdin: statusline(),
      env: { TMUX_PANE: "" },
    });
    assertEquals(nowhere.stdout.startsWith("claude-opus-4-8 · context 42%"), true);
  },
);

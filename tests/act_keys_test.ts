/**
 * The keys and text transports end to end (A1-A7, A11, A12, A17, A19, A20,
 * R5) and the prompt fingerprint (X. Beyond), against recording stand-in
 * agents on a scratch tmux server. Every assertion on delivery compares the
 * exact bytes a pane received between two markers.
 */
import { assert, assertEquals, assertRejects } from "./harness/assert.ts";
import { type ScratchTmux, tmuxTest } from "./harness/tmux.ts";
import { UsageError } from "../src/core/errors.ts";
import { parseActionManifest } from "../src/core/manifest/parse.ts";
import { fire } from "../src/actions/broker.ts";
import { action, brokerEnv, setOptions } from "./harness/act.ts";
import { recorder, screen } from "./harness/recorder.ts";

/** Fires `name` at a fresh recording stand-in showing `fixture`, returning the report and bytes. */
async function fireAt(
  t: ScratchTmux,
  options: {
    agent: string;
    fixture: string;
    action: string;
    text?: string;
    force?: boolean;
    optionsBefore?: Record<string, string>;
  },
) {
  const s = screen(options.fixture);
  const r = await recorder(t, options.agent, { height: s.height });
  await r.draw(s);
  if (options.optionsBefore) await setOptions(t, r.pane, options.optionsBefore);
  const env = brokerEnv(t);
  const { value, bytes } = await r.recordDuring(() =>
    fire(env, {
      action: action(options.action),
      pane: r.pane,
      text: options.text,
      force: options.force,
    })
  );
  const lock = await t.option(r.pane, "@agent_action");
  const delivered = await t.option(r.pane, "@tma_delivered");
  return { report: value, bytes, lock, delivered };
}

const CASES: {
  name: string;
  agent: string;
  fixture: string;
  action: string;
  text?: string;
  bytes: string;
  options?: Record<string, string>;
}[] = [
  {
    name: "A1: approve at Claude sends 1",
    agent: "claude",
    fixture: "claude_blocked_bash_w80",
    action: "approve",
    bytes: "1",
  },
  {
    name: "A2: deny at Claude sends Escape",
    agent: "claude",
    fixture: "claude_blocked_bash_w80",
    action: "deny",
    bytes: "\x1b",
  },
  {
    name: "A1: approve at Codex sends y",
    agent: "codex",
    fixture: "codex_blocked_exec_w80",
    action: "approve",
    bytes: "y",
  },
  {
    name: "A2: deny at Codex sends Escape",
    agent: "codex",
    fixture: "codex_blocked_exec_w80",
    action: "deny",
    bytes: "\x1b",
  },
  {
    name: "I40: approve at Gemini sends its first option's digit, 1",
    agent: "node",
    fixture: "gemini_blocked_shell_w80",
    action: "approve",
    bytes: "1",
  },
  {
    name: "I40: deny at Gemini sends Escape",
    agent: "node",
    fixture: "gemini_blocked_shell_w80",
    action: "deny",
    bytes: "\x1b",
  },
  {
    name: "A1: approve at Cursor sends y",
    agent: "agent",
    fixture: "cursor_blocked_shell_w80",
    action: "approve",
    bytes: "y",
  },
  {
    name: "A2: deny at Cursor sends n",
    agent: "agent",
    fixture: "cursor_blocked_shell_w80",
    action: "deny",
    bytes: "n",
  },
  {
    name: "A3: interrupt at Claude sends Escape",
    agent: "claude",
    fixture: "claude_working_spinner_w80",
    action: "interrupt",
    bytes: "\x1b",
  },
  {
    name: "A3: interrupt at Cursor sends C-c",
    agent: "agent",
    fixture: "cursor_working_stream_w120",
    action: "interrupt",
    bytes: "\x03",
  },
  {
    name: "A4: compact at an idle Claude at 80% context types /compact and Enter",
    agent: "claude",
    fixture: "claude_idle_fresh_w120",
    action: "compact",
    bytes: "/compact\r",
    options: { "@agent_context_pct": "80", "@agent_context_at": String(Date.now()) },
  },
  {
    name: "A6, A20: steer types the message literally, then Enter",
    agent: "claude",
    fixture: "claude_idle_fresh_w120",
    action: "steer",
    text: 'run it again; Enter $(whoami) `id` C-c "quoted" -x;',
    bytes: 'run it again; Enter $(whoami) `id` C-c "quoted" -x;\r',
  },
  {
    name: "A7: steer_now queues the message at a working Codex",
    agent: "codex",
    fixture: "codex_working_stream_w80",
    action: "steer_now",
    text: "Enter",
    bytes: "Enter\r",
  },
];

for (const c of CASES) {
  tmuxTest(`fire() keys ${c.name} (exactly, and nothing else)`, async (t) => {
    const before = Date.now();
    const { report, bytes, lock, delivered } = await fireAt(t, {
      agent: c.agent,
      fixture: c.fixture,
      action: c.action,
      text: c.text,
      optionsBefore: c.options,
    });
    assertEquals(report.result, {
      schema: 1,
      action: c.action,
      pane: report.result.pane,
      outcome: "sent",
      exit_code: 0,
      reason: null,
    }, report.message ?? undefined);
    assertEquals(bytes, c.bytes);
    assertEquals(lock, "", "A16: the lock is released");
    // D65, D67: an action that ends the state it gated on leaves the broker's mark.
    const ends = { approve: "blocked", deny: "blocked", interrupt: "working" }[c.action as string];
    if (ends === undefined) {
      assertEquals(delivered, "", "no mark for an action that settles nothing");
    } else {
      const [state, at] = delivered.split(":");
      assertEquals(state, ends, `@tma_delivered=${delivered}`);
      assert(Number(at) >= before && Number(at) <= Date.now(), `@tma_delivered=${delivered}`);
    }
  });
}

tmuxTest(
  "fire() keys D66: approve and deny at a first-run trust dialog (blocked/setup) are gated",
  async (t) => {
    for (const name of ["approve", "deny"]) {
      const { report, bytes, delivered } = await fireAt(t, {
        agent: "claude",
        fixture: "claude_blocked_trust_w120",
        action: name,
      });
      assertEquals([report.result.outcome, report.result.reason, bytes], ["refused", "gated", ""]);
      assertEquals(delivered, "");
    }
  },
);

tmuxTest(
  "fire() keys A1, M34: approve at an idle pane is refused gated and sends nothing",
  async (t) => {
    const { report, bytes } = await fireAt(t, {
      agent: "claude",
      fixture: "claude_idle_fresh_w120",
      action: "approve",
    });
    assertEquals(report.result.outcome, "refused");
    assertEquals(report.result.reason, "gated");
    assertEquals(report.result.exit_code, 4);
    assertEquals(bytes, "");
  },
);

tmuxTest(
  "fire() keys A17: --force skips when: approve at an idle pane sends its key",
  async (t) => {
    const { report, bytes } = await fireAt(t, {
      agent: "claude",
      fixture: "claude_idle_fresh_w120",
      action: "approve",
      force: true,
    });
    assertEquals(report.result.outcome, "sent");
    assertEquals(bytes, "1");
  },
);

tmuxTest(
  "fire() keys A4, A34: compact below its context bound, or with no reading, is gated",
  async (t) => {
    const low = await fireAt(t, {
      agent: "claude",
      fixture: "claude_idle_fresh_w120",
      action: "compact",
      optionsBefore: { "@agent_context_pct": "40" },
    });
    assertEquals([low.report.result.reason, low.bytes], ["gated", ""]);
    const none = await fireAt(t, {
      agent: "claude",
      fixture: "claude_idle_fresh_w120",
      action: "compact",
    });
    assertEquals([none.report.result.reason, none.bytes], ["gated", ""]);
  },
);

tmuxTest(
  "fire() keys A34: a context gate at an agent without [telemetry.context] is no-coverage",
  async (t) => {
    const s = screen("opencode_idle_numbered_list_w80");
    const r = await recorder(t, "opencode", { height: s.height });
    await r.draw(s);
    const custom = parseActionManifest(
      [
        'min_engine_version = "0.1.0"',
        'name = "oc_compact"',
        'label = "Compact OpenCode"',
        'kind = "keys"',
        "[when]",
        'state = ["idle"]',
        "context_pct_min = 50",
        "[keys]",
        'opencode = ["/compact", "Enter"]',
      ].join("\n"),
      { path: "oc_compact.toml", stem: "oc_compact" },
    );
    const { value, bytes } = await r.recordDuring(() =>
      fire(brokerEnv(t), { action: custom, pane: r.pane })
    );
    assertEquals(value.result.reason, "no-coverage");
    assertEquals(value.result.exit_code, 4);
    assertEquals(bytes, "");
  },
);

tmuxTest(
  "fire() keys A11: an action that does not cover the pane's agent is wrong-agent",
  async (t) => {
    // compact has no Codex cell.
    const { report, bytes } = await fireAt(t, {
      agent: "codex",
      fixture: "codex_idle_after_turn_w120",
      action: "compact",
      optionsBefore: { "@agent_context_pct": "90" },
    });
    assertEquals([report.result.reason, report.result.exit_code, bytes], ["wrong-agent", 4, ""]);
  },
);

tmuxTest(
  "fire() keys A11: a pane with no agent is wrong-agent; a missing pane is vanished (exit 3, null reason)",
  async (t) => {
    const shell = await t.newWindow(["sh", "-c", "exec sleep 600"]);
    const env = brokerEnv(t);
    const none = await fire(env, { action: action("interrupt"), pane: shell });
    assertEquals([none.result.outcome, none.result.reason], ["refused", "wrong-agent"]);
    const gone = await fire(env, { action: action("interrupt"), pane: "%999" });
    assertEquals(gone.result, {
      schema: 1,
      action: "interrupt",
      pane: "%999",
      outcome: "vanished",
      exit_code: 3,
      reason: null,
    });
  },
);

tmuxTest(
  "fire() keys A12: a stale blocked stamp is re-detected; the screen says idle, so nothing is sent",
  async (t) => {
    const s = screen("claude_idle_fresh_w120");
    const r = await recorder(t, "claude", { height: s.height });
    await r.draw(s);
    const env = brokerEnv(t);
    // A first look stamps the pane; then the stamp is rewritten to an old
    // blocked reading, as a status poll long ago would have left it.
    await fire(env, { action: action("interrupt"), pane: r.pane });
    const old = String(Date.now() - 60_000);
    await setOptions(t, r.pane, {
      "@agent_state": "blocked",
      "@agent_detail": "permission",
      "@agent_source": "capture",
      "@agent_evidence_at": old,
      "@agent_since": old,
      "@agent_stamped_at": old,
    });
    const { value, bytes } = await r.recordDuring(() =>
      fire(env, { action: action("approve"), pane: r.pane })
    );
    assertEquals([value.result.reason, bytes], ["gated", ""]);
    assertEquals(await t.option(r.pane, "@agent_state"), "idle", "the re-detection stamped");
  },
);

tmuxTest(
  "fire() keys R5: a pane whose stamp left blocked between the gate and the send receives nothing",
  async (t) => {
    const s = screen("claude_blocked_bash_w80");
    const r = await recorder(t, "claude", { height: s.height });
    await r.draw(s);
    const env = brokerEnv(t);
    const { value, bytes } = await r.recordDuring(() =>
      fire(env, {
        action: action("approve"),
        pane: r.pane,
        seams: {
          // A hook event lands after the first gate: the turn went on.
          afterGate: async () => {
            await setOptions(t, r.pane, {
              "@agent_state": "working",
              "@agent_detail": "",
              "@agent_source": "hook",
              "@agent_evidence_at": String(Date.now()),
              "@agent_stamped_at": String(Date.now()),
            });
          },
        },
      })
    );
    assertEquals([value.result.outcome, value.result.reason, bytes], ["refused", "gated", ""]);
    assertEquals(await t.option(r.pane, "@agent_action"), "", "released on the refusal path");
  },
);

tmuxTest(
  "fire() keys R5: a screen that left blocked under a still-blocked stamp is caught before the send",
  async (t) => {
    const blocked = screen("claude_blocked_bash_w80");
    const r = await recorder(t, "claude", { height: blocked.height });
    await r.draw(blocked);
    const env = brokerEnv(t);
    const { value, bytes } = await r.recordDuring(() =>
      fire(env, {
        action: action("approve"),
        pane: r.pane,
        // The dialog closes (answered at the keyboard); no poll restamps.
        seams: { afterLock: () => r.draw(screen("claude_working_spinner_w80")) },
      })
    );
    assertEquals([value.result.reason, bytes], ["gated", ""]);
    assert(value.fingerprint !== null);
  },
);

tmuxTest(
  "fire() keys X. Beyond: a replaced prompt is refused prompt-changed (exit 4) and sends nothing",
  async (t) => {
    const first = screen("claude_blocked_bash_w80");
    const r = await recorder(t, "claude", { height: 40 });
    await r.draw(first);
    const env = brokerEnv(t);
    const { value, bytes } = await r.recordDuring(() =>
      fire(env, {
        action: action("approve"),
        pane: r.pane,
        // The next permission request replaces the one the gate passed on.
        seams: { afterGate: () => r.draw(screen("claude_blocked_bash_w120")) },
      })
    );
    assertEquals(value.result, {
      schema: 1,
      action: "approve",
      pane: r.pane,
      outcome: "refused",
      exit_code: 4,
      reason: "prompt-changed",
    });
    assertEquals(bytes, "");
  },
);

tmuxTest(
  "fire() keys X. Beyond: an unchanged prompt keeps its fingerprint through the send",
  async (t) => {
    const { report } = await fireAt(t, {
      agent: "claude",
      fixture: "claude_blocked_bash_w80",
      action: "deny",
    });
    assertEquals(report.result.outcome, "sent");
    assert(/^[0-9a-f]{16}$/.test(report.fingerprint ?? ""), String(report.fingerprint));
  },
);

tmuxTest(
  "fire() keys C48, C49: --arg on a keys action and a missing or stray --text are usage errors",
  async (t) => {
    const env = brokerEnv(t);
    await assertRejects(
      () => fire(env, { action: action("approve"), pane: "%0", args: ["x"] }),
      UsageError,
    );
    await assertRejects(() => fire(env, { action: action("steer"), pane: "%0" }), UsageError);
    await assertRejects(
      () => fire(env, { action: action("steer"), pane: "%0", text: "" }),
      UsageError,
    );
    await assertRejects(
      () => fire(env, { action: action("approve"), pane: "%0", text: "hi" }),
      UsageError,
    );
  },
);

tmuxTest(
  "fire() keys C55: no tmux server at all is an error (exit 1), not a vanished pane",
  async (t) => {
    const env = {
      ...brokerEnv(t),
      server: { bin: "tmux", socketName: `tma-test-absent-${crypto.randomUUID().slice(0, 8)}` },
    };
    const report = await fire(env, { action: action("interrupt"), pane: "%1" });
    assertEquals([report.result.outcome, report.result.exit_code], ["error", 1]);
    assert((report.message ?? "").includes("no tmux server"), report.message ?? "");
  },
);

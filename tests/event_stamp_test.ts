/**
 * `tma event` against a scratch server: the subagent guard, the silent
 * failure paths, racing events, the window rollup, the pane and payload
 * sources, and the context hand-off (C101, D46, D47, D56, R10, R12).
 * @module
 */
import { assert, assertEquals, assertMatch } from "./harness/assert.ts";
import { runTma, tmuxTest } from "./harness/tmux.ts";
import {
  agentOptions,
  fireHook,
  payload,
  quietPane,
  sessionOf,
  tmaScript,
  writeConfig,
} from "./harness/hook.ts";
import { BUNDLED_AGENTS } from "../src/assets/bundled.ts";
import { readHookManifest } from "../src/core/hook/hook_manifest.ts";
import { parsePayload } from "../src/core/hook/payload.ts";
import { defaultHookSettings } from "../src/core/hook/settings.ts";
import { intakeEvent } from "../src/runtime/hook/intake.ts";

tmuxTest("tma event D46: a subagent's events do not move the parent's state", async (scratch) => {
  const pane = await quietPane(scratch);
  const bin = await tmaScript(scratch);
  const fire = async (event: string, file = event) => {
    const fired = await fireHook(scratch, {
      agent: "claude",
      event,
      pane,
      bin,
      stdin: payload("claude", file),
    });
    assertEquals([fired.code, fired.stdout, fired.stderr], [0, "", ""]);
    return await agentOptions(scratch, pane);
  };
  await fire("SessionStart");
  const working = await fire("UserPromptSubmit");
  const sub = sessionOf("claude", "SubagentStart");
  const started = await fire("SubagentStart");
  assertEquals(started["@agent_subagents"], sub);
  assertEquals(started["@agent_state"], "working");
  assertEquals(started["@agent_stamped_at"], working["@agent_stamped_at"], "bookkeeping only");
  // The subagent's tool call and its own Stop leave the parent alone.
  assertEquals(await fire("PreToolUse", "PreToolUse_subagent"), started);
  assertEquals(await fire("Stop", "Stop_subagent"), started);
  // The parent's own session still moves it.
  const parent = await fire("PreToolUse");
  assertEquals(parent["@agent_state"], "working");
  assert(parent["@agent_evidence_at"] !== started["@agent_evidence_at"]);
  const stopped = await fire("SubagentStop");
  assertEquals(stopped["@agent_subagents"], undefined);
  const idle = await fire("Stop");
  assertEquals([idle["@agent_state"], idle["@agent_attention"]], ["idle", "1"]);
});

tmuxTest(
  "tma event C101, R10: unknown agents, unmapped events and garbage change nothing and print nothing",
  async (scratch) => {
    const pane = await quietPane(scratch);
    const bin = await tmaScript(scratch);
    const log = `${scratch.dir}/debug.log`;
    // The debug log is set from the first fire: the server's drainer keeps
    // the environment of the fire that started it (X10).
    await fireHook(scratch, {
      agent: "claude",
      event: "UserPromptSubmit",
      pane,
      bin,
      stdin: payload("claude", "UserPromptSubmit"),
      env: { TMA_DEBUG_LOG: log },
    });
    const before = await agentOptions(scratch, pane);
    assertEquals(before["@agent_state"], "working");
    const cases: { agent: string; event: string; stdin: string }[] = [
      { agent: "nosuchagent", event: "Stop", stdin: payload("claude", "Stop") },
      { agent: "../../etc/passwd", event: "Stop", stdin: payload("claude", "Stop") },
      { agent: "claude", event: "NoSuchEvent", stdin: payload("claude", "Stop") },
      { agent: "claude", event: "Stop", stdin: payload("garbage", "truncated") },
      { agent: "claude", event: "Stop", stdin: "[1,2,3]" },
      { agent: "claude", event: "Notification", stdin: payload("claude", "Notification_idle") },
      // The reply lane answers only a PermissionRequest it stamped; garbage is refused before.
      { agent: "claude", event: "PermissionRequest", stdin: "\u0000\u0001" },
    ];
    for (const c of cases) {
      const fired = await fireHook(scratch, { ...c, pane, bin, env: { TMA_DEBUG_LOG: log } });
      assertEquals(
        [fired.code, fired.stdout, fired.stderr],
        [0, "", ""],
        `${c.agent} ${c.event}`,
      );
      assertEquals(await agentOptions(scratch, pane), before, `${c.agent} ${c.event}`);
    }
    const lines = (await Deno.readTextFile(log)).trim().split("\n");
    assert(lines.some((l) => l.includes("unknown agent")), "the debug log names the cause");
    assert(lines.some((l) => l.includes("not a JSON object")), "the debug log names the cause");

    // `tma event` itself, without the wrapper: exit 0, nothing on stdout or stderr.
    for (
      const args of [
        ["event", "--agent", "claude", "--kind", "NoSuchEvent", "--pane", pane, "--payload", "-"],
        ["event", "--agent", "claude", "--kind", "Stop", "--pane", "%999", "--payload", "-"],
        ["event", "--agent", "claude", "--kind", "Stop", "--payload", "/nonexistent/file"],
        ["event", "--kind", "Stop"],
      ]
    ) {
      const out = await runTma(scratch, args, { stdin: payload("claude", "Stop") });
      assertEquals([out.code, out.stdout, out.stderr], [0, "", ""], args.join(" "));
    }
    assertEquals(await agentOptions(scratch, pane), before);
  },
);

tmuxTest(
  "tma event R10: no tmux server, or a broken config, is still a silent exit 0",
  async (scratch) => {
    const pane = await quietPane(scratch);
    const gone = await runTma(
      scratch,
      [
        "--socket-name",
        `${scratch.socketName}-absent`,
        "event",
        "--agent",
        "claude",
        "--kind",
        "Stop",
        "--pane",
        pane,
        "--payload",
        "-",
      ],
      { stdin: payload("claude", "Stop") },
    );
    assertEquals([gone.code, gone.stdout, gone.stderr], [0, "", ""]);
    // A broken config falls back to the defaults (reply lane off) and still stamps.
    await writeConfig(scratch, "[hooks\nhold_ms = ");
    const out = await runTma(
      scratch,
      [
        "event",
        "--agent",
        "claude",
        "--kind",
        "PermissionRequest",
        "--pane",
        pane,
        "--payload",
        "-",
      ],
      { stdin: payload("claude", "PermissionRequest") },
    );
    assertEquals([out.code, out.stdout, out.stderr], [0, "", ""]);
    const options = await agentOptions(scratch, pane);
    assertEquals([options["@agent_state"], options["@agent_permission_request"]], [
      "blocked",
      undefined,
    ]);
  },
);

tmuxTest(
  "tma event C101: the pane falls back to $TMUX_PANE, and --payload reads a file",
  async (scratch) => {
    const pane = await quietPane(scratch);
    const file = `${scratch.dir}/start.json`;
    await Deno.writeTextFile(file, payload("pi", "session_start"));
    const out = await runTma(
      scratch,
      ["event", "--agent", "pi", "--kind", "session_start", "--payload", file],
      { env: { TMUX_PANE: pane } },
    );
    assertEquals([out.code, out.stdout, out.stderr], [0, "", ""]);
    const options = await agentOptions(scratch, pane);
    assertEquals([options["@agent_name"], options["@agent_session"]], [
      "pi",
      sessionOf("pi", "session_start"),
    ]);
  },
);

tmuxTest(
  "tma event D47, R12: racing events resolve by evidence time, not by finish order",
  async (scratch) => {
    const pane = await quietPane(scratch);
    const manifest = readHookManifest(BUNDLED_AGENTS.claude, { path: "claude", stem: "claude" });
    const base = {
      server: scratch.server,
      agent: "claude",
      pane,
      manifest,
      settings: { ...defaultHookSettings(), replyLane: false },
      now: () => Date.now(),
    };
    const T = Date.now();
    const event = (kind: string, at: number) =>
      intakeEvent({
        ...base,
        kind,
        payload: parsePayload(payload("claude", kind))!,
        evidenceAtMs: at,
      });
    for (let round = 0; round < 6; round++) {
      const at = T + round * 10;
      // The newer event is started first half the time, last the other half.
      const [older, newer] = round % 2 === 0
        ? [event("UserPromptSubmit", at), event("Stop", at + 5)]
        : [event("Stop", at + 5), event("UserPromptSubmit", at)].reverse();
      const results = await Promise.all([older, newer]);
      const options = await agentOptions(scratch, pane);
      assertEquals(options["@agent_state"], "idle", `round ${round}`);
      assertEquals(options["@agent_evidence_at"], String(at + 5), `round ${round}`);
      assert(results[1].committed, "the newer event commits");
      // A late arrival of the older event is suppressed outright.
      const late = await event("UserPromptSubmit", at + 1);
      assertEquals(late.committed, false);
      assertMatch(late.note, /D47/);
    }
  },
);

tmuxTest(
  "tma event D56: a hook stamp rewrites its window's rollup in the same chain",
  async (scratch) => {
    const first = await quietPane(scratch);
    const second = (await scratch.tmux(
      "split-window",
      "-d",
      "-P",
      "-F",
      "#{pane_id}",
      "-t",
      first,
      "sleep",
      "3600",
    )).trim();
    const bin = await tmaScript(scratch);
    const summary = async () =>
      (await scratch.tmux("show-options", "-wqv", "-t", first, "@agent_summary")).trim();
    await fireHook(scratch, {
      agent: "pi",
      event: "before_agent_start",
      pane: first,
      bin,
      stdin: payload("pi", "before_agent_start"),
    });
    assertEquals(await summary(), "working:1");
    // The stamped pane need not be the window's active one.
    await scratch.tmux("select-pane", "-t", first);
    await fireHook(scratch, {
      agent: "gemini",
      event: "Notification",
      pane: second,
      bin,
      stdin: payload("gemini", "Notification"),
    });
    assertEquals(await summary(), "blocked:1 working:1");
    await fireHook(scratch, {
      agent: "gemini",
      event: "SessionEnd",
      pane: second,
      bin,
      stdin: payload("gemini", "SessionEnd"),
    });
    assertEquals(await summary(), "working:1");
  },
);

tmuxTest(
  "tma event I8: --kind context hands the payload to the telemetry intake",
  async (scratch) => {
    const pane = await quietPane(scratch);
    const out = await runTma(
      scratch,
      ["event", "--agent", "claude", "--kind", "context", "--pane", pane, "--payload", "-"],
      { stdin: '{"session_id":"s1","context_window":{"used_percentage":78}}' },
    );
    assertEquals([out.code, out.stdout, out.stderr], [0, "", ""]);
    assertEquals((await agentOptions(scratch, pane))["@agent_context_pct"], "78");
  },
);

tmuxTest(
  "tma event C101: a large payload on stdin (a big tool response) is read whole",
  async (scratch) => {
    const pane = await quietPane(scratch);
    const big = JSON.parse(payload("claude", "PostToolUse"));
    big.tool_response.stdout = "x".repeat(400_000);
    const fired = await fireHook(scratch, {
      agent: "claude",
      event: "PostToolUse",
      pane,
      stdin: JSON.stringify(big),
    });
    assertEquals([fired.code, fired.stdout, fired.stderr], [0, "", ""]);
    assertEquals((await agentOptions(scratch, pane))["@agent_state"], "working");
  },
);

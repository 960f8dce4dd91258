/**
 * Every agent's hook mapping end to end: our payload fixtures (real payload
 * shapes) fired through `integrations/tma-hook` into a scratch tmux server, with the
 * pane's state, detail, session and attention checked after each event
 * against what the manifest maps it to (I12, I25, I35, I43, I52, I60).
 * @module
 */
import { assert, assertEquals } from "./harness/assert.ts";
import { type ScratchTmux, tmuxTest } from "./harness/tmux.ts";
import {
  agentOptions,
  fireHook,
  payload,
  quietPane,
  sessionOf,
  tmaScript,
  writeConfig,
} from "./harness/hook.ts";

/** One event of a script and what the pane must read after it. */
interface Step {
  event: string;
  /** The fixture file, when it is not named like the event. */
  file?: string;
  /** Pass the payload as the trailing argument (Codex notify). */
  asArg?: boolean;
  /** Expected option values; `null` means absent. */
  expect: Record<string, string | null>;
}

async function play(
  scratch: ScratchTmux,
  script: { agent: string; pane: string; steps: Step[]; cwd?: string },
): Promise<void> {
  const bin = await tmaScript(scratch);
  for (const step of script.steps) {
    const text = payload(script.agent, step.file ?? step.event, script.cwd);
    const fired = await fireHook(scratch, {
      agent: script.agent,
      event: step.event,
      pane: script.pane,
      bin,
      stdin: step.asArg ? "" : text,
      arg: step.asArg ? text : undefined,
    });
    const label = `${script.agent} ${step.file ?? step.event}`;
    assertEquals([fired.code, fired.stdout, fired.stderr], [0, "", ""], label);
    const options = await agentOptions(scratch, script.pane);
    for (const [name, value] of Object.entries(step.expect)) {
      assertEquals(options[name] ?? null, value, `${label}: ${name}`);
    }
  }
}

tmuxTest("tma event I12: Claude's events drive the pane through its mapping", async (scratch) => {
  // The reply lane is its own test; here PermissionRequest must return at once.
  await writeConfig(scratch, "[hooks]\nclaude_reply_lane = false\n");
  const pane = await quietPane(scratch);
  const session = sessionOf("claude", "SessionStart");
  await play(scratch, {
    agent: "claude",
    pane,
    steps: [
      {
        event: "SessionStart",
        expect: {
          "@agent_name": "claude",
          "@agent_state": "idle",
          "@agent_session": session,
          "@agent_model": "claude-sonnet-4-5",
          "@agent_pid": "0",
          "@agent_source": "hook",
          "@agent_attention": null,
        },
      },
      {
        event: "UserPromptSubmit",
        expect: { "@agent_state": "working", "@agent_attention": null },
      },
      { event: "PreToolUse", expect: { "@agent_state": "working" } },
      {
        event: "PermissionRequest",
        expect: {
          "@agent_state": "blocked",
          "@agent_detail": "permission",
          "@agent_attention": "1",
          "@agent_permission_request": null,
        },
      },
      {
        event: "Notification",
        file: "Notification_permission",
        expect: { "@agent_state": "blocked", "@agent_detail": "permission" },
      },
      {
        event: "Notification",
        file: "Notification_idle",
        expect: { "@agent_state": "blocked" },
      },
      { event: "PostToolUse", expect: { "@agent_state": "working", "@agent_detail": null } },
      { event: "Stop", expect: { "@agent_state": "idle", "@agent_attention": "1" } },
      {
        event: "SessionEnd",
        expect: { "@agent_name": null, "@agent_state": null, "@agent_session": null },
      },
    ],
  });
  assertEquals(await agentOptions(scratch, pane), {});
});

tmuxTest(
  "tma event I25, D45: Codex's hooks.json and notify raise one done mark per turn",
  async (scratch) => {
    const agent = await scratch.standIn("codex");
    const session = sessionOf("codex", "SessionStart");
    await play(scratch, {
      agent: "codex",
      pane: agent.pane,
      cwd: scratch.dir,
      steps: [
        {
          event: "SessionStart",
          expect: {
            "@agent_state": "idle",
            "@agent_session": session,
            "@agent_model": "gpt-5.1-codex",
          },
        },
        { event: "UserPromptSubmit", expect: { "@agent_state": "working" } },
        { event: "PreToolUse", expect: { "@agent_state": "working" } },
        {
          event: "PermissionRequest",
          expect: {
            "@agent_state": "blocked",
            "@agent_detail": "permission",
            "@agent_attention": "1",
          },
        },
        { event: "PostToolUse", expect: { "@agent_state": "working", "@agent_detail": null } },
      ],
    });
    // The user looked at the pane meanwhile.
    await scratch.tmux("set-option", "-pu", "-t", agent.pane, "@agent_attention");
    await play(scratch, {
      agent: "codex",
      pane: agent.pane,
      cwd: scratch.dir,
      steps: [{ event: "Stop", expect: { "@agent_state": "idle", "@agent_attention": "1" } }],
    });
    const turnAt = (await agentOptions(scratch, agent.pane))["@agent_turn_at"];
    assert(turnAt, "Stop stamps @agent_turn_at");
    await play(scratch, {
      agent: "codex",
      pane: agent.pane,
      cwd: scratch.dir,
      steps: [
        // notify: the payload is the trailing argument, with a thread-id and no session_id.
        {
          event: "notify",
          asArg: true,
          expect: { "@agent_state": "idle", "@agent_turn_at": turnAt },
        },
      ],
    });
    // Codex's title-generation thread notifies too; no pane owns it, so nothing moves.
    const settled = await agentOptions(scratch, agent.pane);
    await play(scratch, {
      agent: "codex",
      pane: agent.pane,
      cwd: scratch.dir,
      steps: [{ event: "notify", file: "notify_title", asArg: true, expect: {} }],
    });
    assertEquals(await agentOptions(scratch, agent.pane), settled);
    await play(scratch, {
      agent: "codex",
      pane: agent.pane,
      cwd: scratch.dir,
      steps: [
        { event: "UserPromptSubmit", expect: { "@agent_state": "working" } },
        { event: "Interrupt", expect: { "@agent_state": "idle" } },
        { event: "SessionEnd", expect: { "@agent_state": null, "@agent_session": null } },
      ],
    });
  },
);

tmuxTest(
  "tma event I35: Gemini's events drive the pane; AfterModel is inert; SessionEnd thrice is idempotent",
  async (scratch) => {
    const pane = await quietPane(scratch);
    await play(scratch, {
      agent: "gemini",
      pane,
      steps: [
        {
          event: "SessionStart",
          expect: {
            "@agent_state": "idle",
            "@agent_session": sessionOf("gemini", "SessionStart"),
          },
        },
        { event: "BeforeAgent", expect: { "@agent_state": "working" } },
      ],
    });
    const before = await agentOptions(scratch, pane);
    await play(scratch, { agent: "gemini", pane, steps: [{ event: "AfterModel", expect: {} }] });
    assertEquals(await agentOptions(scratch, pane), before, "AfterModel changes nothing");
    await play(scratch, {
      agent: "gemini",
      pane,
      steps: [
        { event: "BeforeTool", expect: { "@agent_state": "working" } },
        {
          event: "Notification",
          expect: {
            "@agent_state": "blocked",
            "@agent_detail": "permission",
            "@agent_attention": "1",
          },
        },
        { event: "AfterTool", expect: { "@agent_state": "working", "@agent_detail": null } },
        { event: "AfterAgent", expect: { "@agent_state": "idle", "@agent_attention": "1" } },
        { event: "SessionEnd", expect: { "@agent_state": null } },
        { event: "SessionEnd", expect: { "@agent_state": null } },
        { event: "SessionEnd", expect: { "@agent_state": null, "@agent_name": null } },
      ],
    });
  },
);

tmuxTest(
  "tma event I52: Cursor's events drive the pane; the interrupt variant of postToolUseFailure is inert",
  async (scratch) => {
    const pane = await quietPane(scratch);
    await play(scratch, {
      agent: "cursor",
      pane,
      steps: [
        {
          event: "sessionStart",
          expect: {
            "@agent_state": "idle",
            "@agent_session": sessionOf("cursor", "sessionStart"),
            "@agent_model": "gpt-5",
          },
        },
        { event: "beforeSubmitPrompt", expect: { "@agent_state": "working" } },
        { event: "preToolUse", expect: { "@agent_state": "working" } },
        { event: "postToolUseFailure", expect: { "@agent_state": "working" } },
      ],
    });
    await play(scratch, {
      agent: "cursor",
      pane,
      steps: [{ event: "stop", expect: { "@agent_state": "idle", "@agent_attention": "1" } }],
    });
    const settled = await agentOptions(scratch, pane);
    await play(scratch, {
      agent: "cursor",
      pane,
      steps: [{ event: "postToolUseFailure", file: "postToolUseFailure_interrupt", expect: {} }],
    });
    assertEquals(
      await agentOptions(scratch, pane),
      settled,
      "the user-abort variant is unmapped",
    );
    await play(scratch, {
      agent: "cursor",
      pane,
      steps: [
        { event: "postToolUse", expect: { "@agent_state": "working" } },
        { event: "sessionEnd", expect: { "@agent_state": null, "@agent_name": null } },
      ],
    });
  },
);

tmuxTest("tma event I60: pi's extension events drive the pane", async (scratch) => {
  const pane = await quietPane(scratch);
  await play(scratch, {
    agent: "pi",
    pane,
    steps: [
      {
        event: "session_start",
        expect: { "@agent_state": "idle", "@agent_session": sessionOf("pi", "session_start") },
      },
      { event: "before_agent_start", expect: { "@agent_state": "working" } },
      { event: "tool_execution_start", expect: { "@agent_state": "working" } },
      { event: "agent_settled", expect: { "@agent_state": "idle", "@agent_attention": "1" } },
      { event: "session_shutdown", expect: { "@agent_state": null, "@agent_name": null } },
    ],
  });
});

tmuxTest(
  "tma event I42-I44: OpenCode's plugin tokens drive the pane and its request ids",
  async (scratch) => {
    const pane = await quietPane(scratch);
    const session = sessionOf("opencode", "session-start");
    await play(scratch, {
      agent: "opencode",
      pane,
      steps: [
        {
          // The load-time fire: no session id yet, but the pane registers.
          event: "session-start",
          file: "session-start_load",
          expect: {
            "@agent_name": "opencode",
            "@agent_state": "idle",
            "@agent_session": null,
            "@agent_api_endpoint": "http://127.0.0.1:4096",
          },
        },
        { event: "session-start", expect: { "@agent_session": session, "@agent_state": "idle" } },
        { event: "user-prompt-submit", expect: { "@agent_state": "working" } },
        {
          event: "permission-required",
          expect: {
            "@agent_state": "blocked",
            "@agent_detail": "permission",
            "@agent_permission_request": "per_3b7ea1f0c001Xy7QpL2mN4bV",
          },
        },
        // permission-replied only clears the id; the next edge moves the state.
        {
          event: "permission-replied",
          expect: { "@agent_state": "blocked", "@agent_permission_request": null },
        },
        {
          event: "question-required",
          expect: {
            "@agent_state": "blocked",
            "@agent_detail": "question",
            "@agent_question_request": "que_3b7eb2c1d002Zr8WqM3nP5cX",
          },
        },
        { event: "question-replied", expect: { "@agent_question_request": null } },
        {
          event: "question-required",
          expect: { "@agent_question_request": "que_3b7eb2c1d002Zr8WqM3nP5cX" },
        },
        // The working edge clears a pending id too (P28).
        {
          event: "user-prompt-submit",
          expect: { "@agent_state": "working", "@agent_question_request": null },
        },
        { event: "stop", expect: { "@agent_state": "idle", "@agent_attention": "1" } },
      ],
    });
  },
);

/**
 * Issue 20 (X10, D47): Claude runs every hook but `PermissionRequest` in the
 * background, so the `PreToolUse` of a tool call can take its fire time
 * after the `PermissionRequest` of the same call, and be stamped before or
 * after it. Either way the pane must read blocked: the manifest's
 * `[hooks.order]` orders one turn's close events by phase, in the plan and
 * in the write's server-side guard alike. These tests run the real intake
 * against a scratch server with payloads shaped as Claude 2.1.332 sends
 * them (a `prompt_id` on every event of the turn).
 * @module
 */
import { assert, assertEquals } from "./harness/assert.ts";
import { type ScratchTmux, tmuxTest } from "./harness/tmux.ts";
import { BUNDLED_AGENTS } from "../src/assets/bundled.ts";
import { readHookManifest } from "../src/core/hook/hook_manifest.ts";
import { parsePayload } from "../src/core/hook/payload.ts";
import { defaultHookSettings } from "../src/core/hook/settings.ts";
import { intakeEvent } from "../src/runtime/hook/intake.ts";
import { listPanes } from "../src/tmux/panes.ts";

const SESSION = "24e736ea-b922-4b30-a832-94212006e2f3";
const TURN = "d5cd3830-b418-4649-887a-92bf43fa1196";
const INPUT = { command: "touch probe_created.txt", description: "Create probe file" };

/** A Claude payload of the probe turn: the event's own fields over the common ones. */
function claudePayload(event: string, more: Record<string, unknown> = {}): string {
  return JSON.stringify({
    session_id: SESSION,
    cwd: "/home/dev/work/shop",
    prompt_id: TURN,
    permission_mode: "default",
    hook_event_name: event,
    ...more,
  });
}

const PAYLOADS: Record<string, string> = {
  SessionStart: JSON.stringify({ session_id: SESSION, hook_event_name: "SessionStart" }),
  UserPromptSubmit: claudePayload("UserPromptSubmit", { prompt: "make the probe file" }),
  PreToolUse: claudePayload("PreToolUse", {
    tool_name: "Bash",
    tool_input: INPUT,
    tool_use_id: "toolu_1",
  }),
  PermissionRequest: claudePayload("PermissionRequest", {
    tool_name: "Bash",
    tool_input: INPUT,
    permission_suggestions: [],
  }),
  PostToolUse: claudePayload("PostToolUse", {
    tool_name: "Bash",
    tool_input: INPUT,
    tool_response: { stdout: "" },
    tool_use_id: "toolu_1",
  }),
  Stop: claudePayload("Stop", { stop_hook_active: false }),
};

async function setUp(t: ScratchTmux) {
  const agent = await t.standIn("claude");
  await agent.draw("❯ \n⏵⏵ accept edits on\n");
  const manifest = readHookManifest(BUNDLED_AGENTS.claude, { path: "claude", stem: "claude" });
  assert(manifest.hooks?.order !== undefined, "the bundled Claude manifest orders its turn");
  const settings = { ...defaultHookSettings(), replyLane: false };
  const fire = (
    kind: string,
    at: number,
    listing?: Promise<Awaited<ReturnType<typeof listPanes>>>,
  ) =>
    intakeEvent({
      server: t.server,
      agent: "claude",
      kind,
      pane: agent.pane,
      payload: parsePayload(PAYLOADS[kind])!,
      manifest,
      settings,
      evidenceAtMs: at,
      now: () => Date.now(),
      listing,
    });
  await fire("SessionStart", Date.now() - 10_000);
  return { pane: agent.pane, fire };
}

tmuxTest(
  "tma event D47, X10: a late async PreToolUse never clears the PermissionRequest of its call",
  async (t) => {
    const { pane, fire } = await setUp(t);
    const at = Date.now();
    await fire("UserPromptSubmit", at - 200);
    // Stamped in fire order, the PreToolUse's fire time 30 ms after the prompt's.
    assert((await fire("PermissionRequest", at)).committed);
    const late = await fire("PreToolUse", at + 30);
    assertEquals(late.committed, false);
    assertEquals(late.note, "a later phase of this turn holds the pane (D47)");
    assertEquals(await t.option(pane, "@agent_state"), "blocked");
    // A late UserPromptSubmit of the same turn does not clear it either.
    assertEquals((await fire("UserPromptSubmit", at + 40)).committed, false);
    assertEquals(await t.option(pane, "@agent_state"), "blocked");
    // The call's PostToolUse (the human approved) and the turn's Stop move on.
    assert((await fire("PostToolUse", at + 3_000)).committed);
    assertEquals(await t.option(pane, "@agent_state"), "working");
    assert((await fire("Stop", at + 3_100)).committed);
    assertEquals(await t.option(pane, "@agent_state"), "idle");
  },
);

tmuxTest(
  "tma event D47, X10: a PermissionRequest stamped after its call's later-timed PreToolUse still lands, through the server-side guard",
  async (t) => {
    const { pane, fire } = await setUp(t);
    const at = Date.now();
    assert((await fire("PreToolUse", at + 30)).committed);
    assertEquals(await t.option(pane, "@agent_state"), "working");
    const ask = await fire("PermissionRequest", at);
    assert(ask.committed, ask.note);
    assertEquals(await t.option(pane, "@agent_state"), "blocked");
    // The pane keeps the later hook time it heard.
    assertEquals(await t.option(pane, "@tma_hook_at"), String(at + 30));
    // Beyond the window, time decides again: an older PreToolUse of the call is refused.
    assertEquals((await fire("PreToolUse", at - 5_000)).committed, false);
    assertEquals(await t.option(pane, "@agent_state"), "blocked");
  },
);

tmuxTest(
  "tma event D47, X10: the server-side guard refuses a PreToolUse planned on a read from before its call's prompt landed",
  async (t) => {
    const { pane, fire } = await setUp(t);
    const at = Date.now();
    // The PreToolUse reads the pane first (working), the prompt commits, then the PreToolUse writes.
    const stale = listPanes(t.server);
    await stale;
    assert((await fire("PermissionRequest", at)).committed);
    const late = await fire("PreToolUse", at + 30, stale);
    assertEquals(late.committed, false, late.note);
    assertEquals(late.note, "a later phase of this turn holds the pane (D47)");
    assertEquals(await t.option(pane, "@agent_state"), "blocked");
  },
);

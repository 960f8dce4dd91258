/**
 * Issue 13 item 2 (D46, C101): a hook from another agent or another session
 * does not move a registered pane. A headless agent run as a tool inherits
 * `TMUX_PANE` and fires its own hooks there; while the pane's registered
 * agent still runs, its events neither claim the state nor replace the
 * identity. Once the registered agent is gone, the pane changed hands and
 * the new agent's events stamp as usual (the evidence is listed in
 * src/core/hook/handover.ts).
 * @module
 */
import { assertEquals } from "./harness/assert.ts";
import { agentOptions, fireHook, payload, sessionOf, tmaScript } from "./harness/hook.ts";
import { tmuxTest } from "./harness/tmux.ts";

/** A claude payload fixture with its session id swapped for `session`. */
function claudeAs(event: string, session: string): string {
  return payload("claude", event).replaceAll(sessionOf("claude", event), session);
}

tmuxTest(
  "tma event D46: another session's or another agent's hook leaves a live pane alone",
  async (t) => {
    // A "claude" (a shell under that name) waiting for a line, which becomes
    // a plain sleep in the same pane once it has read one.
    await Deno.mkdir(`${t.dir}/agent-bin`);
    await Deno.symlink("/bin/sh", `${t.dir}/agent-bin/claude`);
    const pane = await t.newWindow([
      "sh",
      "-c",
      `exec '${t.dir}/agent-bin/claude' -c 'read line; exec sleep 3600'`,
    ]);
    const command = async () =>
      (await t.tmux("display", "-p", "-t", pane, "#{pane_current_command}")).trim();
    await t.waitFor(async () => (await command()) === "claude");
    const bin = await tmaScript(t);
    const fire = async (agent: string, event: string, text: string) => {
      const fired = await fireHook(t, { agent, event, pane, bin, stdin: text });
      assertEquals([fired.code, fired.stdout], [0, ""]);
      return await agentOptions(t, pane);
    };
    const own = sessionOf("claude", "SessionStart");
    await fire("claude", "SessionStart", payload("claude", "SessionStart"));
    const working = await fire("claude", "UserPromptSubmit", claudeAs("UserPromptSubmit", own));
    assertEquals([working["@agent_state"], working["@agent_session"]], ["working", own]);

    // A headless `claude -p` run as a tool: its events name its own session.
    assertEquals(await fire("claude", "Stop", claudeAs("Stop", "headless-1")), working);
    assertEquals(
      await fire("claude", "SessionStart", claudeAs("SessionStart", "headless-1")),
      working,
    );
    // A headless `gemini -p`: it neither relabels the pane nor idles it.
    assertEquals(await fire("gemini", "SessionStart", payload("gemini", "SessionStart")), working);
    assertEquals(await fire("gemini", "AfterAgent", payload("gemini", "AfterAgent")), working);

    // The registered agent exits (the pane stays): it changed hands, and gemini takes it.
    await t.tmux("send-keys", "-t", pane, "Enter");
    await t.waitFor(async () => (await command()) === "sleep");
    const taken = await fire("gemini", "SessionStart", payload("gemini", "SessionStart"));
    assertEquals([taken["@agent_name"], taken["@agent_session"]], [
      "gemini",
      sessionOf("gemini", "SessionStart"),
    ]);
  },
);

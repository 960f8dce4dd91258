/**
 * Codex in daemon mode (issue 7): its hooks run inside an app-server daemon
 * whose `$TMUX_PANE` is the pane that started it, so every event reports
 * the first pane. tma attributes each event by the pane's process tree,
 * registered session and cwd, and never stamps a pane that did not produce
 * the event.
 * @module
 */
import { assertEquals } from "./harness/assert.ts";
import { tmuxTest } from "./harness/tmux.ts";
import {
  agentOptions,
  fireHook,
  payload,
  quietPane,
  sessionOf,
  tmaScript,
} from "./harness/hook.ts";

tmuxTest(
  "issue 7: Codex daemon mode with two panes never stamps the pane that did not produce the event",
  async (scratch) => {
    // As seen with real Codex: each pane in its own project folder. (Two
    // unregistered panes in one folder cannot be told apart and are dropped.)
    const elsewhere = `${scratch.dir}/second-project`;
    await Deno.mkdir(elsewhere);
    const first = (await scratch.standIn("codex")).pane;
    const second = (await scratch.standIn("codex", { cwd: elsewhere })).pane;
    const shell = await quietPane(scratch);
    const bin = await tmaScript(scratch);
    const one = sessionOf("codex", "SessionStart");
    const two = sessionOf("codex", "SessionStart_second");

    /** Fires with the daemon's `$TMUX_PANE` (the first pane) and returns both panes' options. */
    const fire = async (event: string, file = event, reported = first) => {
      const text = payload("codex", file, file.endsWith("_second") ? elsewhere : scratch.dir);
      const notify = event === "notify";
      const fired = await fireHook(scratch, {
        agent: "codex",
        event,
        pane: reported,
        bin,
        stdin: notify ? "" : text,
        arg: notify ? text : undefined,
      });
      assertEquals([fired.code, fired.stdout, fired.stderr], [0, "", ""], file);
      return { a: await agentOptions(scratch, first), b: await agentOptions(scratch, second) };
    };

    let s = await fire("SessionStart");
    assertEquals([s.a["@agent_session"], s.a["@agent_state"]], [one, "idle"]);
    assertEquals(s.b, {});

    // The second pane's session starts; the daemon still reports the first pane.
    let before = s.a;
    s = await fire("SessionStart", "SessionStart_second");
    assertEquals([s.b["@agent_session"], s.b["@agent_state"]], [two, "idle"]);
    assertEquals(s.a, before, "the reporting pane is untouched");

    for (
      const [event, file, state] of [
        ["UserPromptSubmit", "UserPromptSubmit_second", "working"],
        ["Stop", "Stop_second", "idle"],
        ["notify", "notify_second", "idle"],
      ]
    ) {
      before = s.a;
      s = await fire(event, file);
      assertEquals(s.b["@agent_state"], state, file);
      assertEquals(s.a, before, `${file} leaves the first pane alone`);
    }

    // The first pane's own events land on it and leave the second alone.
    let other = s.b;
    s = await fire("UserPromptSubmit");
    assertEquals(s.a["@agent_state"], "working");
    assertEquals(s.b, other);

    // Reported from a pane with no codex in its tree: routed by session, never stamped there.
    other = s.b;
    s = await fire("Stop", "Stop", shell);
    assertEquals(s.a["@agent_state"], "idle");
    assertEquals(s.b, other);
    assertEquals(await agentOptions(scratch, shell), {});

    // The title-generation thread's notify belongs to no pane.
    const snapshot = s;
    s = await fire("notify", "notify_title");
    assertEquals(s, snapshot);

    before = s.a;
    s = await fire("SessionEnd", "SessionEnd_second");
    assertEquals(s.b, {});
    assertEquals(s.a, before);
  },
);

/**
 * The daemon's deferred input clear (U16): in its cycle the attention clear
 * by input (D58) runs after notification dispatch, so a completion the
 * user's typing would clear is announced first. On a scratch server with a
 * real client attached under a pseudo-terminal.
 * @module
 */
import { assert, assertEquals } from "./harness/assert.ts";
import { attachClient, clientPane, HAS_SCRIPT } from "./harness/client.ts";
import { eventually, startDaemon } from "./harness/daemon.ts";
import { runTma, tmuxTest } from "./harness/tmux.ts";
import { parseScreenFile } from "../src/core/rules/screen_file.ts";

const SCREENS = new URL("../fixtures/screens/", import.meta.url);

tmuxTest(
  "tma daemon U16: a completion input would clear is announced before the clear runs",
  async (t) => {
    const runs = `${t.dir}/runs.jsonl`;
    await Deno.mkdir(`${t.home}/.config/tma`, { recursive: true });
    // looking_secs = 0: the typing must not count as looking (X5), only as input (D58).
    await Deno.writeTextFile(
      `${t.home}/.config/tma/config.toml`,
      `[notify]\non = ["done"]\nlooking_secs = 0\ncommand = "cat >> '${runs}'"\n`,
    );
    const agent = await t.standIn("claude");
    const name = "claude_idle_fresh_w120.txt";
    await agent.draw(
      parseScreenFile(await Deno.readTextFile(new URL(name, SCREENS)), name).capture,
    );
    const client = await attachClient(t, "main");
    try {
      await t.tmux("select-window", "-t", agent.pane);
      await t.waitFor(async () => (await clientPane(t, client.name)) === agent.pane);
      // A turn ended three seconds ago (a hook's done), unannounced.
      const stamped = await runTma(t, [
        "debug",
        "stamp",
        agent.pane,
        "publish",
        "--agent",
        "claude",
        "--state",
        "idle",
        "--source",
        "hook",
        "--attention",
        "--at",
        String(Date.now() - 3000),
      ]);
      assertEquals(stamped.code, 0, stamped.stderr);
      // Typed at after the raise: the next cycle's input clear takes the flag.
      await client.type("x");
      await new Promise((resolve) => setTimeout(resolve, 300));
      const daemon = await startDaemon(t, { args: ["--sweep-ms", "600000"] });
      try {
        assert(
          await eventually(
            async () => (await t.option(agent.pane, "@agent_attention")) === "",
            8000,
          ),
          `the input clear did not run: ${daemon.stderr()}`,
        );
        assert(
          await eventually(
            () => Promise.resolve(Deno.readTextFile(runs).then((s) => s !== "", () => false)),
            5000,
          ),
          `the completion was cleared unannounced: ${daemon.stderr()}`,
        );
        const fired = (await Deno.readTextFile(runs)).trim().split("\n").map((l) => JSON.parse(l));
        assertEquals(fired.map((p) => [p.state, p.pane]), [["done", agent.pane]]);
      } finally {
        await daemon.stop();
      }
    } finally {
      await client.close();
    }
  },
  { ignore: !HAS_SCRIPT, width: 120 },
);

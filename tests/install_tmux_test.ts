/**
 * The tmux attention hooks `install-hooks` adds (I4-I6): appended after the
 * user's own entries, recorded, fired by tmux with TMA_HOOK_KIND set, and
 * reported by `--check` as present, missing, drifted or wiped.
 * @module
 */
import { assert, assertEquals, assertStringIncludes } from "./harness/assert.ts";
import { runTma, type ScratchTmux, tmuxTest } from "./harness/tmux.ts";

/** Installs a recorder as TMA_BIN: it appends "$TMA_HOOK_KIND $*" to a log. */
async function recorder(scratch: ScratchTmux): Promise<{ bin: string; log: string }> {
  const bin = `${scratch.home}/bin/tma`;
  const log = `${scratch.home}/fired.log`;
  await Deno.mkdir(`${scratch.home}/bin`, { recursive: true });
  await Deno.writeTextFile(bin, `#!/bin/sh\nprintf '%s %s\\n' "$TMA_HOOK_KIND" "$*" >> '${log}'\n`);
  await Deno.chmod(bin, 0o755);
  return { bin, log };
}

function tma(scratch: ScratchTmux, args: string[], env: Record<string, string> = {}) {
  return runTma(scratch, ["install-hooks", ...args], { env });
}

async function waitForLine(scratch: ScratchTmux, log: string, part: string): Promise<void> {
  await scratch.waitFor(async () => (await Deno.readTextFile(log).catch(() => "")).includes(part));
}

tmuxTest(
  "tma install-hooks I4: hooks are appended after the user's own, recorded, stale ones removed, and they fire",
  async (t) => {
    const { bin, log } = await recorder(t);
    await t.tmux("set-hook", "-ga", "after-select-pane", "display-message user-hook");
    await t.tmux(
      "set-hook",
      "-ga",
      "after-select-window",
      `run-shell "TMA_HOOK_KIND=after-select-window tma clear-attention '#{pane_id}' 2>/dev/null || true"`,
    );
    const installed = await tma(t, ["pi", "--yes"], { TMA_BIN: bin });
    assertEquals(installed.code, 0, installed.stderr);
    assertStringIncludes(installed.stdout, "tmux: unset after-select-window[0] (stale tma hook)");

    const pane = await t.tmux("show-hooks", "-g", "after-select-pane");
    assert(
      pane.startsWith(
        "after-select-pane[0] display-message user-hook\nafter-select-pane[1] run-shell",
      ),
      pane,
    );
    assertStringIncludes(pane, "TMA_HOOK_KIND=after-select-pane");
    assertEquals(
      (await t.tmux("show-hooks", "-g", "after-select-window")).includes("clear-attention"),
      false,
    );
    const state = await Deno.readTextFile(
      `${t.home}/.config/tma/hooks-state-${t.socketName}.toml`,
    );
    assertStringIncludes(state, "[hooks.after-select-pane]\nindex = 1");
    assertStringIncludes(state, "[hooks.session-window-changed]\nindex = 0");

    // A second install adds nothing.
    const again = await tma(t, ["pi", "--yes"], { TMA_BIN: bin });
    assertStringIncludes(again.stdout, "nothing to change");
    assertEquals(await t.tmux("show-hooks", "-g", "after-select-pane"), pane);

    // tmux runs them, with the tma it finds when they fire (here TMA_BIN in
    // the server's environment): selecting a pane, then changing window.
    await t.tmux("set-environment", "-g", "TMA_BIN", bin);
    const second = (await t.tmux("split-window", "-d", "-P", "-F", "#{pane_id}", "-t", "main"))
      .trim();
    await t.tmux("select-pane", "-t", second);
    await waitForLine(t, log, `after-select-pane clear-attention ${second}`);
    const other = (await t.tmux("new-window", "-d", "-P", "-F", "#{pane_id}", "-t", "main"))
      .trim();
    await t.tmux("select-window", "-t", other);
    await waitForLine(t, log, `session-window-changed clear-attention ${other}`);
  },
);

tmuxTest(
  "tma install-hooks I4, I5: --check reports present, missing, drifted and wiped, and the tmux.conf recipe works",
  async (t) => {
    const { bin } = await recorder(t);
    assertEquals((await tma(t, ["pi", "--yes"], { TMA_BIN: bin })).code, 0);
    const present = await tma(t, ["pi", "--check"], { TMA_BIN: bin });
    assertEquals(present.code, 0, present.stdout);
    assertStringIncludes(present.stdout, "tmux: after-select-pane: present (index 0)");

    await t.tmux("set-hook", "-gu", "after-select-pane[0]");
    const missing = await tma(t, ["pi", "--check"], { TMA_BIN: bin });
    assertEquals(missing.code, 1);
    assertStringIncludes(missing.stdout, "tmux: after-select-pane: missing");
    assertEquals((await tma(t, ["pi", "--yes"], { TMA_BIN: bin })).code, 0);

    // An entry an older tma wrote (it embedded the binary it found): drifted.
    await t.tmux(
      "set-hook",
      "-g",
      "session-window-changed[0]",
      `run-shell "set -- /old/tma; [ -x /old/tma ] || set -- tma; ` +
        `TMA_HOOK_KIND=session-window-changed \\"\\$@\\" clear-attention '#{pane_id}' 2>/dev/null || true"`,
    );
    const drifted = await tma(t, ["pi", "--check"], { TMA_BIN: bin });
    assertEquals(drifted.code, 1);
    assertStringIncludes(
      drifted.stdout,
      "tmux: session-window-changed: drifted (index 0 runs another tma binary)",
    );
    assertEquals((await tma(t, ["pi", "--yes"], { TMA_BIN: bin })).code, 0);

    // A restarted server has lost them: wiped, with the durable recipe.
    await t.tmux("kill-server");
    // The old server may still be going away: retry until a new one starts.
    await t.waitFor(() => t.tmux("new-session", "-d", "-s", "main").then(() => true, () => false));
    const wiped = await tma(t, ["pi", "--check"], { TMA_BIN: bin });
    assertEquals(wiped.code, 1);
    assertStringIncludes(wiped.stdout, "tmux: after-select-pane: wiped");
    const recipe = wiped.stdout.split("\n").filter((l) => l.startsWith("  set-hook -ga ")).map((
      l,
    ) => l.trim());
    assertEquals(recipe.length, 2);
    await Deno.writeTextFile(`${t.dir}/tmux.conf`, recipe.join("\n") + "\n");
    await t.tmux("source-file", `${t.dir}/tmux.conf`);
    const restored = await tma(t, ["pi", "--check"], { TMA_BIN: bin });
    assertEquals(restored.code, 0, restored.stdout);
  },
);

tmuxTest(
  "tma install-hooks I4: with no tmux server the files are installed and the hooks skipped",
  async (t) => {
    const none = `tma-none-${crypto.randomUUID().slice(0, 8)}`;
    const result = await tma(t, ["pi", "--yes", "--socket-name", none]);
    assertEquals(result.code, 0, result.stderr);
    assertStringIncludes(result.stdout, "tmux hooks skipped");
    await Deno.stat(`${t.home}/.pi/agent/extensions/tma.js`);
    const check = await tma(t, ["pi", "--check", "--socket-name", none]);
    assertStringIncludes(check.stdout, "tmux: not checked");
    assertEquals(check.code, 0, check.stdout);
  },
);

tmuxTest(
  "tma install-hooks I6: the last uninstall removes tma's hooks, keeps the user's, and clears @agent_* options",
  async (t) => {
    await t.tmux("set-hook", "-ga", "after-select-pane", "display-message user-hook");
    assertEquals((await tma(t, ["pi", "--yes"])).code, 0);
    assertEquals((await tma(t, ["opencode", "--yes"])).code, 0);
    const pane = (await t.tmux("display", "-p", "-t", "main", "#{pane_id}")).trim();
    await t.tmux("set-option", "-p", "-t", pane, "@agent_state", "idle");
    await t.tmux("set-option", "-p", "-t", pane, "@user_option", "mine");

    // opencode is still wired: the tmux hooks stay.
    assertEquals((await tma(t, ["pi", "--uninstall", "--yes"])).code, 0);
    assertStringIncludes(
      await t.tmux("show-hooks", "-g", "after-select-pane"),
      "clear-attention",
    );

    const last = await tma(t, ["opencode", "--uninstall", "--yes"]);
    assertEquals(last.code, 0, last.stderr);
    assertStringIncludes(last.stdout, "status-right");
    assertEquals(
      await t.tmux("show-hooks", "-g", "after-select-pane"),
      "after-select-pane[0] display-message user-hook\n",
    );
    assertEquals(await t.option(pane, "@agent_state"), "");
    assertEquals(await t.option(pane, "@user_option"), "mine");
    assertEquals(
      await Deno.stat(`${t.home}/.config/tma/hooks-state-${t.socketName}.toml`).catch(() => null),
      null,
    );
  },
);

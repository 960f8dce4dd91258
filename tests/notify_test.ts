/**
 * Notifications against a scratch server (U18-U28, R17, X5, C59, C99): the
 * at-most-once marker under racing producers, blocked then done, a mute
 * that expires mid-episode, context_high's armed flag, the payload and
 * environment a command receives (hostile titles and tool commands stay
 * data), the status-line message, bell and OSC 9 on a real attached
 * client, the looking suppression, and the failure record notify-test
 * reports.
 * @module
 */
import { assert, assertEquals, assertMatch, assertStringIncludes } from "./harness/assert.ts";
import { attachClient, HAS_SCRIPT } from "./harness/client.ts";
import { exists } from "./harness/fs.ts";
import {
  agentOptions,
  fireFixture,
  quietPane,
  registeredPane,
  tmaScript,
  writeConfig,
} from "./harness/hook.ts";
import { screen } from "./harness/recorder.ts";
import { runTma, type ScratchTmux, tmuxTest } from "./harness/tmux.ts";
import { PAYLOAD_KEYS } from "../src/core/notify/payload.ts";

const BLOCKED = screen("claude_blocked_bash_w120");
const IDLE = screen("claude_idle_fresh_w120");

function runsPath(t: ScratchTmux): string {
  return `${t.dir}/runs.jsonl`;
}

/** A config whose notify command appends its stdin (the payload) to runs.jsonl. */
async function notifyConfig(t: ScratchTmux, notify: string, extra = ""): Promise<void> {
  await writeConfig(
    t,
    [
      "[hooks]",
      "claude_reply_lane = false",
      "[notify]",
      `command = "cat >> '${runsPath(t)}'"`,
      notify,
      extra,
    ].join("\n"),
  );
}

/** The payloads the command received so far. */
async function runs(t: ScratchTmux): Promise<Record<string, unknown>[]> {
  try {
    const text = await Deno.readTextFile(runsPath(t));
    return text.split("\n").filter((l) => l.trim() !== "").map((l) => JSON.parse(l));
  } catch {
    return [];
  }
}

/** Waits for `n` runs, then a further quiet spell in which no other may come. */
async function exactlyRuns(t: ScratchTmux, n: number): Promise<Record<string, unknown>[]> {
  if (n > 0) await t.waitFor(async () => (await runs(t)).length >= n, 15_000);
  await new Promise((r) => setTimeout(r, 1500));
  const got = await runs(t);
  assertEquals(got.length, n, `command runs: ${JSON.stringify(got.map((r) => r.state))}`);
  return got;
}

function fire(t: ScratchTmux, pane: string, bin: string, event: string, stdin?: string) {
  return fireFixture(t, { pane, bin }, event, stdin);
}

tmuxTest(
  "notify U23 R17: five producers racing on one blocked pane (status polls and hook events) run the command once",
  async (t) => {
    await notifyConfig(t, "from_event = true\nfrom_poll = true");
    const agent = await t.standIn("claude");
    await agent.draw(BLOCKED.capture, BLOCKED.title);
    const bin = await tmaScript(t);

    await Promise.all([
      runTma(t, ["status"]),
      fire(t, agent.pane, bin, "PermissionRequest"),
      runTma(t, ["ls"]),
      fire(t, agent.pane, bin, "PermissionRequest"),
      runTma(t, ["status", "--format", "json"]),
    ]);
    const [only] = await exactlyRuns(t, 1);
    assertEquals([only.state, only.pane, only.agent], ["blocked", agent.pane, "claude"]);
    assert((await agentOptions(t, agent.pane))["@agent_notified_at"]);
    // A restart never re-announces: the marker lives in the pane.
    await runTma(t, ["status"]);
    await fire(t, agent.pane, bin, "PermissionRequest");
    await exactlyRuns(t, 1);
  },
);

tmuxTest(
  "notify X5 U25: a status poll on a screen-detected prompt sends its question line as the excerpt, and nothing else of the screen",
  async (t) => {
    await notifyConfig(t, "from_poll = true");
    const agent = await t.standIn("claude");
    await agent.draw(BLOCKED.capture, BLOCKED.title);
    const polled = await runTma(t, ["status"]);
    assertEquals(polled.code, 0, polled.stderr);
    const [only] = await exactlyRuns(t, 1);
    assertEquals([only.state, only.reason, only.excerpt], [
      "blocked",
      "permission",
      "Do you want to proceed?",
    ]);
    assertEquals(only.jump, `tma jump --pane ${agent.pane}`);
    // The rest of the dialog (its options, the command it shows) stays on the screen.
    const sent = JSON.stringify(only);
    for (const line of ["1. Yes", "deno test src/parser/", "Run the parser tests"]) {
      assert(!sent.includes(line), line);
    }
  },
);

tmuxTest("notify U18 U23: blocked, then done, rings twice", async (t) => {
  await notifyConfig(t, 'from_event = true\non = ["blocked", "done"]');
  const bin = await tmaScript(t);
  const pane = await registeredPane(t, bin);
  await fire(t, pane, bin, "UserPromptSubmit");
  await fire(t, pane, bin, "PermissionRequest");
  await exactlyRuns(t, 1);
  await fire(t, pane, bin, "PostToolUse");
  await fire(t, pane, bin, "Stop");
  const both = await exactlyRuns(t, 2);
  assertEquals(both.map((r) => r.state), ["blocked", "done"]);
  assertEquals(both.map((r) => r.reason), ["permission", "done"]);
  // The hook's direct fire carries since_ms 0 (P62).
  assertEquals(both.map((r) => r.since_ms), [0, 0]);
});

tmuxTest(
  "notify C59 U26: a mute set mid-episode stays silent after it expires; the next episode rings",
  async (t) => {
    await notifyConfig(t, "from_poll = true");
    const bin = await tmaScript(t);
    const pane = await registeredPane(t, bin);
    // Blocked by a hook (from_event is off: nobody fires yet).
    await fire(t, pane, bin, "PermissionRequest");
    const muted = await runTma(t, ["mute", "--pane", pane, "--for", "4s"]);
    assertEquals(muted.code, 0, muted.stderr);
    // The poll claims the episode while muted: spent, not queued. It runs in
    // a later wall-clock second than the hook's stamp, or the stampede guard
    // (D53) skips its cycle.
    await new Promise((r) => setTimeout(r, 1000));
    await runTma(t, ["status"]);
    const claimed = await agentOptions(t, pane);
    assert(
      Number(claimed["@agent_notified_at"]) < Number(claimed["@agent_mute_until"]),
      "the marker is still written, while the mute holds",
    );
    await t.waitFor(
      async () => Date.now() > Number((await agentOptions(t, pane))["@agent_mute_until"]),
      8000,
    );
    assertEquals((await runTma(t, ["ls", "--json"])).stdout.includes('"muted":false'), true);
    await runTma(t, ["status"]);
    await exactlyRuns(t, 0);
    // A new episode after the mute rings.
    await fire(t, pane, bin, "PostToolUse");
    await fire(t, pane, bin, "PermissionRequest");
    await new Promise((r) => setTimeout(r, 1000)); // the stampede guard's second (D53)
    await runTma(t, ["status"]);
    await exactlyRuns(t, 1);
  },
);

tmuxTest(
  "notify U27 G18: context_high fires once while high and again only after falling below threshold - 10",
  async (t) => {
    await notifyConfig(t, "from_event = true\ncontext_high = { threshold = 80 }");
    const bin = await tmaScript(t);
    const pane = await registeredPane(t, bin);
    const context = async (pct: number) => {
      const ran = await runTma(t, [
        "event",
        "--agent",
        "claude",
        "--kind",
        "context",
        "--pane",
        pane,
        "--payload",
        "-",
      ], { stdin: JSON.stringify({ context_window: { used_percentage: pct } }) });
      assertEquals(ran.code, 0);
    };
    await context(85);
    await exactlyRuns(t, 1);
    await context(95); // still high: quiet
    await context(75); // below the threshold, not below threshold - 10: still spent
    await exactlyRuns(t, 1);
    await context(65); // re-armed, no fire
    await exactlyRuns(t, 1);
    await context(82);
    const both = await exactlyRuns(t, 2);
    assertEquals(both.map((r) => [r.state, r.context_pct]), [["context_high", 85], [
      "context_high",
      82,
    ]]);
  },
);

tmuxTest(
  "notify P62 P63 X5 R4: the command gets the payload and env with the excerpt and the jump command; hostile text stays data",
  async (t) => {
    const out = `${t.dir}/out`;
    await Deno.mkdir(out);
    await writeConfig(
      t,
      [
        "[hooks]",
        "claude_reply_lane = false",
        "[notify]",
        "from_event = true",
        `command = "cat > '${out}/payload.json'; env > '${out}/env.txt'"`,
      ].join("\n"),
    );
    const agent = await t.standIn("claude");
    await agent.draw(IDLE.capture);
    const title = `it's "quoted" $(touch ${out}/T1) \`touch ${out}/T2\``;
    await t.tmux("select-pane", "-t", agent.pane, "-T", title);
    const bin = await tmaScript(t);
    const hostile = JSON.stringify({
      session_id: "s-1",
      hook_event_name: "PermissionRequest",
      tool_name: "Bash",
      tool_input: {
        command:
          `echo "$(touch ${out}/C1)" \`touch ${out}/C2\`\nrm -rf '${out}/x'; touch probe_created.txt`,
      },
    });
    await fire(t, agent.pane, bin, "PermissionRequest", hostile);
    await t.waitFor(async () => {
      try {
        return (await Deno.readTextFile(`${out}/env.txt`)).includes("TMA_JUMP");
      } catch {
        return false;
      }
    }, 10_000);
    const sent = JSON.parse(await Deno.readTextFile(`${out}/payload.json`));
    assertEquals(Object.keys(sent), [...PAYLOAD_KEYS]);
    assertEquals(sent.title, title);
    assertEquals(sent.jump, `tma jump --pane ${agent.pane}`);
    assertEquals(sent.reason, "permission");
    assertEquals(
      sent.window,
      (await t.tmux("display", "-p", "-t", agent.pane, "#{window_name}")).trim(),
    );
    const excerpt = sent.excerpt as string;
    assert(!excerpt.includes("\n") && [...excerpt].length <= 120, excerpt);
    assert(excerpt.startsWith('Bash: echo "$(touch <path'), excerpt);
    const env = await Deno.readTextFile(`${out}/env.txt`);
    assertStringIncludes(env, `TMA_PANE=${agent.pane}\n`);
    assertStringIncludes(env, "TMA_STATE=blocked\n");
    assertStringIncludes(env, `TMA_TITLE=${title}\n`);
    assertStringIncludes(env, `TMA_JUMP=tma jump --pane ${agent.pane}\n`);
    assertStringIncludes(env, `TMA_EXCERPT=${excerpt}\n`);
    // Nothing hostile ran: not in the title, not in the tool command.
    await new Promise((r) => setTimeout(r, 500));
    for (const file of ["T1", "T2", "C1", "C2"]) {
      assertEquals(await exists(`${out}/${file}`), false, `${file} was created`);
    }
    assertEquals(await exists("probe_created.txt"), false);
  },
);

tmuxTest(
  "notify U19 X5 R4: a hostile tool command in the status-line message stays text",
  async (t) => {
    await notifyConfig(t, "from_event = true");
    const bin = await tmaScript(t);
    const pane = await registeredPane(t, bin);
    // Relative names (no path for redaction to mask): if anything ran, it would land in a cwd.
    const tag = crypto.randomUUID().slice(0, 8);
    const names = [`m1-${tag}`, `m2-${tag}`, `m3-${tag}`];
    const command = `echo $(touch ${names[0]}) #(touch ${names[1]}) \`touch ${
      names[2]
    }\` "q" 'a;b'`;
    const client = await attachClient(t, "main");
    try {
      await fire(
        t,
        pane,
        bin,
        "PermissionRequest",
        JSON.stringify({ tool_name: "Bash", tool_input: { command } }),
      );
      await exactlyRuns(t, 1);
      assertStringIncludes(await t.tmux("show-messages"), `: permission · Bash: ${command}`);
    } finally {
      await client.close();
    }
    for (const name of names) {
      for (const dir of [t.dir, Deno.cwd(), t.home]) {
        const path = `${dir}/${name}`;
        const made = await exists(path);
        if (made) await Deno.remove(path);
        assertEquals(made, false, `${path} was created`);
      }
    }
  },
  { ignore: !HAS_SCRIPT },
);

tmuxTest(
  "notify U19 U20 X5: the message names who, where and why on an attached client, with the bell and OSC 9; looking at the pane suppresses",
  async (t) => {
    // looking_secs = 0 first: the pane is on screen, but nobody counts as looking.
    await notifyConfig(t, "from_event = true\nbell = true\nosc = true\nlooking_secs = 0");
    // tmux 3.3 passes an OSC through from a pane on screen (3.4: `all` for any pane).
    await t.tmux("set", "-g", "allow-passthrough", "on");
    const pane = await quietPane(t);
    // rename-window expands formats: ## stores a literal #, which the message must keep.
    await t.tmux("rename-window", "-t", pane, "api##(x)");
    const bin = await tmaScript(t);
    await fire(t, pane, bin, "SessionStart");
    const client = await attachClient(t, "main");
    try {
      await t.tmux("select-window", "-t", pane);
      await fire(t, pane, bin, "PermissionRequest");
      await exactlyRuns(t, 1);
      const locator = (await t.tmux("display", "-p", "-t", pane, "#S:#I.#P")).trim();
      assertStringIncludes(
        await t.tmux("show-messages"),
        `message: tma: claude needs you at ${locator} (api#(x)): permission · Bash: npm test`,
      );
      const drawn = client.drawn();
      assertStringIncludes(drawn, "\x1b]9;claude blocked\x07");
      assertStringIncludes(drawn, "\x07");
      // With the default window, the user typing at the pane is looking: spent silently.
      await notifyConfig(t, "from_event = true\nbell = true\nosc = true");
      await client.type("x");
      await fire(t, pane, bin, "PostToolUse");
      await fire(t, pane, bin, "PermissionRequest");
      await exactlyRuns(t, 1);
      const options = await agentOptions(t, pane);
      assert(Number(options["@agent_notified_at"]) >= Number(options["@agent_since"]));
    } finally {
      await client.close();
    }
  },
  { ignore: !HAS_SCRIPT },
);

tmuxTest(
  "notify U28 C99: a command that does not exist records a failure that notify-test reports; a clean run clears it",
  async (t) => {
    await writeConfig(
      t,
      '[hooks]\nclaude_reply_lane = false\n[notify]\nfrom_event = true\ncommand = "no-such-notifier-xyz"\n',
    );
    const pane = await quietPane(t);
    const bin = await tmaScript(t);
    await fire(t, pane, bin, "PermissionRequest");
    const record = `${t.home}/.local/state/tma/notify-failure.json`;
    await t.waitFor(() => exists(record), 10_000);
    const failure = JSON.parse(await Deno.readTextFile(record));
    assertEquals([failure.command, failure.exit_code, failure.pane], [
      "no-such-notifier-xyz",
      127,
      pane,
    ]);
    // notify-test needs no tmux: a server that does not exist is fine.
    const test = await runTma(t, ["--socket-name", "tma-test-none", "debug", "notify-test"]);
    assertEquals(test.code, 1);
    assertMatch(
      test.stdout,
      /last failure: notify command "no-such-notifier-xyz" \(blocked, %\d+\) exited with status 127 \(command not found\)/,
    );
    assertStringIncludes(test.stdout, "not found");
    assertStringIncludes(test.stdout, "exit status 127");
    const clean = await runTma(t, ["debug", "notify-test", "--trigger", "done"], {
      env: { TMA_NOTIFY_CMD: 'echo "to stderr $TMA_STATE $TMA_AGENT" >&2' },
    });
    assertEquals(clean.code, 0, clean.stdout + clean.stderr);
    assertStringIncludes(clean.stdout, "to stderr done claude");
    assertStringIncludes(clean.stdout, "exit status 0");
    assertEquals(await exists(record), false);
  },
);

tmuxTest("tma debug notify-test C99: no command is exit 1 naming the keys", async (t) => {
  const ran = await runTma(t, ["debug", "notify-test", "--trigger", "context_high"]);
  assertEquals(ran.code, 1);
  assertStringIncludes(ran.stderr, "[notify] context_high.command");
});

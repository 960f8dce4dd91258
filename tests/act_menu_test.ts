/**
 * The action menu (A38, C54): what `display-menu` is built from, and, on a
 * Linux host with util-linux `script` to give a tmux client a terminal, the
 * whole keyboard path: the menu opens on the client, a key picks an entry,
 * tmux runs `tma act`, and the pane receives exactly the action's keys.
 */
import { assert, assertEquals, assertMatch } from "./harness/assert.ts";
import { runTma, type ScratchTmux, tmuxTest } from "./harness/tmux.ts";
import { menuItems, promptSafePane, shQuote } from "../src/actions/menu.ts";
import { displayMenuArgs, escapeHashes, tmuxQuote } from "../src/tmux/menu.ts";
import { action } from "./harness/act.ts";
import { recorder, screen } from "./harness/recorder.ts";
import { attachClient, type AttachedClient, HAS_SCRIPT } from "./harness/client.ts";

Deno.test("tma act --menu A38: menu entries run tma act for the pane; confirm nests; text opens a prompt", () => {
  const items = menuItems({
    tma: ["/opt/tma", "--socket-path", "/tmp/s"],
    pane: "%12",
    actions: [action("approve"), action("steer"), { ...action("deny"), confirm: true }],
  });
  assertEquals(items.map((i) => [i.label, i.key]), [["Approve", "1"], ["Steer", "2"], [
    "Deny…",
    "3",
  ]]);
  assertEquals(
    items[0].command,
    `run-shell -b "'/opt/tma' '--socket-path' '/tmp/s' act 'approve' --pane '%12' 2>&1 >/dev/null"`,
  );
  assert(items[1].command.startsWith("command-prompt -p "));
  // The pane id is spelled so command-prompt's %1 substitution cannot touch it.
  assert(items[1].command.includes("%''"), items[1].command);
  assert(!/%1[0-9]/.test(items[1].command.replace("(%12)", "")), items[1].command);
  assert(items[1].command.includes("#{q:@tma_prompt_12}"));
  assert(items[2].command.startsWith(`"display-menu"`), items[2].command);
  assert(items[2].command.includes("--yes"));
});

Deno.test("tma act --menu A38: display-menu escapes # for tmux's format pass; quoting helpers", () => {
  const args = displayMenuArgs({
    pane: "%1",
    client: "/dev/pts/3",
    title: "a#b",
    items: [{ label: "L#1", key: "1", command: "run-shell '#{x}'" }],
  });
  assertEquals(args.slice(0, 3), ["display-menu", "-T", "a##b"]);
  assertEquals(args.slice(-3), ["L##1", "1", "run-shell '##{x}'"]);
  assertEquals(escapeHashes("#{q:x}"), "##{q:x}");
  assertEquals(tmuxQuote('a "b" $c \\d'), '"a \\"b\\" \\$c \\\\d"');
  assertEquals(shQuote("it's"), "'it'\\''s'");
  assertEquals(promptSafePane("%12"), "%'''12'");
});

/** An attached client on a pseudo-terminal for the length of `fn`. */
async function withClient(
  t: ScratchTmux,
  fn: (client: AttachedClient) => Promise<void>,
): Promise<void> {
  const client = await attachClient(t, "main");
  try {
    await fn(client);
  } finally {
    await client.close();
  }
}

tmuxTest(
  "tma act --menu A38, C54: tma act --menu opens a menu; its first entry approves the blocked pane",
  async (t) => {
    const s = screen("claude_blocked_bash_w80");
    const r = await recorder(t, "claude", { height: s.height });
    await r.draw(s);
    await withClient(t, async (client) => {
      const { value: out, bytes } = await r.recordDuring(async () => {
        const opened = client.waitDrawn("Approve");
        const out = await runTma(t, ["act", "--menu", "--pane", r.pane]);
        await opened;
        await client.type("1");
        await t.waitFor(async () => (await r.received()).endsWith("1"));
        return out;
      });
      assertEquals(out.code, 0, out.stderr);
      assertEquals(bytes, "1");
    });
  },
  { ignore: !HAS_SCRIPT },
);

tmuxTest(
  "tma act --menu A38, C54, R4: a text entry prompts for the message and types it literally",
  async (t) => {
    const s = screen("claude_idle_fresh_w120");
    const r = await recorder(t, "claude", { height: s.height });
    await r.draw(s);
    const message = `it's "q" $(touch ${t.dir}/pwn) \`id\` #{pane_id} ; \\ ~ x;`;
    await withClient(t, async (client) => {
      const { bytes } = await r.recordDuring(async () => {
        const opened = client.waitDrawn("Steer");
        const out = await runTma(t, ["act", "--menu", "--pane", r.pane]);
        assertEquals(out.code, 0, out.stderr);
        await opened;
        // Only steer is fireable at an idle pane without a context reading.
        const prompted = client.waitDrawn(`(${r.pane}):`);
        await client.type("1");
        await prompted;
        await client.type(`${message}\r`);
        await t.waitFor(async () => (await r.received()).endsWith("\r"));
      });
      assertEquals(bytes, `${message}\r`);
    });
    for await (const entry of Deno.readDir(t.dir)) assert(entry.name !== "pwn", "nothing ran");
    assertEquals(
      (await t.tmux("show-options", "-gqv", `@tma_prompt_${r.pane.slice(1)}`)).trim(),
      "",
      "prompt option cleared",
    );
  },
  { ignore: !HAS_SCRIPT },
);

tmuxTest(
  "tma act --menu A38, M37: a confirm action's entry opens a nested confirm menu",
  async (t) => {
    const dir = `${t.home}/.config/tma/actions`;
    await Deno.mkdir(dir, { recursive: true });
    await Deno.writeTextFile(
      `${dir}/approve.toml`,
      [
        'min_engine_version = "0.1.0"',
        'name = "approve"',
        'label = "Approve"',
        'kind = "keys"',
        "confirm = true",
        "[when]",
        'state = ["blocked"]',
        "[keys]",
        'claude = ["1"]',
      ].join("\n"),
    );
    const s = screen("claude_blocked_bash_w80");
    const r = await recorder(t, "claude", { height: s.height });
    await r.draw(s);
    await withClient(t, async (client) => {
      const { bytes } = await r.recordDuring(async () => {
        const opened = client.waitDrawn("Approve");
        await runTma(t, ["act", "--menu", "--pane", r.pane]);
        await opened;
        const confirm = client.waitDrawn(`${r.pane}?`);
        await client.type("1");
        await confirm;
        await client.type("y");
        await t.waitFor(async () => (await r.received()).endsWith("1"));
      });
      assertEquals(bytes, "1");
    });
  },
  { ignore: !HAS_SCRIPT },
);

tmuxTest("tma act --menu C54: nothing fireable means no menu opens", async (t) => {
  const shell = await t.newWindow(["sh", "-c", "exec sleep 600"]);
  const out = await runTma(t, ["act", "--menu", "--pane", shell]);
  assertEquals(out.code, 0);
  assertMatch(out.stderr, /no menu opened/);
});

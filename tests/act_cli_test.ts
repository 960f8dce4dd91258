/**
 * `tma act` as a command (C43-C55, P65-P69, R7, X. Beyond audit log): target
 * resolution, fan-out and its exit code, the JSON documents, dry runs,
 * listings, confirmation, and the audit log.
 */
import { assert, assertEquals, assertMatch } from "./harness/assert.ts";
import { runTma, type ScratchTmux, tmuxTest } from "./harness/tmux.ts";
import { actBatchSchema, actResultSchema } from "../src/core/action/outcome.ts";
import { setOptions } from "./harness/act.ts";
import { recorder, screen } from "./harness/recorder.ts";

async function agentPane(t: ScratchTmux, agent: string, fixture: string) {
  const s = screen(fixture);
  const r = await recorder(t, agent, { height: s.height });
  await r.draw(s);
  return r;
}

tmuxTest(
  "tma act C43, C52, P65: act --json prints exactly the schema-1 result object",
  async (t) => {
    const r = await agentPane(t, "claude", "claude_blocked_bash_w80");
    const { value: out, bytes } = await r.recordDuring(() =>
      runTma(t, ["act", "approve", "--pane", r.pane, "--json"])
    );
    assertEquals(out.code, 0, out.stderr);
    const doc = JSON.parse(out.stdout);
    assertEquals(Object.keys(doc), [
      "schema",
      "action",
      "pane",
      "outcome",
      "exit_code",
      "reason",
    ]);
    assertEquals(actResultSchema.parse(doc), {
      schema: 1,
      action: "approve",
      pane: r.pane,
      outcome: "sent",
      exit_code: 0,
      reason: null,
    });
    assertEquals(bytes, "1");
  },
);

tmuxTest(
  "tma act C55: a refusal exits 4 with its reason on stderr; text output says what was sent",
  async (t) => {
    const r = await agentPane(t, "claude", "claude_idle_fresh_w120");
    const refused = await runTma(t, ["act", "approve", "--pane", r.pane]);
    assertEquals(refused.code, 4);
    assertMatch(refused.stderr, /refused: gated/);
    assertEquals(refused.stdout, "");
    const sent = await runTma(t, ["act", "steer", "--pane", r.pane, "--text", "hello"]);
    assertEquals(sent.code, 0, sent.stderr);
    assertMatch(sent.stdout, /steer at %\d+ \(claude\): sent/);
  },
);

tmuxTest(
  "tma act C44: --pane with selector flags is exit 2; the default target is $TMUX_PANE",
  async (t) => {
    const r = await agentPane(t, "claude", "claude_blocked_bash_w80");
    const both = await runTma(t, ["act", "approve", "--pane", r.pane, "--agent", "claude"]);
    assertEquals(both.code, 2);
    const none = await runTma(t, ["act", "approve"]);
    assertEquals(none.code, 2);
    assertMatch(none.stderr, /--pane/);
    const { value: inside, bytes } = await r.recordDuring(() =>
      runTma(t, ["act", "deny", "--json"], { env: { TMUX_PANE: r.pane } })
    );
    assertEquals(inside.code, 0, inside.stderr);
    assertEquals(JSON.parse(inside.stdout).pane, r.pane);
    assertEquals(bytes, "\x1b");
  },
);

tmuxTest(
  "tma act C45: a selector must match one pane: none is exit 3, several exit 1 naming them",
  async (t) => {
    const a = await agentPane(t, "claude", "claude_blocked_bash_w80");
    const b = await agentPane(t, "claude", "claude_idle_fresh_w120");
    const none = await runTma(t, ["act", "approve", "--agent", "codex"]);
    assertEquals(none.code, 3, none.stderr);
    const several = await runTma(t, ["act", "approve", "--agent", "claude"]);
    assertEquals(several.code, 1, several.stderr);
    assert(several.stderr.includes(a.pane) && several.stderr.includes(b.pane), several.stderr);
    const { value: one, bytes } = await a.recordDuring(() =>
      runTma(t, ["act", "approve", "--state", "blocked", "--json"])
    );
    assertEquals(one.code, 0, one.stderr);
    assertEquals(JSON.parse(one.stdout).pane, a.pane);
    assertEquals(bytes, "1");
  },
);

tmuxTest(
  "tma act C46, P68: --all fires at each match in order, one refusal does not stop the rest, worst exit wins",
  async (t) => {
    const blocked = await agentPane(t, "claude", "claude_blocked_bash_w80");
    const idle = await agentPane(t, "claude", "claude_idle_fresh_w120");
    const codex = await agentPane(t, "codex", "codex_blocked_exec_w80");
    await setOptions(t, codex.pane, {
      "@agent_action": `${Date.now() + 60_000}:abcd:${Deno.pid}:other`,
    });
    const out = await runTma(t, ["act", "approve", "--all", "--json"]);
    const doc = actBatchSchema.parse(JSON.parse(out.stdout));
    const byPane = new Map(doc.results.map((r) => [r.pane, r]));
    assertEquals(byPane.get(blocked.pane)?.outcome, "sent");
    assertEquals(byPane.get(idle.pane)?.reason, "gated");
    assertEquals(byPane.get(codex.pane)?.reason, "locked");
    assertEquals(out.code, 4, "refused (4) outranks locked (5) and sent (0)");
    assertEquals(await blocked.received(), "1");
    assertEquals(await idle.received(), "");
    assertEquals(await codex.received(), "");
    const one = await runTma(t, [
      "act",
      "approve",
      "--all",
      "--state",
      "blocked",
      "--agent",
      "claude",
      "--json",
    ]);
    assertEquals(
      Object.keys(JSON.parse(one.stdout)),
      ["schema", "results"],
      "always the envelope",
    );
    const empty = await runTma(t, ["act", "approve", "--all", "--agent", "gemini"]);
    assertEquals(empty.code, 2);
    const paneAll = await runTma(t, ["act", "approve", "--all", "--pane", blocked.pane]);
    assertEquals(paneAll.code, 2);
  },
);

tmuxTest(
  "tma act C47, A36: --dry-run shows the verdict, context ages and the keys, and sends nothing",
  async (t) => {
    const r = await agentPane(t, "claude", "claude_idle_fresh_w120");
    await setOptions(t, r.pane, {
      "@agent_context_pct": "82",
      "@agent_context_at": String(Date.now() - 5000),
    });
    const { value: out, bytes } = await r.recordDuring(() =>
      runTma(t, ["act", "compact", "--pane", r.pane, "--dry-run", "--json"])
    );
    assertEquals(out.code, 0, out.stderr);
    const doc = JSON.parse(out.stdout);
    assertEquals(doc.dry_run, true);
    const target = doc.targets[0];
    assertEquals([target.fireable, target.state], [true, "idle"]);
    assertEquals(target.would_send, { transport: "keys", keys: ["/compact", "Enter"] });
    assertEquals(target.context.context_pct.value, 82);
    assert(target.context.context_pct.age_ms >= 5000);
    assertEquals(bytes, "");
    assertEquals(await t.option(r.pane, "@agent_action"), "", "no lock taken");
    const text = await runTma(t, [
      "act",
      "steer",
      "--pane",
      r.pane,
      "--dry-run",
      "--text",
      "go on",
    ]);
    assertMatch(text.stdout, /would type: "go on" \(literal\) Enter/);
    const gated = await runTma(t, ["act", "approve", "--pane", r.pane, "--dry-run"]);
    assertEquals(gated.code, 4);
    assertMatch(gated.stdout, /refused: gated/);
  },
);

tmuxTest(
  "tma act C53, P69, A37: --list, and --list --pane with fireability and reasons",
  async (t) => {
    const all = await runTma(t, ["act", "--list", "--json"]);
    assertEquals(all.code, 0, all.stderr);
    const doc = JSON.parse(all.stdout);
    const approve = doc.actions.find((a: { name: string }) => a.name === "approve");
    assertEquals(approve, {
      name: "approve",
      label: "Approve",
      kind: "keys",
      text: false,
      agents: ["claude", "codex", "cursor", "gemini", "opencode"],
      when: {
        state: ["blocked"],
        detail: ["permission"],
        context_pct_min: null,
        context_pct_max: null,
      },
    });
    assertEquals(
      doc.actions.map((a: { name: string }) => a.name),
      ["approve", "compact", "deny", "interrupt", "question_reject", "steer", "steer_now"],
    );
    const r = await agentPane(t, "claude", "claude_blocked_bash_w80");
    const listed = JSON.parse(
      (await runTma(t, ["act", "--list", "--json", "--pane", r.pane])).stdout,
    );
    const verdicts = Object.fromEntries(
      listed.actions.map((a: { name: string; fireable: boolean; reason: string | null }) => [
        a.name,
        [a.fireable, a.reason],
      ]),
    );
    assertEquals(verdicts, {
      approve: [true, null],
      compact: [false, "gated"],
      deny: [true, null],
      interrupt: [false, "gated"],
      question_reject: [false, "wrong-agent"],
      steer: [false, "gated"],
      steer_now: [false, "gated"],
    });
  },
);

tmuxTest(
  "tma act R7, C51, M37: a confirm action refuses a non-terminal caller without --yes; --yes fires it",
  async (t) => {
    const dir = `${t.home}/.config/tma/actions`;
    await Deno.mkdir(dir, { recursive: true });
    await Deno.writeTextFile(
      `${dir}/approve.toml`,
      [
        'min_engine_version = "0.1.0"',
        'name = "approve"',
        'label = "Approve (shadowed)"',
        'kind = "keys"',
        "confirm = true",
        "[when]",
        'state = ["blocked"]',
        "[keys]",
        'claude = ["1"]',
      ].join("\n"),
    );
    const r = await agentPane(t, "claude", "claude_blocked_bash_w80");
    const refused = await runTma(t, ["act", "approve", "--pane", r.pane]);
    assertEquals(refused.code, 2);
    assertMatch(refused.stderr, /--yes/);
    assertEquals(await r.received(), "");
    const { value: yes, bytes } = await r.recordDuring(() =>
      runTma(t, ["act", "approve", "--pane", r.pane, "--yes"])
    );
    assertEquals(yes.code, 0, yes.stderr);
    assertEquals(bytes, "1");
  },
);

tmuxTest(
  "tma act X. Beyond: every fired action appends one audit line; --log prints them; no screen text",
  async (t) => {
    const r = await agentPane(t, "claude", "claude_blocked_bash_w80");
    await runTma(t, ["act", "steer", "--pane", r.pane, "--text", "secret message"]);
    await runTma(t, ["act", "approve", "--pane", r.pane]);
    const path = `${t.home}/.local/state/tma/actions.jsonl`;
    const lines = (await Deno.readTextFile(path)).trim().split("\n").map((l) => JSON.parse(l));
    assertEquals(lines.length, 2);
    assertEquals(Object.keys(lines[1]).sort(), [
      "action",
      "agent",
      "exit_code",
      "fingerprint",
      "outcome",
      "pane",
      "pid",
      "reason",
      "time",
      "transport",
    ]);
    assertEquals([lines[0].action, lines[0].outcome, lines[0].reason], [
      "steer",
      "refused",
      "gated",
    ]);
    assertEquals([lines[1].action, lines[1].outcome, lines[1].transport], [
      "approve",
      "sent",
      "keys",
    ]);
    assertMatch(lines[1].fingerprint, /^[0-9a-f]{16}$/);
    const raw = await Deno.readTextFile(path);
    assert(!raw.includes("secret message") && !raw.includes("Do you want to proceed"));
    const log = await runTma(t, ["act", "--log"]);
    assertEquals(log.code, 0);
    assertEquals(log.stdout.trim().split("\n").length, 2);
    assertMatch(log.stdout, /approve\tkeys\tsent/);
    const json = JSON.parse((await runTma(t, ["act", "--log", "--json"])).stdout);
    assertEquals(json.entries.length, 2);
  },
);

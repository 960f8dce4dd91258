/**
 * The bundled manifests (M1, M29) parse, and say what features.md section 5
 * and agent-coverage.md say: identity, hook maps, coverage, rule shapes,
 * telemetry, and the action key cells of A1-A7.
 */
import { assert, assertEquals, assertStrictEquals } from "../../../tests/harness/assert.ts";
import { buildModels } from "../agent_model.ts";
import { identify } from "../identity.ts";
import { parseScreenFile } from "../rules/screen_file.ts";
import { indexProcesses, type PaneFacts, type ProcessInfo } from "../snapshot.ts";
import type { Claim } from "./agent_schema.ts";
import {
  parseActionManifest,
  parseAgentManifest,
  type ParsedActionManifest,
  type ParsedAgentManifest,
} from "./parse.ts";

const MANIFESTS = new URL("../../../manifests/", import.meta.url);
const ACTIONS = new URL("actions/", MANIFESTS);

function tomlStems(dir: URL): string[] {
  return [...Deno.readDirSync(dir)]
    .filter((e) => e.isFile && e.name.endsWith(".toml"))
    .map((e) => e.name.slice(0, -".toml".length))
    .sort();
}

const agents = new Map<string, ParsedAgentManifest>(
  tomlStems(MANIFESTS).map((stem) => {
    const url = new URL(`${stem}.toml`, MANIFESTS);
    return [stem, parseAgentManifest(Deno.readTextFileSync(url), { path: url.pathname, stem })];
  }),
);
const actions = new Map<string, ParsedActionManifest>(
  tomlStems(ACTIONS).map((stem) => {
    const url = new URL(`${stem}.toml`, ACTIONS);
    return [stem, parseActionManifest(Deno.readTextFileSync(url), { path: url.pathname, stem })];
  }),
);

function agent(name: string): ParsedAgentManifest {
  const m = agents.get(name);
  if (!m) throw new Error(`no bundled manifest ${name}`);
  return m;
}

function action(name: string): ParsedActionManifest {
  const a = actions.get(name);
  if (!a) throw new Error(`no bundled action ${name}`);
  return a;
}

/** What `tma event` would claim: the first map entry for the event whose matcher passes. */
function claimFor(
  name: string,
  event: string,
  payload = "{}",
): (Claim & { turn_end: boolean }) | null {
  const entry = agent(name).hooks?.map.find((e) =>
    e.event === event && (e.matcher === undefined || e.matcher.re.test(payload))
  );
  return entry ? { ...entry.claim, turn_end: entry.turn_end } : null;
}

// A claim without a detail has no detail key (plain data, see src/core/prevalidated.ts).
const working = { state: "working", turn_end: false } as const;
const idleTurnEnd = { state: "idle", turn_end: true } as const;
const permission = { state: "blocked", detail: "permission", turn_end: false } as const;
const start = { lifecycle: "start", turn_end: false } as const;
const end = { lifecycle: "end", turn_end: false } as const;

Deno.test("bundled manifests M1: the six bundled agent manifests parse", () => {
  assertEquals([...agents.keys()], ["claude", "codex", "cursor", "gemini", "opencode", "pi"]);
});

Deno.test("bundled manifests M29: the seven bundled actions parse", () => {
  assertEquals([...actions.keys()], [
    "approve",
    "compact",
    "deny",
    "interrupt",
    "question_reject",
    "steer",
    "steer_now",
  ]);
});

Deno.test("bundled manifests I15 I26 I36 I45 I53 I61: identity process names", () => {
  const names = Object.fromEntries([...agents].map(([k, m]) => [k, m.identity.process_names]));
  assertEquals(names, {
    claude: ["claude"],
    codex: ["codex", "codex-aarch64-a"],
    cursor: ["node", "agent"],
    gemini: ["node"],
    opencode: ["opencode.exe", "opencode"],
    pi: ["node", "pi"],
  });
});

Deno.test("bundled manifests D31: every bundled process name fits the 15-character comm", () => {
  for (const m of agents.values()) {
    for (const n of m.identity.process_names) assert(n.length <= 15, `${m.name}: ${n}`);
  }
});

Deno.test("bundled manifests D33: title patterns narrow the generic names", () => {
  const titles = (name: string, title: string) =>
    agent(name).identity.title_patterns.some((p) => p.re.test(title));
  assert(titles("gemini", "◇  Ready (ledger)" + " ".repeat(40)));
  assert(titles("gemini", "◇  Ready"));
  assert(titles("gemini", "✦  Working… (ledger)"));
  assert(titles("gemini", "✋  Action Required (ledger)"));
  assert(!titles("gemini", "node"));
  assert(titles("cursor", "Cursor Agent"));
  assert(!titles("cursor", "Cursor Agent v2"));
  assert(titles("pi", "π - ledger"));
  assert(!titles("pi", "pi - ledger"));
  for (const name of ["claude", "codex", "opencode"]) {
    assertEquals(agent(name).identity.title_patterns, [], name);
  }
});

Deno.test("args_patterns identify npm Codex and Gemini from argv, not a stray node", () => {
  const argv = (name: string, line: string) =>
    agent(name).identity.args_patterns.some((p) => p.re.test(line));
  assert(argv("codex", "node /usr/local/bin/codex"));
  assert(
    argv("codex", "/usr/bin/node /usr/lib/node_modules/@openai/codex/bin/codex.js --no-daemon"),
  );
  assert(!argv("codex", "vim codex.js"));
  assert(!argv("codex", "node /srv/codex-tools/run.js"));
  assert(!argv("codex", "node server.js codex"));
  assert(argv("gemini", "node /usr/local/bin/gemini"));
  assert(argv("gemini", "node --max-old-space-size=8192 /usr/local/bin/gemini"));
  assert(argv("gemini", "node /usr/lib/node_modules/@google/gemini-cli/dist/index.js"));
  assert(!argv("gemini", "node server.js"));
  assert(!argv("gemini", "less /usr/local/bin/gemini"));
});

const REAL = new URL("../../../fixtures/real/", import.meta.url);

/** A recorded process tree: `# key: value` headers, `---`, then `ps` columns. */
interface RecordedTree {
  headers: Record<string, string>;
  rows: ProcessInfo[];
}

/**
 * Reads `fixtures/real/<agent>_processes.txt`. Its paths are redacted
 * (`<repo>`, `<scratch>`) but keep their shape, which is what the patterns
 * match on.
 */
function recordedTree(agent: string): RecordedTree {
  const text = Deno.readTextFileSync(new URL(`${agent}_processes.txt`, REAL));
  const [head, body] = text.split("\n---\n");
  const headers: Record<string, string> = {};
  for (const line of head.split("\n")) {
    const m = /^# ([a-z_]+): (.*)$/.exec(line);
    if (m) headers[m[1]] = m[2];
  }
  const rows = body.split("\n").slice(1).filter((l) => l.trim() !== "").map((line) => {
    const m = /^\s*(\d+)\s+(\d+)\s+(\d+)\s+(-?\d+)\s+(\S+)\s+(.*)$/.exec(line);
    if (!m) throw new Error(`${agent}_processes.txt: bad row ${JSON.stringify(line)}`);
    return {
      pid: Number(m[1]),
      ppid: Number(m[2]),
      pgid: Number(m[3]),
      tpgid: Number(m[4]),
      comm: m[5],
      args: m[6],
    };
  });
  return { headers, rows };
}

function recordedPane(tree: RecordedTree, title: string): PaneFacts {
  return {
    paneId: "%1",
    sessionName: "rec",
    sessionId: "$1",
    windowId: "@1",
    windowIndex: 0,
    paneIndex: 0,
    locator: "rec:0.0",
    panePid: Number(tree.headers.pane_pid),
    currentCommand: tree.headers.command,
    currentPath: "/work",
    title,
    width: 100,
    height: 40,
    tty: "/dev/pts/1",
    inMode: false,
    scrollPosition: 0,
    windowActivitySec: 0,
    dead: false,
    alternateOn: tree.headers.alternate_on === "1",
    active: true,
    windowActive: true,
    socketPath: "/tmp/tmux-0/rec",
    lastPollMs: 0,
    statusAtMs: 0,
    options: {},
    rollups: {},
  };
}

Deno.test("bundled manifests I15 I26 I36 I45 I61: the recorded process trees of the real agents identify", () => {
  const profiles = buildModels(agents.values()).map((m) => m.profile);
  for (const name of ["claude", "codex", "gemini", "opencode", "pi"]) {
    const tree = recordedTree(name);
    const table = indexProcesses(tree.rows);
    // The terminal's foreground group, as the pane's shell row reports it.
    const shell = tree.rows.find((r) => r.pid === Number(tree.headers.pane_pid))!;
    // The title the pane showed at the permission prompt, and none at all:
    // Codex and Gemini must be found from their argv, not their title.
    const screen = parseScreenFile(
      Deno.readTextFileSync(new URL(`${name}_blocked_permission_w100.txt`, REAL)),
    );
    for (const title of [screen.title, ""]) {
      const id = identify(recordedPane(tree, title), { table, profiles });
      assertEquals(
        [id.agent, id.source, id.pid, id.foregroundIsAgent],
        [name, "observed", shell.tpgid, true],
        `${name} with title ${JSON.stringify(title)}`,
      );
    }
  }
});

Deno.test("bundled manifests I26 I36: args_patterns match the recorded npm wrappers and Gemini's relaunch", () => {
  const argv = (name: string, line: string) =>
    agent(name).identity.args_patterns.some((p) => p.re.test(line));
  const codex = recordedTree("codex").rows;
  // `node …/node_modules/.bin/codex --no-daemon`, the wrapper in the foreground.
  assert(argv("codex", codex.find((r) => r.comm === "node")!.args));
  // Its native child `…/@openai/codex-linux-x64/…/bin/codex` is found by name.
  assert(codex.some((r) => r.comm === "codex" && /@openai\/codex-linux-x64\//.test(r.args)));
  const gemini = recordedTree("gemini").rows.filter((r) => r.comm === "node");
  // `node …/node_modules/.bin/gemini` and its relaunch with a heap flag.
  assertStrictEquals(gemini.length, 2);
  for (const row of gemini) assert(argv("gemini", row.args), row.args);
  // Neither agent's patterns claim the other's processes.
  for (const row of codex) assert(!argv("gemini", row.args), row.args);
  for (const row of gemini) assert(!argv("codex", row.args), row.args);
});

Deno.test("bundled manifests M9 M15 D17: hook coverage and capture visibility per agent", () => {
  const coverage = Object.fromEntries(
    [...agents].map(([k, m]) => [k, { covers: m.hooks?.covers, visible: m.capture.visible }]),
  );
  assertEquals(coverage, {
    claude: {
      covers: ["working", "idle", "blocked", "lifecycle"],
      visible: ["working", "idle", "blocked"],
    },
    codex: { covers: ["working", "idle", "blocked", "lifecycle"], visible: ["working", "blocked"] },
    cursor: { covers: ["working", "idle", "lifecycle"], visible: ["working", "blocked"] },
    gemini: {
      covers: ["working", "idle", "blocked", "lifecycle"],
      visible: ["working", "blocked"],
    },
    opencode: {
      covers: ["working", "idle", "blocked", "lifecycle"],
      visible: ["blocked", "working"],
    },
    pi: { covers: ["working", "idle", "lifecycle"], visible: ["working"] },
  });
});

Deno.test("bundled manifests D17: every bundled agent ships a positive idle rule", () => {
  for (const m of agents.values()) {
    assert(m.rules.some((r) => r.state === "idle" && !r.skip_state_update), m.name);
  }
});

Deno.test("bundled manifests I16 I27 I37 I46 I54 I62: rule slots, priorities and regions", () => {
  const shape = Object.fromEntries(
    [...agents].map(([k, m]) => [
      k,
      m.rules.map((r) =>
        `${r.state}${r.detail ? `/${r.detail}` : ""}@${r.priority} ${r.region.spec}${
          r.skip_state_update ? " skip" : ""
        }${r.ends_turn ? " ends-turn" : ""}`
      ),
    ]),
  );
  assertEquals(shape, {
    claude: [
      "blocked/permission@100 tail_lines(30)",
      "idle@90 tail_lines(30) skip",
      "idle@90 tail_lines(8) skip",
      "idle@90 tail_lines(6) skip",
      "working@70 visible",
      "working@60 title",
      "idle@50 title",
      "idle@40 tail_lines(6)",
      "idle@80 visible ends-turn",
      "blocked/setup@90 visible",
      "idle@75 visible ends-turn",
    ],
    codex: [
      "blocked/permission@100 tail_lines(24)",
      "working@60 title",
      "working@55 tail_lines(20)",
      "idle@40 tail_lines(6)",
      "idle@45 visible ends-turn",
      "blocked/setup@90 visible",
    ],
    cursor: ["blocked/permission@100 visible", "working@10 visible", "idle@5 visible"],
    gemini: [
      "blocked/permission@100 visible",
      "working@10 visible",
      "idle@5 tail_lines(8)",
      "idle@5 tail_lines(4)",
      "blocked/setup@90 tail_lines(18)",
      "blocked@50 title",
      "working@5 title",
      "idle@1 title",
    ],
    opencode: [
      "blocked/permission@100 tail_lines(24)",
      "blocked/question@100 visible",
      "working@60 visible",
      "idle@40 visible",
    ],
    pi: ["working@10 visible", "idle@5 visible"],
  });
});

Deno.test("bundled manifests M23: telemetry context blocks per agent", () => {
  const tele = Object.fromEntries([...agents].map(([k, m]) => [k, m.telemetry?.context ?? null]));
  assertEquals(tele, {
    claude: { channel: "event", format: "claude-statusline-json" },
    codex: { channel: "file-tail", format: "codex-rollout-jsonl" },
    cursor: { channel: "event", format: "cursor-statusline-json" },
    gemini: null,
    opencode: null,
    pi: { channel: "event", format: "pi-context-json" },
  });
});

Deno.test("bundled manifests I12: Claude's events map as agent-coverage says", () => {
  assertEquals(claimFor("claude", "SessionStart"), start);
  for (const e of ["UserPromptSubmit", "PreToolUse", "PostToolUse"]) {
    assertEquals(claimFor("claude", e), working, e);
  }
  assertEquals(claimFor("claude", "PermissionRequest"), permission);
  assertEquals(claimFor("claude", "Stop"), idleTurnEnd);
  assertEquals(claimFor("claude", "SessionEnd"), end);
  // Subagent bookkeeping is handled by name (D46), not mapped.
  assertStrictEquals(claimFor("claude", "SubagentStart"), null);
  assertStrictEquals(claimFor("claude", "SubagentStop"), null);
});

const notification = (type: string, message: string) =>
  JSON.stringify({
    session_id: "s1",
    hook_event_name: "Notification",
    notification_type: type,
    message,
  });

Deno.test("bundled manifests I12: Claude's permission and elicitation notifications block; the idle reminder does not", () => {
  assertEquals(
    claimFor(
      "claude",
      "Notification",
      notification("permission_prompt", "Claude needs your permission"),
    ),
    permission,
  );
  assertEquals(
    claimFor("claude", "Notification", notification("elicitation_dialog", "Claude has a question")),
    permission,
  );
  assertStrictEquals(
    claimFor(
      "claude",
      "Notification",
      notification("idle_prompt", "Claude is waiting for your input"),
    ),
    null,
  );
});

Deno.test("bundled manifests I14: the usage-limit matchers claim working/rate_limit and cannot match the other types", () => {
  const entries = agent("claude").hooks!.map.filter((e) =>
    e.event === "Notification" && "state" in e.claim && e.claim.detail === "rate_limit"
  );
  assertStrictEquals(entries.length, 3);
  const others = [
    notification("permission_prompt", "Claude needs your permission to use Bash"),
    notification("elicitation_dialog", "Claude needs your input"),
    notification("idle_prompt", "Claude is waiting for your input"),
    // A word in a message body is not a type.
    notification("permission_prompt", "Run ./check_usage_limit.sh to see the rate_limit"),
  ];
  for (const e of entries) {
    assertStrictEquals(e.turn_end, false);
    assertEquals(e.claim, { state: "working", detail: "rate_limit" });
    for (const payload of others) {
      assert(!e.matcher!.re.test(payload), `${e.matcher!.source} ~ ${payload}`);
    }
  }
  for (const type of ["usage_limit_reached", "rate_limit_wait", "auto_continue_scheduled"]) {
    assertEquals(
      claimFor("claude", "Notification", notification(type, "limit reached; resuming at 3pm")),
      { state: "working", detail: "rate_limit", turn_end: false },
      type,
    );
  }
});

Deno.test("bundled manifests I25: Codex's events map, notify by its type", () => {
  const notify = JSON.stringify({ type: "agent-turn-complete", "thread-id": "t", "turn-id": "u" });
  assertEquals(claimFor("codex", "notify", notify), idleTurnEnd);
  assertStrictEquals(claimFor("codex", "notify", '{"type":"something-else"}'), null);
  assertEquals(claimFor("codex", "SessionStart"), start);
  for (const e of ["UserPromptSubmit", "PreToolUse", "PostToolUse"]) {
    assertEquals(claimFor("codex", e), working, e);
  }
  assertEquals(claimFor("codex", "PermissionRequest"), permission);
  assertEquals(claimFor("codex", "Stop"), idleTurnEnd);
  assertEquals(claimFor("codex", "Interrupt"), { state: "idle", turn_end: false });
  assertEquals(claimFor("codex", "SessionEnd"), end);
});

Deno.test("bundled manifests I35: Gemini's events map; only ToolPermission blocks; model events stay unmapped", () => {
  assertEquals(claimFor("gemini", "SessionStart"), start);
  for (const e of ["BeforeAgent", "BeforeTool", "AfterTool"]) {
    assertEquals(claimFor("gemini", e), working, e);
  }
  assertEquals(claimFor("gemini", "AfterAgent"), idleTurnEnd);
  assertEquals(
    claimFor(
      "gemini",
      "Notification",
      '{"notification_type":"ToolPermission","message":"Tool Confirm"}',
    ),
    permission,
  );
  assertStrictEquals(
    claimFor("gemini", "Notification", '{"notification_type":"UpdateAvailable"}'),
    null,
  );
  assertEquals(claimFor("gemini", "SessionEnd"), end);
  for (const e of ["BeforeModel", "AfterModel", "SubagentStart", "SubagentStop"]) {
    assertStrictEquals(claimFor("gemini", e), null, e);
  }
});

Deno.test("bundled manifests I43: OpenCode's plugin tokens map", () => {
  assertEquals(claimFor("opencode", "session-start"), start);
  assertEquals(claimFor("opencode", "user-prompt-submit"), working);
  assertEquals(claimFor("opencode", "stop"), idleTurnEnd);
  assertEquals(claimFor("opencode", "permission-required"), permission);
  assertEquals(claimFor("opencode", "question-required"), {
    state: "blocked",
    detail: "question",
    turn_end: false,
  });
  assertStrictEquals(claimFor("opencode", "permission-replied"), null);
  assertStrictEquals(claimFor("opencode", "question-replied"), null);
});

Deno.test("bundled manifests I52: Cursor's events map; a user-aborted tool failure stays unmapped", () => {
  assertEquals(claimFor("cursor", "sessionStart"), start);
  for (const e of ["beforeSubmitPrompt", "preToolUse", "postToolUse"]) {
    assertEquals(claimFor("cursor", e), working, e);
  }
  assertEquals(
    claimFor("cursor", "postToolUseFailure", '{"failure_type":"error","is_interrupt": false}'),
    working,
  );
  assertStrictEquals(claimFor("cursor", "postToolUseFailure", '{"is_interrupt":true}'), null);
  assertEquals(claimFor("cursor", "stop"), idleTurnEnd);
  assertEquals(claimFor("cursor", "sessionEnd"), end);
});

Deno.test("bundled manifests I60: pi's extension events map", () => {
  assertEquals(claimFor("pi", "session_start"), start);
  assertEquals(claimFor("pi", "before_agent_start"), working);
  assertEquals(claimFor("pi", "tool_execution_start"), working);
  assertEquals(claimFor("pi", "agent_settled"), idleTurnEnd);
  assertEquals(claimFor("pi", "agent_end"), idleTurnEnd);
  assertEquals(claimFor("pi", "session_shutdown"), end);
});

Deno.test("bundled manifests M13: turn_end rides only the turn-ending events", () => {
  const turnEnds = Object.fromEntries(
    [...agents].map(([k, m]) => [k, m.hooks!.map.filter((e) => e.turn_end).map((e) => e.event)]),
  );
  assertEquals(turnEnds, {
    claude: ["Stop"],
    codex: ["notify", "Stop"],
    cursor: ["stop"],
    gemini: ["AfterAgent"],
    opencode: ["stop"],
    pi: ["agent_settled", "agent_end"],
  });
});

Deno.test("bundled manifests A1, I40: approve (Gemini's first option's own digit)", () => {
  const a = action("approve");
  assertStrictEquals(a.kind, "keys");
  assertEquals(a.when, { state: ["blocked"], detail: ["permission"] });
  assertEquals(a.keys, { claude: ["1"], codex: ["y"], cursor: ["y"], gemini: ["1"] });
  assertStrictEquals(a.settles, true);
  assertEquals(a.api, { opencode: { op: "permission-reply", reply: "once" } });
});

Deno.test("bundled manifests A2, I40: deny (Gemini's Escape)", () => {
  const a = action("deny");
  assertEquals(a.when, { state: ["blocked"], detail: ["permission"] });
  assertEquals(a.keys, {
    claude: ["Escape"],
    codex: ["Escape"],
    cursor: ["n"],
    gemini: ["Escape"],
  });
  assertStrictEquals(a.settles, true);
  assertEquals(a.api, { opencode: { op: "permission-reply", reply: "reject" } });
});

Deno.test("bundled manifests A3 I50: interrupt (OpenCode needs two Escapes)", () => {
  const a = action("interrupt");
  assertEquals(a.when, { state: ["working"] });
  assertEquals(a.keys, {
    claude: ["Escape"],
    codex: ["Escape"],
    gemini: ["Escape"],
    // I50's provisional single press was disproved by the recording: OpenCode
    // 1.18.33 only arms the interrupt on the first Escape.
    opencode: ["Escape", "Escape"],
    pi: ["Escape"],
    cursor: ["C-c"],
  });
  assertEquals(a.api, {});
});

Deno.test("bundled manifests A4: compact", () => {
  const a = action("compact");
  assertEquals(a.when, { state: ["idle"], context_pct_min: 75 });
  assertEquals(a.keys, { claude: ["/compact", "Enter"] });
});

Deno.test("bundled manifests A5: question_reject is API-only", () => {
  const a = action("question_reject");
  assertStrictEquals(a.kind, "keys");
  assertEquals(a.when, { state: ["blocked"], detail: ["question"] });
  assertEquals(a.keys, {});
  assertEquals(a.api, { opencode: { op: "question-reject" } });
});

Deno.test("bundled manifests A6: steer", () => {
  const a = action("steer");
  assertStrictEquals(a.text, true);
  assertEquals(a.when, { state: ["idle"] });
  const wrap = ["{text}", "Enter"];
  assertEquals(a.keys, { claude: wrap, codex: wrap, cursor: wrap, opencode: wrap, pi: wrap });
  assert(!("gemini" in a.keys));
});

Deno.test("bundled manifests A7: steer_now", () => {
  const a = action("steer_now");
  assertStrictEquals(a.text, true);
  assertEquals(a.when, { state: ["working"] });
  assertEquals(a.keys, { claude: ["{text}", "Enter"], codex: ["{text}", "Enter"] });
});

Deno.test("bundled manifests A9: no bundled action wires an always or session-wide grant", () => {
  const grants: Record<string, string> = { claude: "2", codex: "p", cursor: "Tab" };
  for (const a of actions.values()) {
    for (const [name, seq] of Object.entries(a.keys)) {
      assert(!seq.includes(grants[name] ?? "\0"), `${a.name} ${name}`);
      assert(!seq.includes("BTab"), `${a.name} ${name}`);
    }
    for (const op of Object.values(a.api)) {
      assert(!("reply" in op && op.reply === "always"), a.name);
    }
  }
});

Deno.test("bundled manifests M47: every agent a bundled action names has a bundled manifest", () => {
  for (const a of actions.values()) {
    for (const name of [...Object.keys(a.keys), ...Object.keys(a.api), ...a.agents]) {
      assert(agents.has(name), `${a.name} names ${name}`);
    }
  }
});

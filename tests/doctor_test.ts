/**
 * `tma doctor` (C91-C93, U42-U44, P71, P72, M47): the pure diagnosis on
 * hand-made facts, then the command on scratch servers with stand-in
 * agents: a pane at each tier with its reason, each U43 warning provoked
 * once, `--exit-code` exactly when a counted warning is present, no server
 * in one line, and not one option or file changed by a run.
 * @module
 */
import { assert, assertEquals, assertStringIncludes } from "./harness/assert.ts";
import { runTma, type ScratchTmux, tmuxTest } from "./harness/tmux.ts";
import { attachClient, HAS_SCRIPT } from "./harness/client.ts";
import {
  belowFloor,
  diagnose,
  type DoctorFacts,
  type DoctorPaneFacts,
  renderDoctor,
  stampIssues,
  statusRunsTma,
} from "../src/core/doctor.ts";
import { codexGates } from "../src/install/inspect.ts";
import { recordFailure } from "../src/runtime/notify/failure.ts";

/** P71's key set, exactly. */
const P71_KEYS = [
  "actions",
  "agents",
  "ambient_driver",
  "clients",
  "daemon",
  "ignored_panes",
  "manifests",
  "mouse",
  "nested_multiplexers",
  "notify",
  "process_name_issues",
  "process_walk",
  "remote_panes",
  "schema",
  "stamp_issues",
  "status_option",
  "tmux_hooks",
  "watch",
  "wrapper",
];

/** P72's key set, exactly. */
const P72_KEYS = [
  "agent",
  "endpoint_ok",
  "evidence_age_ms",
  "hook_demoted",
  "hook_status",
  "hooks_wired",
  "locator",
  "model",
  "pane",
  "source",
  "state",
  "statusline",
  "tier",
  "tier_reason",
  "window_covered",
];

const SUB_KEYS: Record<string, string[]> = {
  daemon: ["alive", "socket", "version", "version_matches"],
  ambient_driver: ["last_poll_age_ms", "polling"],
  clients: ["attached"],
  status_option: ["enabled"],
  mouse: ["bindings_installed", "enabled"],
  watch: ["running", "watchers"],
  wrapper: ["path", "present"],
  notify: ["last_failure"],
  manifests: ["issues", "ok"],
  process_walk: ["error", "ok"],
};

function pinKeys(json: Record<string, unknown>): void {
  assertEquals(Object.keys(json).sort(), P71_KEYS, "P71 top-level keys");
  for (const [key, keys] of Object.entries(SUB_KEYS)) {
    assertEquals(Object.keys(json[key] as object).sort(), keys, `P71 ${key}`);
  }
  for (const hook of json.tmux_hooks as object[]) {
    assertEquals(Object.keys(hook).sort(), ["hook", "hook_state", "present"]);
  }
  for (const agent of json.agents as object[]) assertEquals(Object.keys(agent).sort(), P72_KEYS);
}

function pane(overrides: Partial<DoctorPaneFacts> = {}): DoctorPaneFacts {
  return {
    pane: "%1",
    agent: "claude",
    locator: "main:1.0",
    options: { "@agent_state": "idle", "@agent_source": "hook" },
    hookStatus: "wired",
    statusline: "installed",
    windowCovered: null,
    endpoint: null,
    endpointOk: null,
    apiLane: false,
    findings: [],
    ...overrides,
  };
}

function facts(overrides: Partial<DoctorFacts> = {}): DoctorFacts {
  return {
    nowMs: 1_800_000_000_000,
    tmuxVersion: "3.3a",
    daemon: { alive: false, socket: null, version: null },
    tmaVersion: "0.1.0",
    lastPollMs: 0,
    statusRight: "",
    statusOn: true,
    mouse: { bindingsInstalled: false, enabled: false },
    clients: 1,
    watchers: [],
    wrapper: { path: "/h/.local/bin/tma-hook", present: true, tma: "/usr/bin/tma" },
    notifyLastFailure: null,
    tmuxHooks: [{ hook: "after-select-pane", hook_state: "present", detail: "index 0" }],
    manifests: { agents: 6, actions: 7, skipped: [], unknownActionAgents: [] },
    processNames: [],
    processWalk: { ok: true, error: null },
    remotePanes: [],
    nestedPanes: [],
    ignoredPanes: [],
    wiredAgents: ["claude"],
    hookGates: [],
    panes: [pane()],
    ...overrides,
  };
}

Deno.test("doctor P71, P72: the JSON carries exactly the contract's key sets", () => {
  pinKeys(diagnose(facts()).json);
});

Deno.test("doctor U44: tier 2 without a daemon, 3 with; 1 with its reason; what counts", () => {
  const wired = diagnose(facts());
  assertEquals(wired.agents[0].tier, 2);
  assertStringIncludes(wired.agents[0].tier_reason ?? "", "no daemon");
  assertEquals(wired.counted, 0, "a missing daemon and no ambient poll are not counted");

  const daemon = diagnose(facts({ daemon: { alive: true, socket: "/s", version: "0.0.9" } }));
  assertEquals(daemon.agents[0].tier, 3);
  assertEquals(daemon.agents[0].tier_reason, null);
  assertEquals(daemon.json.daemon, {
    alive: true,
    socket: "/s",
    version: "0.0.9",
    version_matches: false,
  });
  assertEquals(daemon.counted, 0, "version skew is not counted");

  const reasons = {
    not_installed: "hooks not installed (run tma install-hooks claude)",
    incomplete: "hooks incomplete",
    hookless: "hookless",
    no_adapter: "no adapter",
  } as const;
  for (const [status, reason] of Object.entries(reasons)) {
    const d = diagnose(facts({
      panes: [pane({ hookStatus: status as DoctorPaneFacts["hookStatus"] })],
    }));
    assertEquals(d.agents[0].tier, 1, status);
    assertStringIncludes(d.agents[0].tier_reason ?? "", reason);
    const supported = status === "not_installed" || status === "incomplete";
    assertEquals(d.counted, supported ? 1 : 0, `${status}: below its manifest's tier counts`);
  }
  const lists = diagnose(facts({ remotePanes: ["%4"], nestedPanes: ["%5"], ignoredPanes: ["%6"] }));
  assertEquals(lists.counted, 0, "remote, nested and ignored panes are reported, not counted");
  assertEquals(lists.json.remote_panes, ["%4"]);
});

Deno.test("doctor U43: the tmux floor is a warning never counted; an unrecognised model is a note", () => {
  assert(belowFloor("3.2a") && belowFloor("2.9") && !belowFloor("3.3a") && !belowFloor("3.4"));
  assert(!belowFloor("next-3.6") && !belowFloor("master"));
  const old = diagnose(facts({ tmuxVersion: "3.2a" }));
  assertEquals(old.counted, 0);
  assert(old.warnings.some((w) => w.topic === "tmux" && !w.counted));
  const model = diagnose(facts({
    panes: [pane({ options: { "@agent_model": "mystery-1" }, windowCovered: false })],
  }));
  assertEquals(model.counted, 0);
  assertEquals(model.agents[0].window_covered, false);
});

Deno.test("doctor U43: undecodable stamps are named option by option", () => {
  assertEquals(
    stampIssues("%3", {
      "@agent_state": "busy",
      "@agent_source": "hook",
      "@agent_pid": "12x",
      "@agent_since": "yesterday",
      "@agent_evidence_at": "1784594569000",
      "@agent_attention": "2",
    }),
    [
      { pane: "%3", option: "@agent_state", value: "busy" },
      { pane: "%3", option: "@agent_pid", value: "12x" },
      { pane: "%3", option: "@agent_attention", value: "2" },
      { pane: "%3", option: "@agent_since", value: "yesterday" },
    ],
  );
  assertEquals(stampIssues("%3", { "@agent_state": "idle", "@agent_source": "activity" }), []);
});

Deno.test("doctor U2: status-right running tma status is recognised", () => {
  assert(statusRunsTma("#(tma status) %H:%M"));
  assert(statusRunsTma("#(/usr/local/bin/tma --socket-name x status --format tmux)"));
  assert(!statusRunsTma("tma status"), "not run by tmux without #()");
  assert(!statusRunsTma("#(date)"));
});

// ── the command on scratch servers ─────────────────────────────────────────

/** A recorder binary standing in for tma on PATH (what the wrapper would find). */
async function fakeTma(t: ScratchTmux): Promise<string> {
  const bin = `${t.home}/bin/tma`;
  await Deno.mkdir(`${t.home}/bin`, { recursive: true });
  await Deno.writeTextFile(bin, "#!/bin/sh\nexit 0\n");
  await Deno.chmod(bin, 0o755);
  return bin;
}

/** Wires claude with a stand-in tma as TMA_BIN; returns the env doctor runs with. */
async function wireClaude(t: ScratchTmux): Promise<Record<string, string>> {
  const env = { TMA_BIN: await fakeTma(t) };
  const installed = await runTma(t, ["install-hooks", "claude", "--yes"], { env });
  assertEquals(installed.code, 0, installed.stderr);
  return env;
}

/** Every option, hook, binding and file a doctor run could touch, as text. */
async function everything(t: ScratchTmux): Promise<string> {
  const parts = [
    await t.tmux("show-options", "-g"),
    await t.tmux("show-options", "-s"),
    await t.tmux("show-hooks", "-g"),
    await t.tmux("list-keys"),
    await t.tmux("list-panes", "-a", "-F", "#{pane_id}"),
  ];
  for (const id of parts[4].trim().split("\n")) {
    parts.push(id, await t.tmux("show-options", "-p", "-t", id));
  }
  const walk = async (dir: string): Promise<void> => {
    for await (const entry of Deno.readDir(dir)) {
      const path = `${dir}/${entry.name}`;
      if (entry.isDirectory) await walk(path);
      else if (entry.isFile) parts.push(path, await Deno.readTextFile(path));
      else parts.push(path);
    }
  };
  await walk(t.home);
  return parts.join("\n");
}

async function doctor(t: ScratchTmux, args: string[], env: Record<string, string>) {
  return await runTma(t, ["doctor", ...args], { env });
}

tmuxTest(
  "doctor U43: each warning provoked once, --exit-code 1, and not one byte or option written",
  async (t) => {
    const env = await wireClaude(t);
    // A clobbered shim: another tool replaced statusLine.command.
    const settings = `${t.home}/.claude/settings.json`;
    const doc = JSON.parse(await Deno.readTextFile(settings));
    doc.statusLine = { type: "command", command: "other-statusline" };
    await Deno.writeTextFile(settings, JSON.stringify(doc, null, 2));
    // A wiped tmux hook: the recorded server is not this one any more.
    const statePath = `${t.home}/.config/tma/hooks-state-${t.socketName}.toml`;
    const state = await Deno.readTextFile(statePath);
    await Deno.writeTextFile(statePath, state.replace(/server_pid = \d+/, "server_pid = 1"));
    await t.tmux("set-hook", "-gu", "after-select-pane");
    // A skipped broken manifest and a process name the kernel would truncate.
    const agents = `${t.home}/.config/tma/agents`;
    await Deno.mkdir(agents, { recursive: true });
    await Deno.writeTextFile(`${agents}/broken.toml`, "min_engine_version = \n");
    await Deno.writeTextFile(
      `${agents}/longname.toml`,
      'min_engine_version = "0.1.0"\n[identity]\nprocess_names = ["averyverylongagentname"]\n' +
        "[capture]\n",
    );
    // A notify command that failed.
    const scratchEnv = t.env();
    recordFailure((name) => scratchEnv[name], {
      at_ms: 1_800_000_000_000,
      trigger: "blocked",
      pane: "%9",
      command: "nosuch-notifier",
      exit_code: 127,
    });
    // Status off; mouse bindings without mouse.
    await t.tmux("set-option", "-g", "status", "off");
    await t.tmux("bind-key", "-T", "root", "MouseDown1Status", "run-shell", "tma jump --blocked");
    // An undecodable stamp on a claude pane; a pending OpenCode request with no endpoint.
    const claude = await t.standIn("claude");
    await t.tmux("set-option", "-p", "-t", claude.pane, "@agent_state", "busy");
    const opencode = await t.standIn("opencode");
    await t.tmux("set-option", "-p", "-t", opencode.pane, "@agent_permission_request", "per_7");

    const before = await everything(t);
    const json = await doctor(t, ["--json", "--exit-code"], env);
    const human = await doctor(t, [], env);
    assertEquals(await everything(t), before, "doctor wrote nothing");

    assertEquals(json.code, 1, json.stderr);
    assertStringIncludes(json.stderr, "counted warning");
    const report = JSON.parse(json.stdout);
    pinKeys(report);
    assertEquals(report.status_option, { enabled: false });
    assertStringIncludes(report.notify.last_failure, "nosuch-notifier");
    assertEquals(report.mouse, { bindings_installed: true, enabled: false });
    assertEquals(
      report.tmux_hooks.find((h: { hook: string }) => h.hook === "after-select-pane").hook_state,
      "wiped",
    );
    assertEquals(report.manifests.ok, false);
    assertStringIncludes(report.manifests.issues[0], "broken.toml");
    assertEquals(report.process_name_issues, [{
      agent: "longname",
      name: "averyverylongagentname",
    }]);
    assertEquals(report.stamp_issues, [{
      pane: claude.pane,
      option: "@agent_state",
      value: "busy",
    }]);
    const byPane = (id: string) => report.agents.find((a: { pane: string }) => a.pane === id);
    assertEquals(byPane(claude.pane).statusline, "clobbered");
    assertEquals(byPane(opencode.pane).hook_status, "not_installed");
    assertEquals(byPane(opencode.pane).tier, 1);
    assertEquals(byPane(opencode.pane).endpoint_ok, null);

    assertEquals(human.code, 0, "without --exit-code the exit is 0");
    for (
      const line of [
        "status: warning: the status line is off",
        "mouse: warning: tma's status-line clicks are bound but mouse is off",
        "after-select-pane wiped",
        "warning: skipped ",
        'process name "averyverylongagentname" is over 15 characters',
        'stamp: @agent_state = "busy" does not decode',
        "statusline: statusLine.command was replaced",
        "api: a request waits (per_7) but no endpoint is known",
        `not tier 2: hooks not installed (run tma install-hooks opencode)`,
        "daemon: no daemon",
        'notify: warning: the last notification failed: notify command "nosuch-notifier"',
      ]
    ) assertStringIncludes(human.stdout, line);
  },
);

tmuxTest(
  "doctor C93: a wired server with a client attached has no counted warning (exit 0); tier 2 and tier 1 panes",
  async (t) => {
    const env = await wireClaude(t);
    const claude = await t.standIn("claude");
    const client = await attachClient(t, "main");
    try {
      const wired = await doctor(t, ["--json", "--exit-code"], env);
      assertEquals(wired.code, 0, wired.stdout + wired.stderr);
      const report = JSON.parse(wired.stdout);
      assertEquals(report.clients.attached, 1);
      const entry = report.agents[0];
      assertEquals(
        [entry.pane, entry.agent, entry.hook_status, entry.tier, entry.statusline],
        [claude.pane, "claude", "wired", 2, "installed"],
      );
      const human = await doctor(t, [], env);
      assertStringIncludes(human.stdout, `${claude.pane} claude main:`);
      assertStringIncludes(human.stdout, "not tier 3: no daemon");
      assertStringIncludes(human.stdout, "no hook event has reached this pane yet");
      // A pi pane: wireable, not wired, so below the tier its manifest supports.
      await t.standIn("pi");
      const below = await doctor(t, ["--exit-code"], env);
      assertEquals(below.code, 1);
      assertStringIncludes(
        below.stdout,
        "not tier 2: hooks not installed (run tma install-hooks pi)",
      );
      assertStringIncludes(below.stderr, "1 pane below its supported tier");
    } finally {
      await client.close();
    }
  },
  { ignore: !HAS_SCRIPT },
);

tmuxTest("doctor C93: no server is one line and exit 1", async (t) => {
  const ran = await runTma(t, ["--socket-name", `${t.socketName}-none`, "doctor"]);
  assertEquals(ran.code, 1);
  assertEquals(ran.stdout, "");
  assertEquals(ran.stderr.trim().split("\n").length, 1, ran.stderr);
  assertStringIncludes(ran.stderr, `no tmux server on socket name ${t.socketName}-none`);
  assertStringIncludes(ran.stderr, "-L NAME, -S PATH or TMA_SOCKET_PATH");
});

Deno.test("doctor: Codex's own gates: untrusted hook entries and [features] hooks = false", () => {
  const hooks = "/h/.codex/hooks.json";
  const events = [
    "session_start",
    "session_end",
    "user_prompt_submit",
    "pre_tool_use",
    "post_tool_use",
    "permission_request",
    "stop",
    "interrupt",
    "subagent_start",
    "subagent_stop",
  ];
  const trusted = events.map((e) =>
    `[hooks.state."${hooks}:${e}:0:0"]\ntrusted_hash = "sha256:ab"\n`
  )
    .join("");
  assertEquals(codexGates(trusted, hooks), []);
  const none = codexGates('notify = ["x"]\n', hooks);
  assertEquals(none.length, 1);
  assertStringIncludes(none[0], "Codex trusts 0 of tma's 10 hook events");
  assertStringIncludes(none[0], "Trust all and continue");
  const off = codexGates(`[features]\nhooks = false\n${trusted}`, hooks);
  assertEquals(off, [
    "Codex hooks are switched off ([features] hooks = false in config.toml): set it to true",
  ]);
  assertEquals(codexGates("not = [toml", hooks), [], "a broken file is --check's to report");
});

tmuxTest("doctor U43: an OpenCode pane's endpoint is probed: answers, or a warning", async (t) => {
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    () => new Response("ok"),
  );
  try {
    const url = `http://127.0.0.1:${server.addr.port}`;
    const opencode = await t.standIn("opencode");
    await t.tmux("set-option", "-p", "-t", opencode.pane, "@agent_api_endpoint", url);
    const up = await doctor(t, ["--json"], {});
    assertEquals(JSON.parse(up.stdout).agents[0].endpoint_ok, true);
    assertStringIncludes((await doctor(t, [], {})).stdout, `api: ${url} answers`);
    await server.shutdown();
    const down = await doctor(t, [], {});
    assertStringIncludes(down.stdout, `api: ${url} does not answer`);
    assertStringIncludes(down.stdout, `warning: api: ${url} does not answer`);
  } finally {
    await server.shutdown().catch(() => undefined);
  }
});

Deno.test("doctor U9, U42, U44: a pane the running daemon demoted is tier 1 with its reason, counted", () => {
  const options = {
    "@agent_state": "working",
    "@agent_source": "capture",
    "@tma_hook_at": "1799999000000",
    "@tma_demoted": "1799999000000",
  };
  const live = { alive: true, socket: "/s", version: "0.1.0" };
  const demoted = diagnose(facts({ daemon: live, panes: [pane({ options })] }));
  assertEquals(demoted.agents[0].hook_demoted, true);
  assertEquals(demoted.agents[0].tier, 1);
  assertStringIncludes(demoted.agents[0].tier_reason ?? "", "demoted");
  assertEquals(demoted.counted, 1, "below the tier its manifest supports");
  const text = renderDoctor(facts({ daemon: live, panes: [pane({ options })] }), demoted);
  assertStringIncludes(text, "  demoted: hooks silent while the pane printed");
  // A hook event since (the time moved), or no daemon, and it no longer holds.
  const resumed = { ...options, "@tma_hook_at": "1799999500000" };
  assertEquals(
    diagnose(facts({ daemon: live, panes: [pane({ options: resumed })] })).agents[0].hook_demoted,
    false,
  );
  const gone = diagnose(facts({ panes: [pane({ options })] }));
  assertEquals([gone.agents[0].hook_demoted, gone.agents[0].tier], [false, 2]);
});

Deno.test("doctor U14: a daemon of another version is a note with the restart, never counted", () => {
  const skewed = facts({ daemon: { alive: true, socket: "/s", version: "0.0.9", pid: 4242 } });
  const d = diagnose(skewed);
  const note = d.warnings.find((w) => w.topic === "daemon");
  assert(note && !note.counted, JSON.stringify(d.warnings));
  assertStringIncludes(note.text, "tma 0.0.9, this is tma 0.1.0");
  assertStringIncludes(note.text, "kill 4242");
  assertEquals(d.counted, 0);
  assertStringIncludes(renderDoctor(skewed, d), "daemon: running (/s, 0.0.9)\n  note: the daemon");
  const same = diagnose(facts({ daemon: { alive: true, socket: "/s", version: "0.1.0" } }));
  assertEquals(same.warnings.filter((w) => w.topic === "daemon"), []);
});

import { assertEquals } from "../../tests/harness/assert.ts";
import { type AgentProfile, identify, normalizeCommandName } from "./identity.ts";
import { indexProcesses, type PaneFacts, type ProcessInfo } from "./snapshot.ts";

const profiles: AgentProfile[] = [
  { name: "claude", processNames: ["claude"], titlePatterns: [], argsPatterns: [] },
  {
    name: "codex",
    processNames: ["codex", "codex-aarch64-a"],
    titlePatterns: [],
    argsPatterns: [/@openai\/codex\b/],
  },
  {
    name: "gemini",
    processNames: ["node"],
    titlePatterns: [/^◇ {2}Ready /],
    argsPatterns: [/\/gemini-cli\/|\/bin\/gemini(\s|$)/],
  },
  {
    name: "cursor",
    processNames: ["node", "agent"],
    titlePatterns: [/^Cursor Agent$/],
    argsPatterns: [],
  },
  {
    name: "opencode",
    processNames: ["opencode.exe", "opencode"],
    titlePatterns: [],
    argsPatterns: [],
  },
];

function pane(extra: Partial<PaneFacts> = {}): PaneFacts {
  return {
    paneId: "%1",
    sessionName: "s",
    sessionId: "$1",
    windowId: "@1",
    windowIndex: 0,
    paneIndex: 0,
    locator: "s:0.0",
    panePid: 10,
    currentCommand: "bash",
    currentPath: "/w",
    title: "host",
    width: 100,
    height: 30,
    tty: "/dev/pts/1",
    inMode: false,
    scrollPosition: 0,
    windowActivitySec: 0,
    dead: false,
    alternateOn: false,
    active: true,
    windowActive: true,
    socketPath: "/tmp/tmux-0/default",
    lastPollMs: 0,
    statusAtMs: 0,
    options: {},
    rollups: {},
    ...extra,
  };
}

function proc(pid: number, ppid: number, comm: string, args: string, fg = pid): ProcessInfo {
  return { pid, ppid, pgid: fg, tpgid: fg, comm, args };
}

Deno.test("identify() D29: a process named like an agent identifies the pane and its group leader", () => {
  const table = indexProcesses([
    proc(10, 1, "bash", "-bash", 20),
    proc(20, 10, "claude", "claude"),
  ]);
  const id = identify(pane({ currentCommand: "claude" }), { table, profiles });
  assertEquals([id.agent, id.pid, id.foregroundIsAgent], ["claude", 20, true]);
});

Deno.test("a shell pane holds no agent", () => {
  const table = indexProcesses([proc(10, 1, "bash", "-bash")]);
  assertEquals(identify(pane(), { table, profiles }).agent, null);
});

Deno.test("real Codex from npm: a node wrapper in the foreground with a native codex child", () => {
  const table = indexProcesses([
    proc(10, 1, "bash", "-bash", 20),
    proc(20, 10, "node", "node /usr/lib/node_modules/@openai/codex/bin/codex.js", 20),
    proc(21, 20, "codex", "/usr/lib/node_modules/@openai/codex-linux-x64/vendor/codex", 20),
  ]);
  const id = identify(pane({ currentCommand: "node", title: "⠼ fix it | proj" }), {
    table,
    profiles,
  });
  assertEquals([id.agent, id.pid, id.foregroundIsAgent], ["codex", 20, true]);
});

Deno.test("real Gemini: two node processes, identified by the command line, no title needed", () => {
  const table = indexProcesses([
    proc(10, 1, "bash", "-bash", 20),
    proc(20, 10, "node", "node /home/u/.npm/bin/gemini", 20),
    proc(
      21,
      20,
      "node",
      "node --max-old-space-size=4096 /lib/node_modules/@google/gemini-cli/dist/index.js",
      20,
    ),
  ]);
  const id = identify(pane({ currentCommand: "node", title: "✦  Working… (proj)" }), {
    table,
    profiles,
  });
  assertEquals([id.agent, id.foregroundIsAgent], ["gemini", true]);
});

Deno.test("identify() D33: a generic node process needs the title, held while the pid stays", () => {
  const table = indexProcesses([
    proc(10, 1, "bash", "-bash", 20),
    proc(20, 10, "node", "node agent.js", 20),
  ]);
  assertEquals(
    identify(pane({ currentCommand: "node", title: "build" }), { table, profiles }).agent,
    null,
  );
  const titled = identify(pane({ currentCommand: "node", title: "Cursor Agent" }), {
    table,
    profiles,
  });
  assertEquals([titled.agent, titled.titleMatchPid], ["cursor", 20]);
  const flicker = identify(
    pane({
      currentCommand: "node",
      title: "Shell Command Output",
      options: { "@tma_title_match_pid": "20", "@agent_name": "cursor" },
    }),
    { table, profiles },
  );
  assertEquals(flicker.agent, "cursor");
});

Deno.test("identify() D13: an agent whose group does not own the terminal is not the foreground", () => {
  const table = indexProcesses([
    proc(10, 1, "bash", "-bash", 30),
    { pid: 20, ppid: 10, pgid: 20, tpgid: 30, comm: "claude", args: "claude" },
    proc(30, 20, "vim", "vim notes.md", 30),
  ]);
  const id = identify(pane({ currentCommand: "vim" }), { table, profiles });
  assertEquals([id.agent, id.foregroundIsAgent], ["claude", false]);
});

Deno.test("identify() D31, D32: truncated and wrapped command names", () => {
  assertEquals(normalizeCommandName(".opencode-wrapped"), "opencode");
  assertEquals(normalizeCommandName(".opencode-wrapp"), "opencode");
  const table = indexProcesses([
    proc(10, 1, "bash", "-bash", 20),
    proc(20, 10, "codex-aarch64-a", "codex"),
  ]);
  assertEquals(
    identify(pane({ currentCommand: "codex-aarch64-a" }), { table, profiles }).agent,
    "codex",
  );
});

Deno.test("identify() D35, D36: remote shells and nested multiplexers are out of scope", () => {
  const table = indexProcesses([
    proc(10, 1, "bash", "-bash", 20),
    proc(20, 10, "ssh", "ssh host claude"),
  ]);
  const remote = identify(pane({ currentCommand: "ssh" }), { table, profiles });
  assertEquals([remote.agent, remote.outOfScope], [null, "remote"]);
  assertEquals(
    identify(pane({ currentCommand: "tmux" }), { table, profiles }).outOfScope,
    "nested",
  );
});

Deno.test("identify() D30, D37: a registration outranks the carve-out and marks a pane with no process", () => {
  const table = indexProcesses([proc(10, 1, "bash", "-bash", 20), proc(20, 10, "ssh", "ssh host")]);
  const options = { "@agent_name": "claude", "@agent_pid": "0" };
  const id = identify(pane({ currentCommand: "ssh", options }), { table, profiles });
  assertEquals([id.agent, id.source, id.outOfScope], ["claude", "registered", "remote"]);
});

Deno.test("identify() D38: @agent_ignore removes a pane from detection", () => {
  const table = indexProcesses([
    proc(10, 1, "bash", "-bash", 20),
    proc(20, 10, "claude", "claude"),
  ]);
  const id = identify(pane({ currentCommand: "claude", options: { "@agent_ignore": "1" } }), {
    table,
    profiles,
  });
  assertEquals([id.agent, id.ignored], [null, true]);
});

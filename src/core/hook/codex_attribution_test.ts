import { assertEquals } from "../../../tests/harness/assert.ts";
import type { AgentProfile } from "../identity.ts";
import { indexProcesses, type PaneFacts, type PaneOptions, type ProcessInfo } from "../snapshot.ts";
import {
  attributeCodexEvent,
  type AttributionInput,
  codexSessionKey,
} from "./codex_attribution.ts";
import { parsePayload } from "./payload.ts";

const profile: AgentProfile = {
  name: "codex",
  processNames: ["codex"],
  titlePatterns: [],
  argsPatterns: [/^(?:\S*\/)?node(?:\s+-\S+)*\s+(?:\S*\/)?codex(?:\.js)?(?:\s|$)/u],
};

function pane(id: string, pid: number, options: PaneOptions = {}, cwd = "/proj"): PaneFacts {
  return {
    paneId: id,
    panePid: pid,
    currentCommand: "node",
    currentPath: cwd,
    title: "",
    dead: false,
    options,
  } as unknown as PaneFacts;
}

function proc(pid: number, ppid: number, comm: string, args = comm): ProcessInfo {
  return { pid, ppid, pgid: pid, tpgid: -1, comm, args };
}

// %0 and %1 run codex (npm layout: node wrapper, native child); %2 is a shell.
const table = indexProcesses([
  proc(100, 1, "bash"),
  proc(101, 100, "node", "node /usr/lib/node_modules/@openai/codex/bin/codex.js"),
  proc(102, 101, "codex"),
  proc(200, 1, "bash"),
  proc(201, 200, "node", "node /usr/local/bin/codex --no-alt-screen"),
  proc(300, 1, "bash"),
]);

function attribute(panes: PaneFacts[], extra: Partial<AttributionInput>) {
  return attributeCodexEvent({
    panes,
    table,
    profile,
    reportedPane: "%0",
    sessionKey: null,
    cwd: "/proj",
    registration: false,
    ...extra,
  }).pane;
}

Deno.test("issue 7: the reported pane is stamped when it runs codex in the event's session", () => {
  const panes = [
    pane("%0", 100, { "@agent_session": "A" }),
    pane("%1", 200, { "@agent_session": "B" }),
  ];
  assertEquals(attribute(panes, { sessionKey: "A" }), "%0");
});

Deno.test("issue 7: a daemon reporting another pane routes by registered session", () => {
  const panes = [
    pane("%0", 100, { "@agent_session": "A" }),
    pane("%1", 200, { "@agent_session": "B" }),
  ];
  assertEquals(attribute(panes, { sessionKey: "B" }), "%1");
});

Deno.test("issue 7: a new session's registration goes to the one unregistered codex pane in its cwd", () => {
  const panes = [pane("%0", 100, { "@agent_session": "A" }), pane("%1", 200)];
  assertEquals(attribute(panes, { sessionKey: "B", registration: true }), "%1");
  assertEquals(attribute(panes, { sessionKey: "B" }), "%1");
});

Deno.test("issue 7: a pane without codex in its tree is never stamped", () => {
  const panes = [pane("%0", 300), pane("%1", 200)];
  assertEquals(attribute(panes, { sessionKey: "B" }), "%1");
  assertEquals(attribute([pane("%0", 300)], { sessionKey: "B" }), null);
});

Deno.test("issue 7: two candidate panes in one cwd is no attribution at all", () => {
  const panes = [
    pane("%0", 100, { "@agent_session": "A" }),
    pane("%1", 200, { "@agent_session": "B" }),
  ];
  assertEquals(attribute(panes, { sessionKey: "T" }), null);
  assertEquals(attribute([pane("%0", 300), pane("%1", 200), pane("%2", 100)], {}), null);
});

Deno.test("issue 7: a new session in a registered pane re-registers it (/new), other events do not", () => {
  const panes = [pane("%0", 100, { "@agent_session": "A" })];
  assertEquals(attribute(panes, { sessionKey: "C", registration: true }), "%0");
  // Codex's title-generation thread notifies with a thread id no pane owns.
  assertEquals(attribute(panes, { sessionKey: "T" }), null);
});

Deno.test("issue 7: no reported pane still attributes by session or cwd", () => {
  const panes = [pane("%0", 100, { "@agent_session": "A" }), pane("%1", 200)];
  assertEquals(attribute(panes, { reportedPane: null, sessionKey: "A" }), "%0");
  assertEquals(attribute(panes, { reportedPane: null, sessionKey: null }), "%1");
  assertEquals(attribute(panes, { reportedPane: null, sessionKey: null, cwd: "/else" }), null);
});

Deno.test("issue 7: daemon mode, panes in two folders: B's first events never land on A", () => {
  // Seen with real Codex 0.171 in daemon mode: every hook reports pane A
  // (the daemon's TMUX_PANE), with B's session and B's cwd.
  const panes = [pane("%0", 100, {}, "/a"), pane("%1", 200, {}, "/b")];
  assertEquals(attribute(panes, { sessionKey: "B", cwd: "/b", registration: true }), "%1");
  assertEquals(attribute(panes, { sessionKey: "B", cwd: "/b" }), "%1");
  // A's own events still reach A.
  assertEquals(attribute(panes, { sessionKey: "A", cwd: "/a", registration: true }), "%0");
  // Once B is registered, the title-generation notify (a thread id no pane
  // owns) is dropped instead of ending B's turn.
  const registered = [
    pane("%0", 100, { "@agent_session": "A" }, "/a"),
    pane("%1", 200, { "@agent_session": "B" }, "/b"),
  ];
  assertEquals(attribute(registered, { sessionKey: "T", cwd: "/b" }), null);
});

Deno.test("issue 7: two unregistered codex panes in one folder cannot be told apart: dropped", () => {
  const panes = [pane("%0", 100, {}, "/same"), pane("%1", 200, {}, "/same")];
  assertEquals(attribute(panes, { sessionKey: "B", cwd: "/same" }), null);
});

Deno.test("attributeCodexEvent() I25: a notify payload's thread-id is its session key", () => {
  const notify = parsePayload('{"type":"agent-turn-complete","thread-id":"t-1","cwd":"/p"}')!;
  assertEquals(codexSessionKey(notify), "t-1");
  assertEquals(codexSessionKey(parsePayload('{"session_id":"s","thread-id":"t"}')!), "s");
});

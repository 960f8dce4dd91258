import { assertEquals } from "../../../tests/harness/assert.ts";
import type { AgentProfile } from "../identity.ts";
import { indexProcesses, type PaneFacts, type ProcessInfo } from "../snapshot.ts";
import { changedHands } from "./handover.ts";

const claude: AgentProfile = {
  name: "claude",
  processNames: ["claude"],
  titlePatterns: [],
  argsPatterns: [],
};
const gemini: AgentProfile = {
  name: "gemini",
  processNames: ["node"],
  titlePatterns: [],
  argsPatterns: [/^node\s+\S*gemini/u],
};

/** A pane whose first process is its shell, pid 10. */
const pane = { panePid: 10 } as PaneFacts;

function proc(pid: number, ppid: number, comm: string, args = comm): ProcessInfo {
  return { pid, ppid, pgid: pid, tpgid: 10, comm, args };
}

/** The pane's shell (10) runs an interactive claude (20). */
const base = [proc(10, 1, "bash"), proc(20, 10, "claude")];

function decide(extra: ProcessInfo[], hookPid: number, event: AgentProfile) {
  return changedHands({
    pane,
    table: indexProcesses([...base, ...extra]),
    hookPid,
    event,
    registered: claude,
  }).changed;
}

Deno.test("changedHands() D46: a headless agent run by the pane's agent does not take the pane", () => {
  // claude (20) -> bash tool (30) -> claude -p (40) -> its hook (50) -> tma (60)
  const headless = [
    proc(30, 20, "bash"),
    proc(40, 30, "claude"),
    proc(50, 40, "sh"),
    proc(60, 50, "deno"),
  ];
  assertEquals(decide(headless, 60, claude), false);
  // claude (20) -> bash tool (30) -> gemini -p (41) -> its hook (51) -> tma (61)
  const gem = [
    proc(30, 20, "bash"),
    proc(41, 30, "node", "node /usr/lib/gemini -p hi"),
    proc(51, 41, "sh"),
    proc(61, 51, "deno"),
  ];
  assertEquals(decide(gem, 61, gemini), false);
});

Deno.test("changedHands() D46: the pane's own agent with a new session, or a new agent at the shell, takes it", () => {
  // The interactive claude's own hook (a /clear gives it a new session id).
  assertEquals(decide([proc(50, 20, "sh"), proc(60, 50, "deno")], 60, claude), true);
  // claude exited; gemini now runs at the pane's shell.
  const after = changedHands({
    pane,
    table: indexProcesses([
      proc(10, 1, "bash"),
      proc(42, 10, "node", "node /usr/lib/gemini"),
      proc(52, 42, "sh"),
      proc(62, 52, "deno"),
    ]),
    hookPid: 62,
    event: gemini,
    registered: claude,
  });
  assertEquals(after.changed, true);
});

Deno.test("changedHands() D46: a hook from outside the pane moves it only once its agent is gone", () => {
  assertEquals(decide([proc(70, 1, "deno")], 70, gemini), false);
  const gone = changedHands({
    pane,
    table: indexProcesses([proc(10, 1, "bash"), proc(70, 1, "deno")]),
    hookPid: 70,
    event: gemini,
    registered: claude,
  });
  assertEquals(gone, { changed: true, evidence: "the pane's claude process is gone" });
});

Deno.test("changedHands() D46: an agent that is the pane's own command takes it back with a new session", () => {
  // `tmux new-window claude`: the pane's first process is the agent (10).
  const table = indexProcesses([proc(10, 1, "claude"), proc(50, 10, "sh"), proc(60, 50, "deno")]);
  const verdict = changedHands({ pane, table, hookPid: 60, event: claude, registered: claude });
  assertEquals(verdict, {
    changed: true,
    evidence: "the event's claude (pid 10) is the pane's own top agent",
  });
  // The same pane's claude runs `claude -p` as a tool: the nested one is refused.
  const nested = indexProcesses([
    proc(10, 1, "claude"),
    proc(30, 10, "bash"),
    proc(40, 30, "claude"),
    proc(50, 40, "sh"),
    proc(60, 50, "deno"),
  ]);
  const refused = changedHands({
    pane,
    table: nested,
    hookPid: 60,
    event: claude,
    registered: claude,
  });
  assertEquals(refused, {
    changed: false,
    reason: "the pane's claude (pid 10) still runs and the event came from claude pid 40, " +
      "nested under another agent",
  });
});

Deno.test("changedHands() D46: an agent nested under the registered one of another kind is refused", () => {
  // A gemini pane (20) whose gemini runs `claude -p` (40) as a tool.
  const table = indexProcesses([
    proc(10, 1, "bash"),
    proc(20, 10, "node", "node /usr/lib/gemini"),
    proc(30, 20, "bash"),
    proc(40, 30, "claude"),
    proc(50, 40, "sh"),
    proc(60, 50, "deno"),
  ]);
  const verdict = changedHands({ pane, table, hookPid: 60, event: claude, registered: gemini });
  assertEquals(verdict.changed, false);
  // Once that gemini exited (its orphaned tool run reparented to init), the registered agent is
  // gone: evidence 2, so the claude's event may take the pane.
  const after = indexProcesses([
    proc(10, 1, "bash"),
    proc(40, 1, "claude"),
    proc(50, 40, "sh"),
    proc(60, 50, "deno"),
  ]);
  assertEquals(
    changedHands({ pane, table: after, hookPid: 60, event: claude, registered: gemini }).changed,
    true,
  );
});

Deno.test("changedHands() D46: the registered agent's processes started by the firing agent do not keep the pane", () => {
  // gemini now at the shell (42) runs `claude -p` (43); the pane was claude's.
  const table = indexProcesses([
    proc(10, 1, "bash"),
    proc(42, 10, "node", "node /usr/lib/gemini"),
    proc(43, 42, "claude"),
    proc(70, 1, "deno"),
  ]);
  // A hook from outside the pane: gemini is not the firing agent, so claude 43 still counts.
  assertEquals(
    changedHands({ pane, table, hookPid: 70, event: gemini, registered: claude }).changed,
    false,
  );
  // From gemini itself: it is the pane's top agent.
  const own = indexProcesses([...table.byPid.values(), proc(52, 42, "sh"), proc(62, 52, "deno")]);
  assertEquals(
    changedHands({ pane, table: own, hookPid: 62, event: gemini, registered: claude }).changed,
    true,
  );
});

Deno.test("changedHands() D46: a registered agent with no manifest to look for counts as gone", () => {
  const table = indexProcesses([...base, proc(70, 1, "deno")]);
  assertEquals(
    changedHands({ pane, table, hookPid: 70, event: gemini, registered: null }),
    { changed: true, evidence: "the pane's registered agent has no manifest to look for" },
  );
});

Deno.test("changedHands() D46: a cycle in the process table ends the walk", () => {
  // A ps read mid-fork can show a parent loop; the walk must not spin.
  const table = indexProcesses([...base, proc(80, 81, "deno"), proc(81, 80, "sh")]);
  assertEquals(
    changedHands({ pane, table, hookPid: 80, event: claude, registered: claude }).changed,
    false,
  );
});

import { assert, assertEquals, assertThrows } from "../../../tests/harness/assert.ts";
import { agentRow } from "../../../tests/harness/rows.ts";
import { parseConfig } from "../config/parse.ts";
import { defaultConfig } from "../config/schema.ts";
import { UsageError } from "../errors.ts";
import { cacheOption, decodeTrack, encodeTrack } from "./cache.ts";
import { hostSpecs, selectHosts } from "./hosts.ts";
import { fleetKey, keyedRow, parseFleetKey } from "./keys.ts";
import {
  emptyTrack,
  isLive,
  liveRows,
  recordFailure,
  recordReading,
  whyNotLive,
} from "./liveness.ts";
import { type FleetRow, parseReading, ReadingError } from "./reading.ts";
import { attachArgv, remoteTag, selectArgv } from "./reach.ts";
import { renderFleetStatus } from "./status.ts";
import { FETCH_ARGS, remoteTma, shellWord, transportArgv } from "./transport.ts";
import { fleetDocument, fleetView } from "./view.ts";

const SPEC = {
  name: "build",
  command: ["ssh", "-F", "/home/u/ssh_config", "build"],
  tma: "tma",
  connectMs: 2500,
  timeoutMs: 8000,
};

/** A remote claude row of host "remote-name", with the identity keys a reading carries. */
function row(pane: string, extra: Partial<FleetRow> = {}): FleetRow {
  return {
    ...agentRow(pane, "idle", {
      since: 100,
      since_ms: 100,
      episode_ms: 100,
      title: "t",
      server: "/tmp/tmux-0/default",
      host: "remote-name",
    }),
    server_started_ms: 1000,
    pane_pid: 42,
    command: "claude",
    ...extra,
  };
}

Deno.test("X9: the ssh argv puts tma's options first: batch, a connect deadline, no ControlMaster", () => {
  const argv = transportArgv(SPEC, remoteTma(SPEC, [...FETCH_ARGS]), { tty: false });
  assertEquals(argv, [
    "ssh",
    "-o",
    "BatchMode=yes",
    "-o",
    "ConnectTimeout=3",
    "-o",
    "ConnectionAttempts=1",
    "-o",
    "ControlMaster=no",
    "-o",
    "ControlPath=none",
    "-o",
    "ServerAliveInterval=2",
    "-o",
    "ServerAliveCountMax=2",
    "-o",
    "LogLevel=ERROR",
    "-T",
    "-F",
    "/home/u/ssh_config",
    "build",
    "tma",
    "ls",
    "--json",
    "--identity",
  ]);
  // A wrapper that is not ssh gets the remote words and nothing else.
  const wrapped = { ...SPEC, command: ["/usr/local/bin/reach", "build"] };
  assertEquals(transportArgv(wrapped, ["tma", "ls"], { tty: false }), [
    "/usr/local/bin/reach",
    "build",
    "tma",
    "ls",
  ]);
  // An attach is interactive: a terminal, and no BatchMode (a passphrase may be asked there).
  const attach = attachArgv(SPEC, { server: "/tmp/s", locator: "my work:2.0", pane: "%7" });
  assertEquals(attach.slice(0, 4), ["sh", "-c", attach[2], "tma-remote"]);
  assert(attach.includes("-t") && !attach.includes("BatchMode=yes"), attach.join(" "));
  // One remote line (tmux reads a lone ";" word as its own separator): the pane's attention is
  // cleared by the host's own tma, as a local jump clears it, then the attach at the pane.
  assertEquals(
    attach[attach.length - 1],
    "tma --socket-path /tmp/s clear-attention %7 2>/dev/null ; exec tmux -S /tmp/s " +
      "attach-session -t '=my work' ';' select-window -t %7 ';' select-pane -t %7",
  );
  assertEquals(attach[attach.length - 2], "build");
  assertEquals(selectArgv(SPEC, { server: "/tmp/s", locator: "w:1.0", pane: "%7" }).slice(-8), [
    "/tmp/s",
    "select-window",
    "-t",
    "%7",
    "';'",
    "select-pane",
    "-t",
    "%7",
  ]);
  assertEquals(
    remoteTag(SPEC, { server: "/tmp/s", locator: "w:1.0", pane: "%7" }),
    "build\t/tmp/s\tw",
  );
});

Deno.test("X9: remote words are quoted for the host's shell only when they need it", () => {
  assertEquals(shellWord("%12"), "%12");
  assertEquals(shellWord("--text"), "--text");
  assertEquals(shellWord("two words"), "'two words'");
  assertEquals(shellWord("it's $HOME; rm -rf ~"), `'it'\\''s $HOME; rm -rf ~'`);
  assertEquals(shellWord(""), "''");
  // The remote tma program is the user's shell text, kept as written (so ~ expands there).
  assertEquals(
    remoteTma({ ...SPEC, tma: "~/.deno/bin/tma" }, ["act", "steer", "--text", "go on"]),
    [
      "~/.deno/bin/tma",
      "act",
      "steer",
      "--text",
      "'go on'",
    ],
  );
});

Deno.test("X9: [[host]] config: defaults, and errors that name the file and the key", () => {
  const config = parseConfig('[[host]]\nname = "build"\n', "/c.toml");
  assertEquals(hostSpecs(config), [{
    name: "build",
    command: ["ssh", "build"],
    tma: "tma",
    connectMs: 5000,
    timeoutMs: 10000,
  }]);
  assertEquals(defaultConfig().host, []);
  assertEquals(defaultConfig().fleet.refresh_secs, 10);
  assertThrows(
    () => parseConfig('[[host]]\nname = "b"\nport = 22\n', "/c.toml"),
    Error,
    'config /c.toml: unknown key in [host.0] "port"',
  );
  assertThrows(
    () => parseConfig('[[host]]\nname = "b"\n[[host]]\nname = "b"\n', "/c.toml"),
    Error,
    '[host] name: "b" names two [[host]] entries',
  );
  assertThrows(() => parseConfig('[[host]]\nname = "a b"\n', "/c.toml"), Error, "[host] name:");
  assertThrows(
    () => parseConfig('[[host]]\nname = "b"\ncommand = []\n', "/c.toml"),
    Error,
    "command",
  );
});

Deno.test("X9: --host names configured hosts; an unknown one or --all-hosts with none is a usage error", () => {
  const config = parseConfig('[[host]]\nname = "a"\n[[host]]\nname = "b"\n', "/c.toml");
  assertEquals(selectHosts(config, { names: ["b", "a", "b"], all: false }).map((h) => h.name), [
    "b",
    "a",
  ]);
  assertEquals(selectHosts(config, { names: [], all: true }).map((h) => h.name), ["a", "b"]);
  assertThrows(
    () => selectHosts(config, { names: ["c"], all: false }),
    UsageError,
    "declared: a, b",
  );
  assertThrows(
    () => selectHosts(defaultConfig(), { names: [], all: true }),
    UsageError,
    "[[host]]",
  );
  assertThrows(() => selectHosts(config, { names: ["a"], all: true }), UsageError, "--all-hosts");
});

Deno.test("X9: a reading is the last line's schema-1 document; anything else is a clear error", () => {
  const doc = JSON.stringify({ schema: 1, agents: [row("%3")], panes: ["%0", "%3"] });
  const reading = parseReading(`Welcome to build!\n${doc}\n`);
  assertEquals(reading.panes, ["%0", "%3"]);
  assertEquals(reading.rows[0].pane_pid, 42);
  const cases: [string, string][] = [
    ["", "printed nothing"],
    ["bash: tma: command not found", 'no JSON document: "bash: tma: command not found"'],
    ['{"schema":2,"agents":[]}', "not a schema-1 document"],
    ['{"schema":1,"agents":[{"pane":"x"}]}', "agents[0].pane"],
    [JSON.stringify({ schema: 1, agents: [{ ...row("%1"), pane_pid: undefined }] }), "update tma"],
  ];
  for (const [text, message] of cases) {
    assertThrows(() => parseReading(text), ReadingError, message);
  }
});

Deno.test("X9: liveness: a changed identity restarts the episode; the same one keeps the restart", () => {
  let track = emptyTrack("build", "k");
  track = recordReading(track, { rows: [row("%3"), row("%4")], panes: ["%3", "%4"] }, 1000);
  assertEquals(track.rows.map((r) => [r.host, r.episode_ms]), [["build", 100], ["build", 100]]);
  // %3 now holds another agent (a new pane pid); its host still says episode 100.
  track = recordReading(
    track,
    { rows: [row("%3", { pane_pid: 77 }), row("%4")], panes: ["%3", "%4"] },
    5000,
  );
  assertEquals(track.rows.map((r) => [r.pane, r.since_ms, r.episode_ms]), [
    ["%3", 5000, 5000],
    ["%4", 100, 100],
  ]);
  // The same new agent later: the restart holds until the host moves past it.
  track = recordReading(track, { rows: [row("%3", { pane_pid: 77 })], panes: ["%3"] }, 9000);
  assertEquals(track.rows.map((r) => [r.pane, r.episode_ms]), [["%3", 5000]]);
  track = recordReading(
    track,
    { rows: [row("%3", { pane_pid: 77, since_ms: 9500, episode_ms: 9500 })], panes: ["%3"] },
    10_000,
  );
  assertEquals(track.rows[0].episode_ms, 9500);
  // A new server start (same socket and pane id) or a new command is a new agent too.
  for (const change of [{ server_started_ms: 2000 }, { command: "node" }]) {
    const next = recordReading(
      track,
      { rows: [row("%3", { pane_pid: 77, ...change })], panes: [] },
      20_000,
    );
    assertEquals(next.rows[0].episode_ms, 20_000, JSON.stringify(change));
  }
});

Deno.test("X9: liveness: a failed or stale host shows no row, and says why", () => {
  let track = recordReading(emptyTrack("b", "k"), { rows: [row("%1")], panes: ["%1"] }, 1000);
  assert(isLive(track, { nowMs: 3000, maxAgeMs: 5000 }));
  assertEquals(liveRows(track, { nowMs: 7000, maxAgeMs: 5000 }), []);
  assertEquals(whyNotLive(track, { nowMs: 7000, maxAgeMs: 5000 }), "no answer for 6 s");
  track = recordFailure(track, "ssh: connect to host b port 22: Connection refused", 4000);
  assertEquals(liveRows(track, { nowMs: 4000, maxAgeMs: 5000 }), []);
  assertEquals(track.okMs, 1000);
  assertEquals(whyNotLive(emptyTrack("b", "k"), { nowMs: 0, maxAgeMs: 1 }), "no reading yet");
  // A good reading again: live, and the agent that left is gone.
  track = recordReading(track, { rows: [], panes: ["%1"] }, 9000);
  assertEquals([isLive(track, { nowMs: 9000, maxAgeMs: 1 }), track.rows], [true, []]);
});

Deno.test("X9: a fleet view: local rows, then each host's live rows; a down host is a line, never rows", () => {
  const up = recordReading(
    emptyTrack("up", "k"),
    { rows: [row("%2", { state: "blocked" }), row("%1")], panes: [] },
    1000,
  );
  const down = recordFailure(
    recordReading(emptyTrack("down", "k"), { rows: [row("%1")], panes: [] }, 500),
    "timed out",
    1500,
  );
  const view = fleetView({
    local: [row("%9", { host: "here" })],
    tracks: [up, down],
    policy: { nowMs: 2000, maxAgeMs: 10_000 },
    selector: { states: new Set(["blocked"]) },
  });
  assertEquals(view.rows.map((r) => [r.host, r.pane]), [["here", "%9"], ["up", "%2"]]);
  assertEquals(view.hosts, [
    { name: "up", reachable: true, error: null, last_ok_ms: 1000, age_ms: 1000, agents: 1 },
    {
      name: "down",
      reachable: false,
      error: "timed out",
      last_ok_ms: 500,
      age_ms: 1500,
      agents: 0,
    },
  ]);
  const doc = JSON.parse(fleetDocument(view));
  assertEquals(Object.keys(doc), ["schema", "agents", "hosts"]);
  assertEquals(Object.keys(doc.agents[0]).slice(-5), [
    "server",
    "host",
    "server_started_ms",
    "pane_pid",
    "command",
  ]);
});

Deno.test("X9: keys: a remote row is %N@host where surfaces key by pane; a local one is unchanged", () => {
  assertEquals(fleetKey("b", "%3"), "%3@b");
  assertEquals(parseFleetKey("%3@b"), { pane: "%3", host: "b" });
  assertEquals(parseFleetKey("%3"), null);
  const names = new Set(["b"]);
  assertEquals(keyedRow(row("%3", { host: "b" }), names).pane, "%3@b");
  assertEquals(keyedRow(row("%3", { host: "b" }), names).locator, "b:main:3.0");
  const local = row("%3", { host: "laptop" });
  assertEquals(keyedRow(local, names), local);
});

Deno.test("X9: the cache round-trips a track, and drops one taken over another command", () => {
  const track = recordReading(emptyTrack("b.x", "k1"), { rows: [row("%1")], panes: ["%1"] }, 5);
  const text = encodeTrack(track);
  assertEquals(decodeTrack(text, { name: "b.x", key: "k1" }), track);
  assertEquals(decodeTrack(text, { name: "b.x", key: "k2" }), null);
  assertEquals(decodeTrack("{not json", { name: "b.x", key: "k1" }), null);
  assertEquals(decodeTrack(null, { name: "b.x", key: "k1" }), null);
  assertEquals(cacheOption("b.x-1_y"), "@tma_fleet_b_2ex_2d1_5fy");
});

Deno.test("X9: status marks the hosts that are not live: failed ✗, not read yet …", () => {
  const styles = defaultConfig().status;
  const view = {
    rows: [row("%1", { state: "blocked" })],
    hosts: [
      { name: "a", reachable: true, error: null, last_ok_ms: 1, age_ms: 1, agents: 1 },
      { name: "b", reachable: false, error: "refused", last_ok_ms: null, age_ms: null, agents: 0 },
      {
        name: "c",
        reachable: false,
        error: "no reading yet",
        last_ok_ms: null,
        age_ms: null,
        agents: 0,
      },
    ],
  };
  const options = { styles, nowMs: 0 };
  assertEquals(renderFleetStatus(view, { ...options, format: "plain" }), "⚑1 ✗b …c");
  assertEquals(
    renderFleetStatus(view, { ...options, format: "tmux" }),
    "#[range=user|tma:blocked]#[fg=red]⚑1#[fg=default]#[norange] " +
      "#[fg=colour244]✗b#[fg=default] #[fg=colour244]…c#[fg=default]",
  );
  const json = JSON.parse(renderFleetStatus(view, { ...options, format: "json" }));
  assertEquals(json.counts.blocked, 1);
  assertEquals(json.hosts.length, 3);
  const prom = renderFleetStatus(view, { ...options, format: "prom" });
  assert(prom.includes('tma_host_up{host="b"} 0'), prom);
  assert(prom.includes('tma_agents{state="blocked"} 1'), prom);
});

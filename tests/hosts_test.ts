/**
 * Several hosts, one view (X9), over a real sshd: two "hosts" on loopback,
 * each an sshd of its own whose `tma` runs this checkout against its own
 * scratch tmux server and HOME, beside the local scratch server the tested
 * tma runs on. Faults are real: a stopped sshd, a listener that never
 * answers, one that answers garbage, a host whose tma prints garbage. Every
 * test counts the ssh processes left behind.
 */
import { assert, assertEquals } from "./harness/assert.ts";
import type { Ran } from "./harness/process.ts";
import { attachClient, clientPane, HAS_SCRIPT } from "./harness/client.ts";
import { recorder, screen } from "./harness/recorder.ts";
import { stripAnsi } from "../src/core/ansi.ts";
import { SKIP_SSH, SshFleet } from "./harness/sshd.ts";
import {
  type RunningTma,
  runTma,
  ScratchTmux,
  type StandIn,
  startTma,
  tmaCommand,
} from "./harness/tmux.ts";

/** A local server, two remote hosts and the fleet that reaches them. */
interface Setup {
  local: ScratchTmux;
  alpha: ScratchTmux;
  beta: ScratchTmux;
  fleet: SshFleet;
  /** Runs tma on the local server with the fleet's [[host]] entries in its config. */
  tma(args: string[], options?: { deadlineMs?: number }): Promise<Ran>;
  /** Starts tma on the local server and returns at once (`wait`, `subscribe`). */
  start(args: string[]): RunningTma;
  /** The environment of the local tma beyond the scratch HOME (a scratch runtime folder). */
  env: Record<string, string>;
  /** Rewrites the local config with these [[host]] entries (and extra TOML). */
  configure(hostToml: string, extra?: string): Promise<void>;
}

const DEADLINES = { connectSecs: 2, timeoutSecs: 8 };

/** Runs `fn` on fresh servers and hosts, always torn down, and checks no ssh is left. */
function fleetTest(name: string, fn: (s: Setup) => Promise<void>): void {
  Deno.test({
    name,
    ignore: SKIP_SSH,
    fn: async () => {
      const local = await ScratchTmux.start();
      const alpha = await ScratchTmux.start();
      const beta = await ScratchTmux.start();
      const fleet = await SshFleet.create();
      const configPath = `${local.home}/.config/tma/config.toml`;
      await Deno.mkdir(`${local.home}/.config/tma`, { recursive: true });
      // The refresher's lock goes to a scratch runtime folder, never the real /tmp/tma.
      const env = { XDG_RUNTIME_DIR: `${local.dir}/run` };
      await Deno.mkdir(env.XDG_RUNTIME_DIR, { mode: 0o700 });
      const setup: Setup = {
        local,
        alpha,
        beta,
        fleet,
        env,
        tma: (args, options = {}) =>
          runTma(local, args, { env, deadlineMs: options.deadlineMs ?? 60_000 }),
        start: (args) => startTma(local, args, { env }),
        configure: (hostToml, extra = "") =>
          Deno.writeTextFile(configPath, `${extra}\n${hostToml}`),
      };
      try {
        await fn(setup);
        assertEquals(await fleet.sshProcesses(), [], "ssh processes left running");
      } finally {
        await fleet.close();
        for (const server of [local, alpha, beta]) await server.kill();
      }
    },
  });
}

/** Draws a fixture on a stand-in, with its title. */
async function show(agent: StandIn, fixture: string): Promise<void> {
  const s = screen(fixture);
  await agent.draw(s.capture, s.title);
}

/** The parsed fleet document of `ls --json`. */
function fleetDoc(ran: Ran): {
  agents: Record<string, unknown>[];
  hosts: Record<string, unknown>[];
} {
  assertEquals(ran.code, 0, ran.stderr);
  return JSON.parse(ran.stdout);
}

fleetTest(
  "X9: ls --json --all-hosts lists both hosts' rows with their host and state",
  async (s) => {
    const a = await s.alpha.standIn("claude", { height: 40 });
    await show(a, "claude_blocked_bash_w80");
    const b = await s.beta.standIn("claude", { height: 40 });
    await show(b, "claude_working_spinner_w80");
    await s.fleet.addHost("alpha", s.alpha);
    await s.fleet.addHost("beta", s.beta);
    await s.configure(s.fleet.hostToml(DEADLINES));
    const doc = fleetDoc(await s.tma(["ls", "--json", "--all-hosts"]));
    const rows = doc.agents.map((r) => [r.host, r.pane, r.agent, r.state]);
    assertEquals(rows, [
      ["alpha", a.pane, "claude", "blocked"],
      ["beta", b.pane, "claude", "working"],
    ]);
    assertEquals(doc.hosts.map((h) => [h.name, h.reachable, h.error, h.agents]), [
      ["alpha", true, null, 1],
      ["beta", true, null, 1],
    ]);
    const row = doc.agents[0];
    assert(typeof row.pane_pid === "number" && row.pane_pid > 0, JSON.stringify(row));
    assertEquals(row.command, "claude");
    assert(typeof row.server_started_ms === "number", JSON.stringify(row));
    assert(String(row.server).endsWith(s.alpha.socketName), String(row.server));
  },
);

fleetTest(
  "X9: a stopped sshd, a silent host and garbage are unreachable within their deadlines; the live host stays live",
  async (s) => {
    const a = await s.alpha.standIn("claude", { height: 40 });
    await show(a, "claude_blocked_bash_w80");
    await s.fleet.addHost("alpha", s.alpha);
    const beta = await s.fleet.addHost("beta", s.beta);
    await beta.stop();
    s.fleet.silentHost("mute");
    s.fleet.garbageHost("noise");
    await s.fleet.addHost("junk", s.beta, {
      script: "#!/bin/sh\necho 'Welcome to junk'\necho 'ERROR: agents: 42 %%%'\n",
    });
    const toml = s.fleet.hostToml({
      ...DEADLINES,
      names: ["alpha", "beta", "mute", "noise", "junk"],
    });
    // A host whose whole deadline is shorter than its connection's: tma kills the ssh itself.
    const hung = s.fleet.hostToml({ connectSecs: 30, timeoutSecs: 2, names: ["mute"] })
      .replace('name = "mute"', 'name = "hung"').replace(/"mute"\]/, '"mute"]');
    await s.configure(`${toml}\n${hung}`);
    const ran = await s.tma(["ls", "--json", "--all-hosts"], { deadlineMs: 30_000 });
    assert(!ran.timedOut, "ls hung");
    const doc = fleetDoc(ran);
    assertEquals(doc.agents.map((r) => [r.host, r.pane, r.state]), [["alpha", a.pane, "blocked"]]);
    const hosts = Object.fromEntries(doc.hosts.map((h) => [h.name, h]));
    assertEquals(hosts.alpha.reachable, true);
    const expected: Record<string, RegExp> = {
      beta: /refused/i,
      mute: /timed out|banner/i,
      noise: /kex_exchange_identification|banner|invalid|closed/i,
      junk: /printed no JSON document: "ERROR: agents: 42 %%%"/,
      hung: /no answer within 2 s/,
    };
    for (const [name, pattern] of Object.entries(expected)) {
      const host = hosts[name];
      assertEquals([name, host.reachable, host.agents, host.last_ok_ms], [name, false, 0, null]);
      assert(pattern.test(String(host.error)), `${name}: ${host.error}`);
    }
  },
);

const STANDIN_SH = new URL("./harness/standin.sh", import.meta.url).pathname;

/** Replaces the pane's process with a new stand-in agent named `name` (a new pane pid). */
async function replaceAgent(t: ScratchTmux, pane: string, name: string): Promise<StandIn> {
  const id = crypto.randomUUID().slice(0, 8);
  const bin = `${t.dir}/bin-new-${id}`;
  await Deno.mkdir(bin);
  await Deno.symlink("/bin/sh", `${bin}/${name}`);
  const fifo = `${t.dir}/control-new-${id}`;
  await new Deno.Command("mkfifo", { args: [fifo] }).output();
  await t.tmux(
    "respawn-pane",
    "-k",
    "-t",
    pane,
    "sh",
    "-c",
    `exec '${bin}/${name}' '${STANDIN_SH}' '${fifo}'`,
  );
  await t.waitFor(async () =>
    (await t.tmux("display", "-p", "-t", pane, "#{pane_current_command}")).trim() === name
  );
  const send = async (line: string) => {
    const file = await Deno.open(fifo, { write: true });
    await file.write(new TextEncoder().encode(`${line}\n`));
    file.close();
  };
  return {
    pane,
    draw: async (text, title) => {
      const file = `${t.dir}/screen-new-${id}`;
      await Deno.writeTextFile(file, text);
      if (title !== undefined) await send(`title ${title}`);
      await send(`draw ${file}`);
      await t.settle(pane, text);
      await t.tmux("clear-history", "-t", pane);
    },
    title: (text) => send(`title ${text}`),
    exit: async () => {
      await send("exit");
      await t.waitFor(async () =>
        (await t.tmux("display", "-p", "-t", pane, "#{pane_current_command}")).trim() !== name
      );
    },
  };
}

fleetTest(
  "X9: a remote agent replaced in its pane restarts its episode; one that exits is gone at the next refresh",
  async (s) => {
    const a = await s.alpha.standIn("claude", { height: 40 });
    await show(a, "claude_idle_fresh_w120");
    const other = await s.alpha.standIn("claude", { height: 40 });
    await show(other, "claude_blocked_bash_w80");
    await s.fleet.addHost("alpha", s.alpha);
    await s.configure(s.fleet.hostToml({ ...DEADLINES, names: ["alpha"] }));
    const rowOf = (doc: ReturnType<typeof fleetDoc>, pane: string) =>
      doc.agents.find((r) => r.pane === pane);

    const first = rowOf(fleetDoc(await s.tma(["ls", "--json", "--host", "alpha"])), a.pane)!;
    assertEquals([first.host, first.state], ["alpha", "idle"]);

    const replacedAt = Date.now();
    const b = await replaceAgent(s.alpha, a.pane, "claude");
    await show(b, "claude_idle_fresh_w120");
    const second = rowOf(fleetDoc(await s.tma(["ls", "--json", "--host", "alpha"])), a.pane)!;
    assert(second.pane_pid !== first.pane_pid, "the replacement has a pane pid of its own");
    assert(
      Number(second.episode_ms) > Number(first.episode_ms) &&
        Number(second.episode_ms) >= replacedAt,
      `episode ${first.episode_ms} -> ${second.episode_ms} (replaced at ${replacedAt})`,
    );
    assert(Number(second.since_ms) >= replacedAt, `since ${second.since_ms}`);

    await b.exit();
    const third = fleetDoc(await s.tma(["ls", "--json", "--host", "alpha"]));
    assertEquals(rowOf(third, a.pane), undefined, "the exited agent lingers");
    assertEquals(third.agents.map((r) => r.pane), [other.pane]);
    assertEquals(third.hosts.map((h) => [h.name, h.reachable]), [["alpha", true]]);
  },
);

/**
 * Returns once a waiter has read the host at least once: two remote cycles
 * (each marks `@tma_last_poll`) after it started, the second begun only
 * after the first fetch ended (one fetch in flight per host).
 */
async function readBy(host: ScratchTmux, waiter: { stderr(): string }): Promise<void> {
  const since = Date.now();
  const seen = new Set<string>();
  await host.waitFor(async () => {
    const poll = (await host.tmux("show-options", "-sqv", "@tma_last_poll")).trim();
    if (Number(poll) > since) seen.add(poll);
    return seen.size >= 2;
  }, 20_000).catch(() => {
    throw new Error(`the waiter never read the host: ${waiter.stderr()}`);
  });
}

fleetTest(
  "X9 C42: wait --host follows a remote pane: 0 when it gets there, 4 when its agent leaves",
  async (s) => {
    const a = await s.alpha.standIn("claude", { height: 40 });
    await show(a, "claude_blocked_bash_w80");
    await s.fleet.addHost("alpha", s.alpha);
    await s.configure(s.fleet.hostToml({ ...DEADLINES, names: ["alpha"] }));
    const until = s.start([
      "wait",
      "--host",
      "alpha",
      "--pane",
      a.pane,
      "--until",
      "idle",
      "--json",
      "--timeout",
      "40",
    ]);
    await readBy(s.alpha, until);
    await show(a, "claude_idle_fresh_w120");
    const done = await until.done;
    assertEquals(done.code, 0, done.stderr);
    const row = JSON.parse(done.stdout);
    assertEquals([row.schema, row.host, row.pane, row.state], [1, "alpha", a.pane, "idle"]);

    const gone = s.start([
      "wait",
      "--host",
      "alpha",
      "--pane",
      a.pane,
      "--until",
      "blocked",
      "--timeout",
      "40",
    ]);
    await readBy(s.alpha, gone);
    await s.alpha.tmux("set-option", "-p", "-t", a.pane, "remain-on-exit", "on");
    await a.exit();
    const ended = await gone.done;
    assertEquals(ended.code, 4, ended.stderr);
    assert(/the agent in %\d+@alpha is gone/.test(ended.stderr), ended.stderr);
  },
);

fleetTest(
  "X9 A1: act approve --host delivers exactly the manifest's keys on the remote pane",
  async (s) => {
    const r = await recorder(s.alpha, "claude", { height: 40 });
    await r.draw(screen("claude_blocked_bash_w80"));
    await s.fleet.addHost("alpha", s.alpha);
    await s.configure(s.fleet.hostToml({ ...DEADLINES, names: ["alpha"] }));
    const { value: ran, bytes } = await r.recordDuring(() =>
      s.tma(["act", "approve", "--host", "alpha", "--pane", r.pane, "--json"])
    );
    assertEquals(ran.code, 0, ran.stderr);
    assertEquals(bytes, "1");
    const result = JSON.parse(ran.stdout);
    assertEquals([result.outcome, result.pane, result.exit_code], ["sent", r.pane, 0]);
  },
);

fleetTest(
  "X9 X1: act --host: the remote prompt fingerprint refuses a changed prompt and sends nothing",
  async (s) => {
    const r = await recorder(s.alpha, "claude", { height: 40 });
    await r.draw(screen("claude_blocked_bash_w80"));
    // The host's tmux swaps the dialog for another one just before the guarded send goes in:
    // the next permission request replaced the one the remote gate passed on.
    const next = screen("claude_blocked_bash_w120");
    const nextFile = `${s.alpha.dir}/next-dialog`;
    await Deno.writeTextFile(nextFile, next.capture);
    const fifo =
      [...Deno.readDirSync(s.alpha.dir)].find((e) => e.name.startsWith("control-"))!.name;
    const last = stripAnsi(next.capture).split("\n").map((l) => l.trim()).filter((l) => l).pop()!;
    const wrapper = `${s.alpha.dir}/tmux-swap`;
    await Deno.writeTextFile(
      wrapper,
      [
        "#!/bin/sh",
        "# tmux, except that the first guarded send finds another dialog on screen.",
        'case " $* " in *\' source-file \'*) ;; *) exec tmux "$@" ;; esac',
        `in='${s.alpha.dir}/swap-stdin.'$$`,
        'cat > "$in"',
        `if grep -q send-keys "$in" && [ ! -e '${s.alpha.dir}/swapped' ]; then`,
        `  : > '${s.alpha.dir}/swapped'`,
        `  printf 'draw %s\\n' '${nextFile}' > '${s.alpha.dir}/${fifo}'`,
        "  i=0",
        `  until tmux -L '${s.alpha.socketName}' capture-pane -p -t '${r.pane}' | grep -qF '${last}'; do`,
        "    i=$((i + 1)); [ $i -gt 200 ] && break; sleep 0.025",
        "  done",
        "fi",
        'exec tmux "$@" < "$in"',
        "",
      ].join("\n"),
      { mode: 0o755 },
    );
    await s.fleet.addHost("alpha", s.alpha, { env: { TMA_TMUX_BIN: wrapper } });
    await s.configure(s.fleet.hostToml({ ...DEADLINES, names: ["alpha"] }));
    const { value: ran, bytes } = await r.recordDuring(() =>
      s.tma(["act", "approve", "--host", "alpha", "--pane", r.pane, "--json"])
    );
    assert(await Deno.stat(`${s.alpha.dir}/swapped`).then(() => true, () => false), "no swap");
    assertEquals(ran.code, 4, ran.stderr);
    assertEquals(bytes, "");
    const result = JSON.parse(ran.stdout);
    assertEquals([result.outcome, result.reason], ["refused", "prompt-changed"]);
  },
);

fleetTest(
  "X9: act --host over a host that is down says the action's fate is unknown (exit 1)",
  async (s) => {
    const beta = await s.fleet.addHost("beta", s.beta);
    await beta.stop();
    await s.configure(s.fleet.hostToml({ ...DEADLINES, names: ["beta"] }));
    const ran = await s.tma(["act", "approve", "--host", "beta", "--pane", "%1"]);
    assertEquals(ran.code, 1, ran.stderr);
    assert(/refused/i.test(ran.stderr) && /the connection failed/.test(ran.stderr), ran.stderr);
    const usage = await s.tma(["act", "approve", "--host", "beta"]);
    assertEquals(usage.code, 2, usage.stderr);
    const unknown = await s.tma(["act", "approve", "--host", "nowhere", "--pane", "%1"]);
    assertEquals(unknown.code, 2, unknown.stderr);
    assert(/no \[\[host\]\] entry named "nowhere"/.test(unknown.stderr), unknown.stderr);
  },
);

fleetTest(
  "X9 C29: jump --host opens a local window attached to the remote pane, and reuses it",
  async (s) => {
    if (!HAS_SCRIPT) return;
    const a = await s.alpha.standIn("claude", { height: 40 });
    await show(a, "claude_blocked_bash_w80");
    const b = await s.alpha.standIn("claude", { height: 40 });
    await show(b, "claude_idle_fresh_w120");
    await s.fleet.addHost("alpha", s.alpha);
    await s.configure(s.fleet.hostToml({ ...DEADLINES, names: ["alpha"] }));
    const client = await attachClient(s.local, "main");
    const tagged = async () =>
      (await s.local.tmux("list-windows", "-a", "-F", "#{window_id} #{@tma_remote}"))
        .split("\n").filter((l) => l.includes("alpha\t"));
    const remoteActive = async () =>
      (await s.alpha.tmux("display", "-p", "-t", "main", "#{pane_id}")).trim();
    try {
      await s.alpha.tmux("set-option", "-p", "-t", a.pane, "@agent_attention", "1");
      const first = await s.tma(["jump", "--host", "alpha", "--pane", a.pane, "-c", client.name]);
      assertEquals(first.code, 0, first.stderr);
      assertEquals((await tagged()).length, 1);
      const [windowId] = (await tagged())[0].split(" ");
      const pane = (await s.local.tmux("display", "-p", "-t", windowId, "#{pane_id}")).trim();
      assertEquals(await clientPane(s.local, client.name), pane);
      // The window's ssh attached a client of its own to the remote server, at the pane.
      await s.alpha.waitFor(
        async () =>
          (await s.alpha.tmux("list-clients", "-F", "#{client_name}")).trim() !== "" &&
          (await remoteActive()) === a.pane,
        10_000,
      );

      const second = await s.tma(["jump", "--host", "alpha", "--pane", b.pane, "-c", client.name]);
      assertEquals(second.code, 0, second.stderr);
      assertEquals((await tagged()).length, 1, "the window is reused");
      assertEquals(await clientPane(s.local, client.name), pane);
      await s.alpha.waitFor(async () => (await remoteActive()) === b.pane);
      // As a local jump does (C29), each jump cleared the destination's attention on its host.
      assertEquals(await s.alpha.option(a.pane, "@agent_attention"), "");

      await s.local.tmux("kill-window", "-t", windowId);
      await s.local.waitFor(async () => (await s.fleet.sshProcesses()).length === 0, 10_000);
    } finally {
      await client.close();
    }
  },
);

fleetTest(
  "X9 U33 U35: watch --host shows remote rows with their host, a remote preview and the host that is down; enter reaches the row",
  async (s) => {
    const a = await s.alpha.standIn("claude", { height: 40 });
    await show(a, "claude_blocked_bash_w80");
    await s.fleet.addHost("alpha", s.alpha);
    const beta = await s.fleet.addHost("beta", s.beta);
    await beta.stop();
    await s.configure(s.fleet.hostToml({ ...DEADLINES, names: ["alpha", "beta"] }));
    const env = s.local.env();
    const pane = await s.local.newWindow(
      [
        "sh",
        "-c",
        `${tmaCommand(s.local, ["watch", "--host", "alpha", "--host", "beta"])}; sleep 30`,
      ],
      {
        width: 160,
        height: 30,
        env: {
          HOME: env.HOME,
          XDG_CONFIG_HOME: env.XDG_CONFIG_HOME,
          XDG_STATE_HOME: env.XDG_STATE_HOME,
          TMA_CONFIG: env.TMA_CONFIG,
          DENO_DIR: env.DENO_DIR,
          ...s.env,
        },
      },
    );
    let text = "";
    const preview = stripAnsi(screen("claude_blocked_bash_w80").capture).split("\n")
      .map((l) => l.trim()).filter((l) => l.length > 8)[0];
    await s.local.waitFor(async () => {
      text = await s.local.tmux("capture-pane", "-p", "-t", pane);
      return /alpha:main:\d+\.0/.test(text) && /beta: unreachable: .*refused/i.test(text) &&
        text.includes(preview.slice(0, 20));
    }, 20_000).catch(() => {
      throw new Error(`the watch never showed the fleet:\n${text}`);
    });
    assert(/1 agent\b/.test(text), text);
    if (HAS_SCRIPT) {
      // Enter on the remote row: a local window attached to it, and the client there.
      await s.local.tmux("select-window", "-t", pane);
      const client = await attachClient(s.local, "main");
      try {
        await s.local.tmux("send-keys", "-t", pane, "Enter");
        let tagged = "";
        await s.local.waitFor(async () => {
          tagged = (await s.local.tmux("list-panes", "-a", "-F", "#{pane_id} #{@tma_remote}"))
            .split("\n").find((l) => l.includes(" alpha\t")) ?? "";
          return tagged !== "" && (await clientPane(s.local, client.name)) === tagged.split(" ")[0];
        }, 15_000);
        await s.alpha.waitFor(
          async () => (await s.alpha.tmux("list-clients", "-F", "#{client_name}")).trim() !== "",
          10_000,
        );
        await s.local.tmux("kill-pane", "-t", tagged.split(" ")[0]);
      } finally {
        await client.close();
      }
    }
    await s.local.tmux("send-keys", "-t", pane, "q");
    await s.local.waitFor(async () => (await s.fleet.sshProcesses()).length === 0, 10_000);
  },
);

/** The fleet refreshers running for this local server (their pids). */
async function refreshers(local: ScratchTmux): Promise<number[]> {
  const out = new TextDecoder().decode(
    (await new Deno.Command("ps", { args: ["-eo", "pid=,args="] }).output()).stdout,
  );
  return out.split("\n").filter((l) => l.includes("fleet-refresh") && l.includes(local.socketName))
    .map((l) => Number(l.trim().split(/\s+/)[0]));
}

fleetTest(
  "X9 C20: status --all-hosts prints fleet counts from cached readings and never waits on the network",
  async (s) => {
    const mine = await s.local.standIn("claude", { height: 40 });
    await show(mine, "claude_idle_fresh_w120");
    const a = await s.alpha.standIn("claude", { height: 40 });
    await show(a, "claude_blocked_bash_w80");
    await s.fleet.addHost("alpha", s.alpha);
    const beta = await s.fleet.addHost("beta", s.beta);
    await beta.stop();
    s.fleet.silentHost("mute");
    await s.configure(
      s.fleet.hostToml({ connectSecs: 5, timeoutSecs: 8, names: ["alpha", "beta", "mute"] }),
      "[fleet]\nrefresh_secs = 1\n",
    );
    try {
      // No reading yet: the local counts, each host pending, and a refresher started.
      const first = await s.tma(["status", "--all-hosts", "--format", "json"]);
      assertEquals(first.code, 0, first.stderr);
      const doc = JSON.parse(first.stdout);
      assertEquals(doc.counts.idle, 1);
      assertEquals(doc.counts.blocked, 0);
      assertEquals(
        doc.hosts.map((h: { name: string; reachable: boolean }) => [h.name, h.reachable]),
        [
          ["alpha", false],
          ["beta", false],
          ["mute", false],
        ],
      );
      // The poll has ended; its refresher is still connecting to the host that never answers.
      await s.local.waitFor(
        async () => (await s.fleet.sshProcesses()).some((l) => l.includes(" mute tma ls ")),
        10_000,
      );
      // Then the cache fills: alpha counts, beta is marked, and the poll still returns at once.
      let line = "";
      await s.local.waitFor(async () => {
        line = (await s.tma(["status", "--all-hosts"])).stdout;
        return line.includes("⚑1") && line.includes("✗beta");
      }, 20_000).catch(() => {
        throw new Error(`status never showed the fleet: ${line}`);
      });
      assert(/#\[range=user\|tma:blocked\]#\[fg=red\]⚑1/.test(line), line);
      assert(line.includes("○1"), line);
      assert(!line.includes("\n"), "no trailing newline (C20)");
      const plain = await s.tma(["status", "--host", "alpha", "--format", "plain"]);
      assertEquals(plain.stdout, "⚑1");
      // Polls at once: still one refresher (it holds the lock; a second one exits).
      await Promise.all([1, 2, 3].map(() => s.tma(["status", "--all-hosts"])));
      await new Promise((r) => setTimeout(r, 1500));
      assertEquals((await refreshers(s.local)).length, 1);
    } finally {
      for (const pid of await refreshers(s.local)) Deno.kill(pid, "SIGTERM");
      await s.local.waitFor(
        async () =>
          (await refreshers(s.local)).length === 0 && (await s.fleet.sshProcesses()).length === 0,
        10_000,
      );
    }
  },
);

fleetTest(
  "X9 C63: subscribe --events --host: a replaced agent leaves and arrives, each edge with its host",
  async (s) => {
    const a = await s.alpha.standIn("claude", { height: 40 });
    await show(a, "claude_idle_fresh_w120");
    await s.fleet.addHost("alpha", s.alpha);
    await s.configure(s.fleet.hostToml({ ...DEADLINES, names: ["alpha"] }));
    const stream = s.start(["subscribe", "--json", "--events", "--host", "alpha"]);
    try {
      await readBy(s.alpha, stream);
      const b = await replaceAgent(s.alpha, a.pane, "claude");
      await show(b, "claude_idle_fresh_w120");
      let edges: Record<string, unknown>[] = [];
      await s.local.waitFor(() => {
        edges = stream.stdout().split("\n").filter((l) => l).map((l) => JSON.parse(l));
        return Promise.resolve(edges.length >= 2);
      }, 15_000).catch(() => {
        throw new Error(`no edges: ${stream.stdout()} ${stream.stderr()}`);
      });
      assertEquals(
        edges.slice(0, 2).map((e) => [e.host, e.pane, e.from, e.to]).sort(),
        [["alpha", a.pane, "", "idle"], ["alpha", a.pane, "idle", ""]],
      );
    } finally {
      stream.kill("SIGTERM");
      assertEquals((await stream.done).code, 0);
    }
  },
);

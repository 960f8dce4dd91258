/**
 * Several hosts, one view (X9), over a real sshd: two "hosts" on loopback,
 * each an sshd of its own whose `tma` runs this checkout against its own
 * scratch tmux server and HOME, beside the local scratch server the tested
 * tma runs on. Faults are real: a stopped sshd, a listener that never
 * answers, one that answers garbage, a host whose tma prints garbage. Every
 * test counts the ssh processes left behind.
 */
import { assert, assertEquals } from "./harness/assert.ts";
import { type Ran } from "./harness/process.ts";
import { screen } from "./harness/recorder.ts";
import { SKIP_SSH, SshFleet } from "./harness/sshd.ts";
import { runTma, ScratchTmux, type StandIn } from "./harness/tmux.ts";

/** A local server, two remote hosts and the fleet that reaches them. */
interface Setup {
  local: ScratchTmux;
  alpha: ScratchTmux;
  beta: ScratchTmux;
  fleet: SshFleet;
  /** Runs tma on the local server with the fleet's [[host]] entries in its config. */
  tma(args: string[], options?: { deadlineMs?: number }): Promise<Ran>;
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
      const setup: Setup = {
        local,
        alpha,
        beta,
        fleet,
        tma: (args, options = {}) =>
          runTma(local, args, { deadlineMs: options.deadlineMs ?? 60_000 }),
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

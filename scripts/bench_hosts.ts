/**
 * The fleet's figure for `deno task bench` (issue 19, X9): one fleet
 * refresh over two loopback hosts with 50 stand-in agent panes each,
 * `tma ls --json --host alpha --host beta` (both hosts read in parallel over
 * a real sshd, each running its own `tma ls --json --identity` on its own
 * scratch server, the tracks written to the local cache), timed pair by pair
 * beside a local `tma ls --json` over a server with the same 50 panes. Both
 * sides run this checkout the same way (`deno run` of `mod.ts`), so the ratio
 * is what reaching two hosts adds to one local listing. Beside it, the same
 * refresh over the floor of the transport, one bare ssh connection to a host
 * (`ssh alpha true`: key exchange, authentication, a session), and the ssh
 * processes left behind (0).
 * @module
 */
import { SSHD_MISSING, SshFleet } from "../tests/harness/sshd.ts";
import { type ScratchTmux, tmaCommand, withScratchTmux } from "../tests/harness/tmux.ts";
import { measurePairs, processRun, round2, type Run } from "./bench_pairs.ts";

const PAIRS = Number(Deno.env.get("TMA_BENCH_PAIRS") ?? "15");

const IDLE = "❯ \n" + "─".repeat(78) + "\n  ⏵⏵ accept edits on (shift+tab to cycle)";

/** `panes` idle stand-in agents on `t`, stamped once. */
async function agents(t: ScratchTmux, panes: number): Promise<void> {
  for (let i = 0; i < panes; i++) {
    const standIn = await t.standIn("claude", { title: "✳ Claude Code" });
    await standIn.draw(IDLE);
  }
}

/** `tma ARGS` against `t`, as a timed run. */
function tmaRun(label: string, t: ScratchTmux, args: string[]): Run {
  return processRun(label, "sh", { args: ["-c", tmaCommand(t, args)], env: t.env() });
}

/** The figure, or null where sshd is not installed. */
export async function benchHosts(panes = 50) {
  if (SSHD_MISSING !== null) return null;
  return await withScratchTmux((local) =>
    withScratchTmux((alpha) =>
      withScratchTmux(async (beta) => {
        for (const t of [local, alpha, beta]) await agents(t, panes);
        const fleet = await SshFleet.create();
        try {
          await fleet.addHost("alpha", alpha);
          await fleet.addHost("beta", beta);
          await Deno.mkdir(`${local.home}/.config/tma`, { recursive: true });
          await Deno.writeTextFile(
            `${local.home}/.config/tma/config.toml`,
            fleet.hostToml({ connectSecs: 5, timeoutSecs: 20 }),
          );
          const reference = tmaRun(`local tma ls --json (${panes} panes)`, local, ["ls", "--json"]);
          const subject = tmaRun(
            `fleet refresh: tma ls --json --host alpha --host beta (${panes} panes each)`,
            local,
            ["ls", "--json", "--host", "alpha", "--host", "beta"],
          );
          // Every host answers before timing starts (a failing host would time its deadline).
          const check = await new Deno.Command("sh", {
            args: ["-c", tmaCommand(local, ["ls", "--json", "--host", "alpha", "--host", "beta"])],
            env: local.env(),
            clearEnv: true,
          }).output();
          const doc = JSON.parse(new TextDecoder().decode(check.stdout));
          if (
            doc.agents.length !== 2 * panes ||
            doc.hosts.some((h: { reachable: boolean }) => !h.reachable)
          ) {
            throw new Error(`the hosts did not answer: ${JSON.stringify(doc.hosts)}`);
          }
          const result = await measurePairs(reference, subject, PAIRS);
          const connect = processRun("ssh alpha true", "ssh", {
            args: [
              "-F",
              fleet.sshConfig,
              "-o",
              "BatchMode=yes",
              "-o",
              "ControlPath=none",
              "alpha",
              "true",
            ],
          });
          const overSsh = await measurePairs(connect, subject, PAIRS);
          return {
            panes_per_host: panes,
            local_ls_ms: Math.round(result.referenceMs.median),
            fleet_refresh_ms: Math.round(result.subjectMs.median),
            over_local_ls: round2(result.ratio.median),
            q1: round2(result.ratio.q1),
            q3: round2(result.ratio.q3),
            pairs: result.pairs,
            ssh_connect_ms: Math.round(overSsh.referenceMs.median),
            over_ssh_connect: round2(overSsh.ratio.median),
            ssh_left: (await fleet.sshProcesses()).length,
          };
        } finally {
          await fleet.close();
        }
      })
    )
  );
}

if (import.meta.main) console.log(JSON.stringify(await benchHosts()));

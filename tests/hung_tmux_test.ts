/**
 * Issue 13 item 11 (R11): a tmux that hangs leaks nothing. The deadline on
 * every child tma starts kills the child and every process under it, so a
 * `TMA_TMUX_BIN` wrapper script that hangs takes its own children down with
 * it, on the status path, the hook path and the cold install path alike.
 * @module
 */
import { assert, assertEquals } from "./harness/assert.ts";
import { runTma, tmuxTest } from "./harness/tmux.ts";
import { descendantPids } from "../src/tmux/spawn.ts";

/** A tmux stand-in that starts a child, records its pid and waits for it forever. */
async function hangingTmux(dir: string): Promise<{ bin: string; pids: string }> {
  const bin = `${dir}/tmux-hangs`;
  const pids = `${dir}/hung-children`;
  await Deno.writeTextFile(bin, `#!/bin/sh\nsleep 600 &\necho $! >> '${pids}'\nwait\n`);
  await Deno.chmod(bin, 0o755);
  return { bin, pids };
}

/** Whether a process still runs (a zombie waiting for its reaper does not). */
async function alive(pid: number): Promise<boolean> {
  const out = await new Deno.Command("ps", { args: ["-o", "stat=", "-p", String(pid)] }).output();
  const stat = new TextDecoder().decode(out.stdout).trim();
  return out.success && stat !== "" && !stat.startsWith("Z");
}

for (
  const [what, args] of [
    ["a status poll", ["status", "--format", "plain"]],
    ["a hook", ["event", "--agent", "claude", "--kind", "Stop", "--pane", "%1"]],
    ["install-hooks --check", ["install-hooks", "--check"]],
  ] as const
) {
  tmuxTest(
    `R11: ${what} against a hung tmux kills the hung call's whole process tree`,
    async (t) => {
      const { bin, pids } = await hangingTmux(t.dir);
      const ran = await runTma(t, [...args], {
        env: { TMA_TMUX_BIN: bin },
        stdin: "{}",
        deadlineMs: 60_000,
      });
      assert(!ran.timedOut, "tma itself hung");
      const started = (await Deno.readTextFile(pids).catch(() => "")).split("\n").filter(Boolean)
        .map(Number);
      assert(started.length > 0, `the hung tmux never ran (${ran.stderr})`);
      // The kill is immediate; give the kernel a moment to reap.
      await new Promise((r) => setTimeout(r, 200));
      const left: number[] = [];
      for (const pid of started) if (await alive(pid)) left.push(pid);
      for (const pid of left) Deno.kill(pid, "SIGKILL");
      assertEquals(left, [], `children of the hung tmux survived its deadline: ${left.join(", ")}`);
    },
  );
}

Deno.test("R11: descendantPids() finds every process under the root, and nothing else", () => {
  const parents = new Map([
    [10, 1], // the root's parent is not under it
    [11, 10],
    [12, 10],
    [13, 11],
    [14, 13],
    [20, 1], // a sibling tree
    [21, 20],
  ]);
  assertEquals(descendantPids(parents, 10).sort((a, b) => a - b), [11, 12, 13, 14]);
  assertEquals(descendantPids(parents, 14), []);
  assertEquals(descendantPids(new Map(), 10), []);
});

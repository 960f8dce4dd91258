/**
 * The daemon's figures (issue 17), each beside its reference measured in the
 * same run:
 *
 * - (a) one `tma-hook claude PreToolUse` fire as the agent sees it, with a
 *   live daemon and without one, pair by pair with `sh -c :` and an empty
 *   `deno run --no-config` script outside the repository;
 * - (b) seconds from a hookless stand-in drawing a permission dialog to
 *   `@agent_state=blocked`, with the daemon and with `status-interval 15`
 *   polling through `#(tma status)` on an attached client;
 * - (c) the daemon's CPU seconds over 60 s with 100 idle stand-in panes, and
 *   with 10 panes printing 20 lines a second;
 * - (d) its peak memory (VmHWM) at 100 panes;
 * - (e) how soon `tma wait` returns after the daemon's transition it was
 *   woken for (U11: a push, then the waiter's own cycle), beside the same
 *   wait with no daemon (its own one-second cycle).
 *
 * CPU and memory read `/proc` (Linux); elsewhere they are skipped.
 * @module
 */
import { RUN_PERMISSIONS } from "../src/core/permissions.ts";
import { parseScreenFile } from "../src/core/rules/screen_file.ts";
import { liveDaemon } from "../src/runtime/daemon_link.ts";
import { startDaemon, type TestDaemon } from "../tests/harness/daemon.ts";
import { attachClient } from "../tests/harness/client.ts";
import { type ScratchTmux, startTma, tmaCommand, withScratchTmux } from "../tests/harness/tmux.ts";
import { fireHook, payload, quietPane, tmaScript } from "../tests/harness/hook.ts";
import { middle, timed } from "./bench_pairs.ts";
import { fireWrapper } from "./bench_hooks.ts";
import { PRE_TOOL_USE } from "./bench_subjects.ts";

const REPO = new URL("../", import.meta.url).pathname;
const RUNS = Number(Deno.env.get("TMA_BENCH_RUNS") ?? "9");
const CPU_SECS = Number(Deno.env.get("TMA_BENCH_DAEMON_SECS") ?? "60");

async function blockedScreen(): Promise<string> {
  const name = "claude_blocked_bash_w120.txt";
  const text = await Deno.readTextFile(new URL(`../fixtures/screens/${name}`, import.meta.url));
  return parseScreenFile(text, name).capture.replace(/\n$/, "");
}

/** One wrapper fire of Claude's PreToolUse with `bin` as tma, timed as an agent waits for it. */
function fire(t: ScratchTmux, pane: string, bin: string, env: Record<string, string>) {
  return timed(() =>
    fireWrapper(t, {
      agent: "claude",
      event: "PreToolUse",
      pane,
      stdin: PRE_TOOL_USE,
      env: { TMA_BIN: bin, ...env },
    })
  );
}

/** (a) the hook fire with and without a daemon, beside `sh -c :` and an empty deno script. */
export async function hookFigures() {
  return await withScratchTmux(async (t) => {
    const bin = `${t.dir}/tma`;
    await Deno.writeTextFile(
      bin,
      `#!/bin/sh\nexec '${Deno.execPath()}' run --quiet ${
        RUN_PERMISSIONS.join(" ")
      } '${REPO}mod.ts' "$@"\n`,
    );
    await Deno.chmod(bin, 0o755);
    const empty = `${t.dir}/empty.ts`;
    await Deno.writeTextFile(empty, "\n");
    const pane = (await t.tmux("display", "-p", "-t", "main", "#{pane_id}")).trim();
    // As inside an agent's pane: $TMUX names the server.
    const tmuxVar =
      (await t.tmux("display", "-p", "-t", "main", "#{socket_path},#{pid},#{session_id}"))
        .trim();
    const env = { XDG_RUNTIME_DIR: `${t.dir}/run`, TMUX: tmuxVar };
    const without: number[] = [];
    const shell: number[] = [];
    const deno: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      without.push(await fire(t, pane, bin, env));
      shell.push(await timed(() => new Deno.Command("sh", { args: ["-c", ":"] }).output()));
      deno.push(
        await timed(() =>
          new Deno.Command(Deno.execPath(), {
            args: ["run", "--no-config", "--quiet", empty],
            cwd: t.dir,
          }).output()
        ),
      );
    }
    const daemon = await startDaemon(t);
    const withDaemon: number[] = [];
    const shell2: number[] = [];
    try {
      for (let i = 0; i < RUNS; i++) {
        withDaemon.push(await fire(t, pane, bin, env));
        shell2.push(await timed(() => new Deno.Command("sh", { args: ["-c", ":"] }).output()));
      }
    } finally {
      await daemon.stop();
    }
    return {
      with_daemon_ms: round(middle(withDaemon)),
      without_daemon_ms: round(middle(without)),
      sh_c_ms: round(middle([...shell, ...shell2])),
      empty_deno_no_config_ms: round(middle(deno)),
      with_daemon_over_sh: round(middle(withDaemon.map((ms, i) => ms / shell2[i]))),
      without_daemon_over_empty_deno: round(middle(without.map((ms, i) => ms / deno[i]))),
    };
  });
}

/** Seconds from a draw to `@agent_state=blocked`. */
async function drawToBlocked(t: ScratchTmux, screen: string, timeoutMs: number): Promise<number> {
  const agent = await t.standIn("claude", { width: 120 });
  await new Promise((r) => setTimeout(r, 1500));
  const start = performance.now();
  await agent.draw(screen);
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if ((await t.option(agent.pane, "@agent_state")) === "blocked") break;
    await new Promise((r) => setTimeout(r, 20));
  }
  const secs = (performance.now() - start) / 1000;
  await t.tmux("kill-pane", "-t", agent.pane);
  return secs;
}

/** (b) the latency to blocked, with the daemon and with status-interval 15 polling. */
export async function latencyFigures() {
  const screen = await blockedScreen();
  const runs = Math.max(3, Math.ceil(RUNS / 3));
  const daemonRuns = await withScratchTmux(async (t) => {
    const daemon = await startDaemon(t, { args: ["--sweep-ms", "600000"] });
    try {
      const out: number[] = [];
      for (let i = 0; i < runs; i++) out.push(await drawToBlocked(t, screen, 20_000));
      return out;
    } finally {
      await daemon.stop();
    }
  }, { width: 120 });
  const pollRuns = await withScratchTmux(async (t) => {
    await t.tmux("set-option", "-g", "status-interval", "15");
    await t.tmux("set-option", "-g", "status-right", `#(${tmaCommand(t, ["status"])})`);
    const client = await attachClient(t, "main", { cols: 120, rows: 40 });
    try {
      const out: number[] = [];
      for (let i = 0; i < runs; i++) out.push(await drawToBlocked(t, screen, 40_000));
      return out;
    } finally {
      await client.close();
    }
  }, { width: 120 });
  return {
    quiet_ms: 1000,
    with_daemon_secs: round(middle(daemonRuns)),
    with_daemon_runs: daemonRuns.map(round),
    status_interval_15_secs: round(middle(pollRuns)),
    status_interval_15_runs: pollRuns.map(round),
  };
}

/**
 * A `/proc` file of another process, read through `cat`: Deno asks for
 * `--allow-all` to read `/proc/<pid>` itself.
 */
async function procFile(pid: number, name: string): Promise<string> {
  const out = await new Deno.Command("cat", { args: [`/proc/${pid}/${name}`], stderr: "null" })
    .output();
  if (!out.success) throw new Error(`no /proc/${pid}/${name}`);
  return new TextDecoder().decode(out.stdout);
}

/** A process's own CPU (utime + stime) and its reaped children's (cutime + cstime), seconds. */
async function cpuOf(pid: number): Promise<{ own: number; children: number } | null> {
  try {
    const stat = await procFile(pid, "stat");
    const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ").map(Number);
    return { own: (f[11] + f[12]) / 100, children: (f[13] + f[14]) / 100 };
  } catch {
    return null;
  }
}

async function peakKb(pid: number): Promise<number | null> {
  try {
    const status = await procFile(pid, "status");
    return Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? "NaN");
  } catch {
    return null;
  }
}

/** The daemon's CPU over CPU_SECS, its own and its children's (the tmux calls). */
async function cpuOver(daemon: TestDaemon) {
  await new Promise((r) => setTimeout(r, 3000));
  const before = await cpuOf(daemon.pid);
  await new Promise((r) => setTimeout(r, CPU_SECS * 1000));
  const after = await cpuOf(daemon.pid);
  if (before === null || after === null) return null;
  const own = after.own - before.own;
  const kids = after.children - before.children;
  return {
    secs: CPU_SECS,
    daemon_cpu_secs: round(own),
    children_cpu_secs: round(kids),
    percent_of_one_core: round(((own + kids) / CPU_SECS) * 100),
  };
}

/** (c) and (d): CPU at 100 idle panes and at 10 printing ones; peak memory at 100. */
export async function resourceFigures() {
  const idle = await withScratchTmux(async (t) => {
    const screen = (await blockedScreen()).replace(/Do you want/g, "Did you want");
    for (let i = 0; i < 100; i++) {
      const agent = await t.standIn("claude");
      await agent.draw(i === 0 ? screen : "❯ ");
    }
    const daemon = await startDaemon(t);
    try {
      if (!(await liveDaemon(daemon.paths))) throw new Error("no daemon");
      const cpu = await cpuOver(daemon);
      return { cpu, peak_kb: await peakKb(daemon.pid) };
    } finally {
      await daemon.stop();
    }
  });
  const busy = await withScratchTmux(async (t) => {
    await Deno.mkdir(`${t.dir}/busy`);
    await Deno.symlink("/bin/sh", `${t.dir}/busy/claude`);
    for (let i = 0; i < 10; i++) {
      await t.newWindow([
        `${t.dir}/busy/claude`,
        "-c",
        'i=0; while :; do i=$((i+1)); echo "working line $i"; sleep 0.05; done',
      ]);
    }
    const daemon = await startDaemon(t);
    try {
      return await cpuOver(daemon);
    } finally {
      await daemon.stop();
    }
  });
  return { idle_100: idle.cpu, peak_kb_100: idle.peak_kb, printing_10: busy };
}

function round(n: number): number {
  return Number(n.toFixed(3));
}

/** The daemon's transition ring (`tma debug transitions --json`), or an empty one. */
async function transitions(t: ScratchTmux): Promise<{ transitions?: unknown[] }> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--quiet",
      ...RUN_PERMISSIONS,
      `${REPO}mod.ts`,
      "--socket-name",
      t.socketName,
      "debug",
      "transitions",
      "--json",
    ],
    env: t.env(),
    clearEnv: true,
    stdout: "piped",
    stderr: "null",
  }).output();
  try {
    return JSON.parse(new TextDecoder().decode(out.stdout));
  } catch {
    return {};
  }
}

/**
 * Milliseconds from a pane's working -> idle transition (a Stop hook fired
 * through the wrapper) to `tma wait --until idle` exiting, `runs` times.
 * With a daemon the transition's time is the daemon's ring entry; without,
 * it is when the hook's stamp became visible.
 */
async function waitLatencies(t: ScratchTmux, daemon: TestDaemon | null, runs: number) {
  const pane = await quietPane(t);
  const bin = await tmaScript(t);
  const fire = (event: string) =>
    fireHook(t, { agent: "claude", event, pane, bin, stdin: payload("claude", event) });
  const out: number[] = [];
  for (let i = 0; i < runs; i++) {
    await fire("PreToolUse");
    const wait = startTma(t, ["wait", "--pane", pane, "--until", "idle"]);
    // Let the waiter reach its sleep, off its one-second cadence.
    await new Promise((r) => setTimeout(r, 1500 + 137 * i));
    await fire("Stop");
    const stampedAt = Date.now();
    await wait.done;
    const returned = Date.now();
    let at = stampedAt;
    if (daemon !== null) {
      const ring = await transitions(t);
      const idle = (ring.transitions as { pane: string; to: string; at: number }[] ?? [])
        .filter((x) => x.pane === pane && x.to === "idle").pop();
      if (idle) at = idle.at;
    }
    out.push(returned - at);
  }
  return out;
}

/** (e) `tma wait` woken by the daemon, beside the same wait polling alone. */
export async function waitFigures() {
  const runs = Math.max(3, Math.ceil(RUNS / 3));
  const woken = await withScratchTmux(async (t) => {
    const daemon = await startDaemon(t, { args: ["--sweep-ms", "600000"] });
    try {
      return await waitLatencies(t, daemon, runs);
    } finally {
      await daemon.stop();
    }
  });
  const polling = await withScratchTmux((t) => waitLatencies(t, null, runs));
  return {
    woken_by_daemon_ms: round(middle(woken)),
    woken_runs: woken.map(Math.round),
    polling_alone_ms: round(middle(polling)),
    polling_runs: polling.map(Math.round),
    budget_ms: 300,
  };
}

/** Every daemon figure. */
export async function benchDaemon(): Promise<Record<string, unknown>> {
  return {
    hook: await hookFigures(),
    latency: await latencyFigures(),
    wait: await waitFigures(),
    resources: await resourceFigures(),
  };
}

if (import.meta.main) console.log(JSON.stringify(await benchDaemon(), null, 2));

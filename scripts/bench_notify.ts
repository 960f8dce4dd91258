/**
 * Benchmarks the alerts path (issue 16), on scratch tmux servers with
 * stand-in agents:
 *
 * - the seconds from a stand-in pane drawing a permission prompt to the
 *   notify command running: with hooks (the `PermissionRequest` event fired
 *   with the draw, `[notify] from_event`), and without (the next status poll,
 *   `[notify] from_poll`, started as soon as the prompt is on screen; a real
 *   status line adds its own `status-interval` on top);
 * - the CPU one idle `tma wait` spends per minute (its own and its children's
 *   `tmux` and `ps`), and the tmux server's CPU over the same minute.
 *
 * Every figure comes with the two floors measured beside it, pair by pair:
 * a `deno run --no-config` of an empty file outside the repository and
 * `sh -c :` (their wall times for the latencies, their CPU for the wait).
 *
 * ```sh
 * deno run --allow-read --allow-write --allow-env --allow-run --allow-sys=hostname scripts/bench_notify.ts
 * ```
 * @module
 */
import { RUN_PERMISSIONS } from "../src/core/permissions.ts";
import { fireHook, payload, tmaScript, writeConfig } from "../tests/harness/hook.ts";
import { screen } from "../tests/harness/recorder.ts";
import { runTma, type ScratchTmux, withScratchTmux } from "../tests/harness/tmux.ts";
import { emptyDeno, type Floor, middle, shNoop, timed } from "./bench_pairs.ts";

const RUNS = Number(Deno.env.get("TMA_BENCH_RUNS") ?? "9");
/** How long the idle wait is sampled, in seconds. */
const WAIT_SAMPLE_SECS = Number(Deno.env.get("TMA_BENCH_WAIT_SECS") ?? "30");
const MOD = new URL("../mod.ts", import.meta.url).pathname;
const BLOCKED = screen("claude_blocked_bash_w120");
const IDLE = screen("claude_idle_fresh_w120");

/** One `sh -c :`, timed. */
function shRunMs(): Promise<number> {
  return timed(() => shNoop().once());
}

/**
 * The CPU (user + system, optionally with waited children) of a process, in
 * ms, from /proc, read by `cat`: Deno reads /proc only under --allow-all.
 */
function cpuMs(pid: number, withChildren: boolean): number {
  const out = new Deno.Command("cat", { args: [`/proc/${pid}/stat`], stderr: "null" }).outputSync();
  const stat = new TextDecoder().decode(out.stdout);
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  // Fields 14-17 of stat(5): utime, stime, cutime, cstime, in clock ticks (100 Hz).
  const [utime, stime, cutime, cstime] = fields.slice(11, 15).map(Number);
  const ticks = utime + stime + (withChildren ? cutime + cstime : 0);
  return ticks * 10;
}

/** The CPU of one empty Deno start, from this process's waited-children counters. */
async function emptyRunCpuMs(floor: Floor): Promise<number> {
  const self = Deno.pid;
  const before = cpuMs(self, true) - cpuMs(self, false);
  await floor.run.once();
  return cpuMs(self, true) - cpuMs(self, false) - before;
}

/** The CPU of one `sh -c :`, averaged over a batch (one is below the 10 ms tick). */
async function shRunCpuMs(batch = 100): Promise<number> {
  const self = Deno.pid;
  const before = cpuMs(self, true) - cpuMs(self, false);
  for (let i = 0; i < batch; i++) await shRunMs();
  return (cpuMs(self, true) - cpuMs(self, false) - before) / batch;
}

/** The notify command's own clock when it ran, in epoch ms (GNU date). */
function stampCommand(out: string): string {
  return `date +%s%3N >> '${out}'`;
}

async function firstStamp(path: string, after: number): Promise<number> {
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    try {
      const stamps = (await Deno.readTextFile(path)).split("\n").map(Number).filter((n) =>
        n > after
      );
      if (stamps.length > 0) return stamps[0];
    } catch {
      // Not written yet.
    }
    await new Promise((r) => setTimeout(r, 5));
  }
  throw new Error("the notify command never ran");
}

async function nextSecond(): Promise<void> {
  await new Promise((r) => setTimeout(r, 1000 - (Date.now() % 1000) + 5));
}

/** Prompt to command, one run per fresh pane (a new episode each time). */
async function promptToCommand(
  t: ScratchTmux,
  mode: "event" | "poll",
  floor: Floor,
): Promise<{ ms: number[]; floorMs: number[]; shMs: number[] }> {
  const out = `${t.dir}/ran.log`;
  await writeConfig(
    t,
    [
      "[hooks]",
      "claude_reply_lane = false",
      "[notify]",
      mode === "event" ? "from_event = true" : "from_poll = true",
      "looking_secs = 0",
      `command = "${stampCommand(out)}"`,
    ].join("\n"),
  );
  const bin = await tmaScript(t);
  const ms: number[] = [];
  const floorMs: number[] = [];
  const shMs: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    const agent = await t.standIn("claude");
    await agent.draw(IDLE.capture, IDLE.title);
    await runTma(t, ["status"], { env: { TMA_NOTIFY_FROM_POLL: "0" } });
    floorMs.push(await timed(() => floor.run.once()));
    shMs.push(await shRunMs());
    if (mode === "event") {
      // A real Claude fires the hook as it draws the dialog.
      const start = Date.now();
      await Promise.all([
        agent.draw(BLOCKED.capture, BLOCKED.title),
        fireHook(t, {
          agent: "claude",
          event: "PermissionRequest",
          pane: agent.pane,
          bin,
          stdin: payload("claude", "PermissionRequest"),
        }),
      ]);
      ms.push((await firstStamp(out, start)) - start);
    } else {
      await nextSecond();
      await agent.draw(BLOCKED.capture, BLOCKED.title);
      const start = Date.now();
      await runTma(t, ["status"]);
      ms.push((await firstStamp(out, start)) - start);
    }
  }
  return { ms, floorMs, shMs };
}

/** The CPU of one idle `tma wait` over WAIT_SAMPLE_SECS, scaled to a minute. */
async function idleWaitCpu(t: ScratchTmux, floor: Floor) {
  const agent = await t.standIn("claude");
  await agent.draw(IDLE.capture, IDLE.title);
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--quiet",
      ...RUN_PERMISSIONS,
      MOD,
      "--socket-name",
      t.socketName,
      "wait",
      "--pane",
      agent.pane,
      "--until",
      "blocked",
    ],
    env: t.env(),
    clearEnv: true,
    stdin: "null",
    stdout: "null",
    stderr: "null",
  }).spawn();
  const serverPid = Number((await t.tmux("display-message", "-p", "#{pid}")).trim());
  try {
    // Past start-up: only the steady cycles count.
    await new Promise((r) => setTimeout(r, 3000));
    const wait0 = cpuMs(child.pid, true);
    const server0 = cpuMs(serverPid, false);
    await new Promise((r) => setTimeout(r, WAIT_SAMPLE_SECS * 1000));
    const perMinute = 60 / WAIT_SAMPLE_SECS;
    const waitMs = (cpuMs(child.pid, true) - wait0) * perMinute;
    const serverMs = (cpuMs(serverPid, false) - server0) * perMinute;
    const floors: number[] = [];
    for (let i = 0; i < RUNS; i++) floors.push(await emptyRunCpuMs(floor));
    const sh = await shRunCpuMs();
    return {
      wait_cpu_ms_per_min: Math.round(waitMs),
      tmux_server_cpu_ms_per_min: Math.round(serverMs),
      empty_deno_cpu_ms: middle(floors),
      wait_per_min_over_empty_deno_cpu: Number((waitMs / Math.max(1, middle(floors))).toFixed(1)),
      sh_cpu_ms: Number(sh.toFixed(2)),
      wait_per_min_over_sh_cpu: Number((waitMs / Math.max(0.01, sh)).toFixed(0)),
      wait_share_of_a_core: `${(waitMs / 600).toFixed(2)}%`,
    };
  } finally {
    child.kill("SIGKILL");
    await child.status;
  }
}

/** Every figure of this bench, as one object. */
export async function benchNotify(): Promise<Record<string, unknown>> {
  if (Deno.build.os !== "linux") return { skipped: "needs /proc and GNU date (Linux)" };
  const floor = await emptyDeno();
  try {
    const figures: Record<string, unknown> = {};
    for (const mode of ["event", "poll"] as const) {
      const { ms, floorMs, shMs } = await withScratchTmux((t) => promptToCommand(t, mode, floor));
      figures[`prompt_to_command_${mode}_s`] = Number((middle(ms) / 1000).toFixed(3));
      figures[`prompt_to_command_${mode}_over_empty_deno`] = Number(
        middle(ms.map((m, i) => m / floorMs[i])).toFixed(2),
      );
      figures[`prompt_to_command_${mode}_over_sh`] = Number(
        middle(ms.map((m, i) => m / shMs[i])).toFixed(0),
      );
      figures.empty_deno_ms = Math.round(middle(floorMs));
      figures.sh_ms = Number(middle(shMs).toFixed(2));
    }
    figures.idle_wait = await withScratchTmux((t) => idleWaitCpu(t, floor));
    return figures;
  } finally {
    await floor.dispose();
  }
}

if (import.meta.main) console.log(JSON.stringify(await benchNotify(), null, 2));

/**
 * `deno task bench`: the figures the issues budget, measured on scratch tmux
 * servers with stand-in agents (never by a timed test).
 *
 * - one `tma status` cycle at 10, 50 and 100 agent panes: wall time, tmux
 *   processes spawned, captures; the same for a quiet cycle (no output);
 * - `tma --version`, the baseline a quiet cycle at 100 panes is held to;
 * - one `tma-hook claude PreToolUse` fire against an empty Deno script;
 * - the Codex rollout tail read at 1 MiB and 50 MiB;
 * - prompt to notify command, with hooks and with a status poll, and the CPU
 *   an idle `tma wait` spends per minute (`bench_notify.ts`);
 * - the picker's first frame and one `jump --attention` at 100 panes
 *   (scripts/bench_surfaces.ts);
 * - the daemon: hook fire with and without it, draw-to-blocked latency, CPU
 *   and peak memory (scripts/bench_daemon.ts);
 * - `tma status` and `tma event` with a user manifest (its patterns on the
 *   linear-time engine) against the bundled one (scripts/bench_patterns.ts).
 * @module
 */
import { RUN_PERMISSIONS } from "../src/core/permissions.ts";
import { countingTmux, runTma, type ScratchTmux, withScratchTmux } from "../tests/harness/tmux.ts";

const REPO = new URL("../", import.meta.url).pathname;
const RUNS = Number(Deno.env.get("TMA_BENCH_RUNS") ?? "9");

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

/**
 * Waits for the start of the next wall-clock second, so the stampede guard
 * (D53) never skips a measured cycle.
 */
async function nextSecond(): Promise<void> {
  await new Promise((r) => setTimeout(r, 1000 - (Date.now() % 1000) + 5));
}

async function timed(fn: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await fn();
  return performance.now() - start;
}

const IDLE_SCREEN = [
  "❯ write the changelog",
  "",
  "⏺ Done: the changelog now lists every fix since 0.3.",
  "",
  "✻ Worked for 12s",
  "",
  "─".repeat(78),
  "❯ ",
  "─".repeat(78),
  "  ⏵⏵ accept edits on (shift+tab to cycle)",
].join("\n");

function capturesOf(stderr: string): number {
  return Number(/capture (\d+),/.exec(stderr)?.[1] ?? "-1");
}

async function cycleFigures(t: ScratchTmux, panes: number) {
  for (let i = 0; i < panes; i++) {
    const standIn = await t.standIn("claude", { title: "✳ Claude Code" });
    await standIn.draw(IDLE_SCREEN);
  }
  const counter = await countingTmux(t.dir);
  // A cycle where every pane needs a capture: stamps removed first.
  const active: number[] = [];
  let activeSpawns = 0;
  let activeCaptures = 0;
  // Without a hash a pane counts as never captured (D54), so every pane is captured.
  const forgetCaptures = async () => {
    for (const pane of (await t.tmux("list-panes", "-a", "-F", "#{pane_id}")).trim().split("\n")) {
      await t.tmux("set-option", "-pu", "-t", pane, "@agent_hash");
    }
  };
  for (let run = 0; run < Math.max(3, Math.floor(RUNS / 2)); run++) {
    await forgetCaptures();
    await nextSecond();
    let stderr = "";
    active.push(
      await timed(async () => {
        stderr = (await runTma(t, ["--debug-timing", "status"])).stderr;
      }),
    );
    activeCaptures = capturesOf(stderr);
  }
  await forgetCaptures();
  await nextSecond();
  await runTma(t, ["status"], { env: { TMA_TMUX_BIN: counter.bin } });
  activeSpawns = await counter.count();
  // Quiet: let window activity fall behind the stamps, settle, then measure.
  await new Promise((r) => setTimeout(r, 1100));
  await nextSecond();
  await runTma(t, ["status"]);
  const quiet: number[] = [];
  // A `tma --version` run just before each quiet cycle, both after the same
  // idle wait, so the budget's ratio compares runs made under the same load.
  const version: number[] = [];
  let quietCaptures = -1;
  for (let run = 0; run < RUNS; run++) {
    await nextSecond();
    version.push(await timed(() => runTma(t, ["--version"])));
    let stderr = "";
    quiet.push(
      await timed(async () => {
        stderr = (await runTma(t, ["--debug-timing", "status"])).stderr;
      }),
    );
    quietCaptures = capturesOf(stderr);
  }
  await nextSecond();
  await runTma(t, ["status"], { env: { TMA_TMUX_BIN: counter.bin } });
  const quietSpawns = await counter.count();
  return {
    panes,
    cycle_ms: Math.round(median(active)),
    cycle_tmux_spawns: activeSpawns,
    cycle_captures: activeCaptures,
    quiet_ms: Math.round(median(quiet)),
    quiet_tmux_spawns: quietSpawns,
    quiet_captures: quietCaptures,
    version_ms: Math.round(median(version)),
    // Each quiet cycle over the --version run made just before it: a pair
    // shares the machine's load of the moment, so the median of the pairs'
    // ratios is the steadiest figure on a machine whose load drifts.
    quiet_over_version: Number(median(quiet.map((ms, i) => ms / version[i])).toFixed(2)),
  };
}

async function versionMs(): Promise<number> {
  return await withScratchTmux(async (t) => {
    const runs: number[] = [];
    for (let i = 0; i < RUNS; i++) runs.push(await timed(() => runTma(t, ["--version"])));
    return Math.round(median(runs));
  });
}

async function emptyScriptMs(): Promise<number> {
  const dir = await Deno.makeTempDir();
  const file = `${dir}/empty.ts`;
  await Deno.writeTextFile(file, "\n");
  const runs: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    runs.push(
      await timed(() =>
        new Deno.Command(Deno.execPath(), { args: ["run", "--quiet", file] }).output()
      ),
    );
  }
  await Deno.remove(dir, { recursive: true });
  return Math.round(median(runs));
}

async function hookFireMs(): Promise<number | null> {
  const wrapper = `${REPO}integrations/tma-hook`;
  try {
    await Deno.stat(wrapper);
  } catch {
    return null;
  }
  return await withScratchTmux(async (t) => {
    const bin = `${t.dir}/tma`;
    await Deno.writeTextFile(
      bin,
      `#!/bin/sh\nexec '${Deno.execPath()}' run --quiet ${
        RUN_PERMISSIONS.join(" ")
      } '${REPO}mod.ts' "$@"\n`,
    );
    await Deno.chmod(bin, 0o755);
    const standIn = await t.standIn("claude");
    const payload = JSON.stringify({
      session_id: "bench-session",
      hook_event_name: "PreToolUse",
      tool_name: "Bash",
      tool_input: { command: "ls" },
    });
    const runs: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      runs.push(
        await timed(async () => {
          const child = new Deno.Command("sh", {
            args: [wrapper, "claude", "PreToolUse"],
            env: t.env({ TMA_BIN: bin, TMUX_PANE: standIn.pane, TMA_HOOK_SOCKET: t.socketName }),
            clearEnv: true,
            stdin: "piped",
            stdout: "null",
            stderr: "null",
          }).spawn();
          const writer = child.stdin.getWriter();
          await writer.write(new TextEncoder().encode(payload));
          await writer.close();
          await child.status;
        }),
      );
    }
    return Math.round(median(runs));
  });
}

async function main(): Promise<void> {
  const report: Record<string, unknown> = {};
  const version = await versionMs();
  report.version_ms = version;
  const cycles = [];
  for (const panes of [10, 50, 100]) {
    cycles.push(await withScratchTmux((t) => cycleFigures(t, panes)));
  }
  report.cycles = cycles;
  const quiet100 = cycles.find((c) => c.panes === 100)!;
  // The budget compares each quiet cycle with the --version run made beside it.
  report.quiet_100_over_version = quiet100.quiet_over_version;
  const empty = await emptyScriptMs();
  report.empty_deno_script_ms = empty;
  const hook = await hookFireMs();
  report.hook_fire_ms = hook;
  report.hook_over_empty = hook === null ? null : Number((hook / empty).toFixed(2));
  try {
    const { benchTelemetry } = await import("./bench_telemetry.ts");
    report.telemetry = await benchTelemetry();
  } catch (error) {
    report.telemetry = `skipped: ${(error as Error).message}`;
  }
  // Issue 16's figures, self-contained in bench_notify.ts: prompt to notify
  // command (hooks and a status poll) and an idle wait's CPU per minute.
  try {
    const { benchNotify } = await import("./bench_notify.ts");
    report.notify = await benchNotify();
  } catch (error) {
    report.notify = `skipped: ${(error as Error).message}`;
  }
  // issue 15: the picker's first frame and one jump at 100 panes, each beside tma --version.
  try {
    const { benchSurfaces } = await import("./bench_surfaces.ts");
    report.surfaces = await benchSurfaces();
  } catch (error) {
    report.surfaces = `skipped: ${(error as Error).message}`;
  }
  // issue 17: the daemon's figures, each beside its reference of the same run.
  try {
    const { benchDaemon } = await import("./bench_daemon.ts");
    report.daemon = await benchDaemon();
  } catch (error) {
    report.daemon = `skipped: ${(error as Error).message}`;
  }
  // issue 13 item 1: what a user manifest's linear-time patterns cost at start-up.
  try {
    const { benchPatterns } = await import("./bench_patterns.ts");
    report.user_patterns = await benchPatterns();
  } catch (error) {
    report.user_patterns = `skipped: ${(error as Error).message}`;
  }
  console.log("tma bench (medians of", RUNS, "runs; times in ms)");
  console.log(`tma --version: ${version} ms; empty deno script: ${empty} ms`);
  console.log("panes  cycle_ms  spawns  captures | quiet_ms  spawns  captures");
  for (const c of cycles) {
    console.log(
      `${String(c.panes).padStart(5)}  ${String(c.cycle_ms).padStart(8)}  ${
        String(c.cycle_tmux_spawns).padStart(6)
      }  ${String(c.cycle_captures).padStart(8)} | ${String(c.quiet_ms).padStart(8)}  ${
        String(c.quiet_tmux_spawns).padStart(6)
      }  ${String(c.quiet_captures).padStart(8)}`,
    );
  }
  console.log(
    `quiet cycle at 100 panes / the tma --version run beside it, median of ${RUNS} pairs: ` +
      `${report.quiet_100_over_version} (budget 2; ratio of the medians ` +
      `${
        (quiet100.quiet_ms / quiet100.version_ms).toFixed(2)
      }, --version ${quiet100.version_ms} ms)`,
  );
  console.log(
    hook === null
      ? "hook fire: skipped (integrations/tma-hook not present)"
      : `tma-hook claude PreToolUse: ${hook} ms = ${report.hook_over_empty} x empty script (budget 2.5)`,
  );
  console.log("telemetry:", JSON.stringify(report.telemetry));
  console.log("notify:", JSON.stringify(report.notify));
  console.log(
    "surfaces (picker first frame budget 1.5x tma --version, pair by pair):",
    JSON.stringify(report.surfaces),
  );
  console.log(
    "user manifest (re2js) over bundled, status and event, pair by pair:",
    JSON.stringify(report.user_patterns),
  );
  console.log("daemon (hook budget 10 ms with a daemon; latency quiet_ms + 0.5 s; CPU under 1 %):");
  console.log(JSON.stringify(report.daemon));
  console.log(JSON.stringify(report));
}

if (import.meta.main) await main();

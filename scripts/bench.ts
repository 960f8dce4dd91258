/**
 * `deno task bench`: the figures the issues budget, each timed pair by pair
 * against its reference in the same run (scripts/bench_pairs.ts), on scratch
 * tmux servers with stand-in agents. Never a timed test.
 *
 * The references are the true floors, an empty `deno run --no-config` script
 * outside the repository and `sh -c :`, or another figure's run where the
 * budget is relative (the bundle against the module graph, a status poll
 * against `tma --version`). tma runs as users run it: installed with the
 * README's `deno install` line, or as the single-file bundle. Beside the hook
 * and status budgets stand their floors: the same outside work (the wrapper,
 * the tmux calls, `ps`) done by a few lines of Deno (scripts/bench_floors.ts).
 *
 * A figure is one entry of {@link FIGURES}: a name, its reference, its
 * subject and its budget. `TMA_BENCH_PAIRS` sets the pairs per figure (15).
 * The Codex rollout tail (scripts/bench_telemetry.ts), prompt to notify
 * command and an idle `tma wait`'s CPU (scripts/bench_notify.ts), the
 * picker's first frame and one `jump --attention` at 100 panes
 * (scripts/bench_surfaces.ts), the daemon's hook fire, draw-to-blocked
 * latency, CPU and peak memory (scripts/bench_daemon.ts), what the agent
 * waits for per hook fire and fire to stamp (scripts/bench_hooks.ts), a
 * user manifest's linear-time patterns (scripts/bench_patterns.ts), and a
 * fleet refresh over two loopback ssh hosts beside a local `tma ls --json`
 * (scripts/bench_hosts.ts) follow, each with its own reference.
 * @module
 */
import { countingTmux, type ScratchTmux, withScratchTmux } from "../tests/harness/tmux.ts";
import {
  describePair,
  emptyDeno,
  measurePairs,
  type PairResult,
  round2,
  type Run,
  shNoop,
  spread,
  timed,
} from "./bench_pairs.ts";
import { floorTmas } from "./bench_floors.ts";
import {
  bundledTma,
  hookFire,
  installReadmeTma,
  type TmaFlavor,
  tmaRun,
  wrapperOnly,
} from "./bench_subjects.ts";

const PAIRS = Number(Deno.env.get("TMA_BENCH_PAIRS") ?? "15");

/** What the figures are measured on, built once per bench run. */
interface Bench {
  empty: Run;
  sh: Run;
  installed: Flavors;
  bundled: Flavors;
  /** The same work from a few lines of Deno (scripts/bench_floors.ts). */
  floors: { fire: Run; quiet100: Run };
}

/** The runs of one way of running tma. */
interface Flavors {
  version: Run;
  fire: Run;
  /** A quiet `tma status` at 100 idle panes, each in a wall-clock second of its own (D53). */
  quiet100: Run;
}

/** One budgeted (or informative) figure: a subject over its reference. */
interface Figure {
  name: string;
  reference(bench: Bench): Run;
  subject(bench: Bench): Run;
  /** The ratio the issue allows; none for a figure shown for context. */
  budget?: number;
}

/**
 * Every figure, in report order. Add one here: its name, what it is measured
 * against, what is measured and the budget.
 */
const FIGURES: Figure[] = [
  {
    name: "floor: one process",
    reference: (b) => b.empty,
    subject: (b) => b.sh,
  },
  {
    name: "tma --version, installed",
    reference: (b) => b.empty,
    subject: (b) => b.installed.version,
  },
  {
    name: "the wrapper alone (no tma)",
    reference: (b) => b.sh,
    subject: () => wrapperOnly({ PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin" }),
  },
  {
    name: "hook fire through the installed tma (issue 14, item 2)",
    reference: (b) => b.empty,
    subject: (b) => b.installed.fire,
    budget: 1.5,
  },
  {
    name: "floor of item 2: the wrapper, Deno, and the hook's two tmux calls",
    reference: (b) => b.empty,
    subject: (b) => b.floors.fire,
  },
  {
    name: "hook fire through the installed tma over its floor",
    reference: (b) => b.floors.fire,
    subject: (b) => b.installed.fire,
  },
  {
    name: "quiet status at 100 panes over --version (item 4)",
    reference: (b) => b.installed.version,
    subject: (b) => b.installed.quiet100,
    budget: 1.5,
  },
  {
    name: "floor of item 4: Deno, and a quiet status's listing and ps at 100 panes",
    reference: (b) => b.installed.version,
    subject: (b) => b.floors.quiet100,
  },
  {
    name: "bundle --version over the module graph (item 3)",
    reference: (b) => b.installed.version,
    subject: (b) => b.bundled.version,
    budget: 1.2,
  },
  {
    name: "bundle hook fire over the module graph (item 3)",
    reference: (b) => b.installed.fire,
    subject: (b) => b.bundled.fire,
    budget: 1.2,
  },
  {
    name: "bundle quiet status at 100 panes over the module graph (item 3)",
    reference: (b) => b.installed.quiet100,
    subject: (b) => b.bundled.quiet100,
    budget: 1.2,
  },
  {
    name: "bundle hook fire over the empty script",
    reference: (b) => b.empty,
    subject: (b) => b.bundled.fire,
  },
];

/**
 * Waits for the start of the next wall-clock second, so the stampede guard
 * (D53) never skips a measured cycle.
 */
async function nextSecond(): Promise<void> {
  await new Promise((r) => setTimeout(r, 1000 - (Date.now() % 1000) + 5));
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

/** Starts `panes` idle Claude stand-ins. */
async function idleAgents(t: ScratchTmux, panes: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < panes; i++) {
    const standIn = await t.standIn("claude", { title: "✳ Claude Code" });
    await standIn.draw(IDLE_SCREEN);
    ids.push(standIn.pane);
  }
  return ids;
}

/** Runs `tma <args>` of a flavor against a scratch server and returns its stderr. */
async function tma(
  flavor: TmaFlavor,
  t: ScratchTmux,
  args: string[],
  env: Record<string, string> = {},
): Promise<string> {
  const out = await new Deno.Command(flavor.bin, {
    args: ["--socket-name", t.socketName, ...args],
    env: { ...t.env(env), PATH: `${flavor.binDir}:${t.env().PATH}` },
    clearEnv: true,
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).output();
  return new TextDecoder().decode(out.stderr);
}

function capturesOf(stderr: string): number {
  return Number(/capture (\d+),/.exec(stderr)?.[1] ?? "-1");
}

/** One row of the cycle table. */
interface CycleRow {
  panes: number;
  cycle_ms: number;
  cycle_tmux_spawns: number;
  cycle_captures: number;
  quiet_ms: number;
  quiet_tmux_spawns: number;
  quiet_captures: number;
}

/**
 * The detection cycle at `panes` idle panes: one where every pane is
 * captured (stamps' hashes removed first, D54) and a quiet one, with the
 * tmux processes each spawns and the captures it made.
 */
async function cycleRow(flavor: TmaFlavor, t: ScratchTmux, panes: number): Promise<CycleRow> {
  const counter = await countingTmux(t.dir);
  const forgetCaptures = async () => {
    for (const pane of (await t.tmux("list-panes", "-a", "-F", "#{pane_id}")).trim().split("\n")) {
      await t.tmux("set-option", "-pu", "-t", pane, "@agent_hash");
    }
  };
  const runs = Math.max(3, Math.floor(PAIRS / 3));
  const active: number[] = [];
  let activeCaptures = -1;
  for (let run = 0; run < runs; run++) {
    await forgetCaptures();
    await nextSecond();
    let stderr = "";
    active.push(
      await timed(async () => {
        stderr = await tma(flavor, t, ["--debug-timing", "status"]);
      }),
    );
    activeCaptures = capturesOf(stderr);
  }
  await forgetCaptures();
  await nextSecond();
  await tma(flavor, t, ["status"], { TMA_TMUX_BIN: counter.bin });
  const activeSpawns = await counter.count();
  await settleQuiet(flavor, t);
  const quiet: number[] = [];
  let quietCaptures = -1;
  for (let run = 0; run < runs; run++) {
    await nextSecond();
    let stderr = "";
    quiet.push(
      await timed(async () => {
        stderr = await tma(flavor, t, ["--debug-timing", "status"]);
      }),
    );
    quietCaptures = capturesOf(stderr);
  }
  await nextSecond();
  await tma(flavor, t, ["status"], { TMA_TMUX_BIN: counter.bin });
  return {
    panes,
    cycle_ms: Math.round(spread(active).median),
    cycle_tmux_spawns: activeSpawns,
    cycle_captures: activeCaptures,
    quiet_ms: Math.round(spread(quiet).median),
    quiet_tmux_spawns: await counter.count(),
    quiet_captures: quietCaptures,
  };
}

/** Lets window activity fall behind the stamps, then runs one cycle, so the next ones are quiet. */
async function settleQuiet(flavor: TmaFlavor, t: ScratchTmux): Promise<void> {
  await new Promise((r) => setTimeout(r, 1100));
  await nextSecond();
  await tma(flavor, t, ["status"]);
}

function flavors(
  flavor: TmaFlavor,
  options: { hooks: ScratchTmux; hookPane: string; status: ScratchTmux },
): Flavors {
  const { hooks, status } = options;
  return {
    version: tmaRun(flavor, "tma --version", ["--version"], { env: hooks.env() }),
    fire: hookFire(flavor, {
      env: hooks.env(),
      pane: options.hookPane,
      socketName: hooks.socketName,
    }),
    quiet100: tmaRun(flavor, "quiet tma status at 100 panes", [
      "--socket-name",
      status.socketName,
      "status",
    ], { env: status.env(), prepare: nextSecond }),
  };
}

function printCycles(rows: CycleRow[]): void {
  console.log("panes  cycle_ms  spawns  captures | quiet_ms  spawns  captures  (installed tma)");
  for (const c of rows) {
    console.log(
      `${String(c.panes).padStart(5)}  ${String(c.cycle_ms).padStart(8)}  ${
        String(c.cycle_tmux_spawns).padStart(6)
      }  ${String(c.cycle_captures).padStart(8)} | ${String(c.quiet_ms).padStart(8)}  ${
        String(c.quiet_tmux_spawns).padStart(6)
      }  ${String(c.quiet_captures).padStart(8)}`,
    );
  }
}

function figureJson(figure: Figure, result: PairResult) {
  return {
    name: figure.name,
    subject: result.subject.label,
    reference: result.reference.label,
    subject_ms: Math.round(result.subjectMs.median),
    reference_ms: Math.round(result.referenceMs.median),
    ratio: round2(result.ratio.median),
    ratio_q1: round2(result.ratio.q1),
    ratio_q3: round2(result.ratio.q3),
    pairs: result.pairs,
    budget: figure.budget ?? null,
    met: figure.budget === undefined ? null : result.ratio.median <= figure.budget,
  };
}

async function main(): Promise<void> {
  const empty = await emptyDeno();
  const installed = await installReadmeTma();
  const bundled = await bundledTma();
  const floors = await floorTmas();
  const report: Record<string, unknown> = {};
  try {
    const cycles: CycleRow[] = [];
    for (const panes of [10, 50]) {
      cycles.push(
        await withScratchTmux(async (t) => {
          await idleAgents(t, panes);
          return await cycleRow(installed, t, panes);
        }),
      );
    }
    const figures = await withScratchTmux(async (status) => {
      await idleAgents(status, 100);
      cycles.push(await cycleRow(installed, status, 100));
      await settleQuiet(installed, status);
      return await withScratchTmux(async (hooks) => {
        const [hookPane] = await idleAgents(hooks, 1);
        const options = { hooks, hookPane, status };
        const bench: Bench = {
          empty: empty.run,
          sh: shNoop(),
          installed: flavors(installed, options),
          bundled: flavors(bundled, options),
          floors: {
            fire: flavors(floors.hook, options).fire,
            quiet100: flavors(floors.status, options).quiet100,
          },
        };
        const results: [Figure, PairResult][] = [];
        for (const figure of FIGURES) {
          results.push([
            figure,
            await measurePairs(figure.reference(bench), figure.subject(bench), PAIRS),
          ]);
        }
        return results;
      });
    });
    report.cycles = cycles;
    report.figures = figures.map(([figure, result]) => figureJson(figure, result));
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
    // issue 20: what the agent waits for per fire, and fire to stamp, beside `sh -c :`.
    try {
      const { benchHooks } = await import("./bench_hooks.ts");
      report.hooks = await benchHooks(installed);
    } catch (error) {
      report.hooks = `skipped: ${(error as Error).message}`;
    }
    // issue 13 item 1: what a user manifest's linear-time patterns cost at start-up.
    try {
      const { benchPatterns } = await import("./bench_patterns.ts");
      report.user_patterns = await benchPatterns();
    } catch (error) {
      report.user_patterns = `skipped: ${(error as Error).message}`;
    }
    // issue 19: a fleet refresh over two loopback hosts of 50 panes each, beside a local ls.
    try {
      const { benchHosts } = await import("./bench_hosts.ts");
      report.hosts = await benchHosts();
    } catch (error) {
      report.hosts = `skipped: ${(error as Error).message}`;
    }
    console.log(
      `tma bench: each figure is the median of ${PAIRS} adjacent pairs' ratios ` +
        "(subject over reference, q1-q3 beside it); times are medians in ms",
    );
    printCycles(cycles);
    for (const [figure, result] of figures) {
      console.log(`- ${figure.name}\n    ${describePair(result, figure.budget)}`);
    }
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
    console.log(
      "daemon (hook budget 10 ms with a daemon; latency quiet_ms + 0.5 s; CPU under 1 %):",
      JSON.stringify(report.daemon),
    );
    if (typeof report.hooks === "object" && report.hooks !== null) {
      const hooks = report.hooks as Awaited<
        ReturnType<typeof import("./bench_hooks.ts").benchHooks>
      >;
      console.log("hooks (issue 20: the agent's wait per fire, budget 5x sh -c : when queued):");
      for (const f of hooks.figures) console.log(`- ${f.name}\n    ${f.line}`);
      console.log("  fire to stamp:", JSON.stringify(hooks.fire_to_stamp));
    } else {
      console.log("hooks:", JSON.stringify(report.hooks));
    }
    console.log(
      "hosts (fleet refresh over 2 ssh hosts x 50 panes over a local ls --json, pair by pair):",
      JSON.stringify(report.hosts),
    );
    console.log(JSON.stringify(report));
  } finally {
    await floors.dispose();
    await bundled.dispose();
    await installed.dispose();
    await empty.dispose();
  }
}

if (import.meta.main) await main();

/**
 * What the agent waits for when it fires a hook (issue 20, X10), each figure
 * timed pair by pair against `sh -c :` in the same run (scripts/bench_pairs.ts):
 *
 * - Claude `PreToolUse` and `Stop` (installed `async`: Claude does not wait
 *   at all; the wrapper's own time is shown all the same), when the fire
 *   starts the server's drainer and, for `PreToolUse`, when one already runs;
 * - Codex `PostToolUse` (queued: Codex has no async flag), starting a drainer;
 * - Claude `PermissionRequest` in the foreground, with the reply lane off
 *   (`[hooks] claude_reply_lane = false`), so it stamps and returns;
 * - the time from a fire to its stamp being visible in tmux, with a drainer
 *   to start and with one running.
 *
 * The wrapper is the repository's `integrations/tma-hook`; it finds the tma
 * the bench installed with the README's line on PATH, as an agent's hook
 * does. Budget: a fire that reads no answer costs at most 5 times `sh -c :`.
 * @module
 */
import { type ScratchTmux, withScratchTmux } from "../tests/harness/tmux.ts";
import {
  describePair,
  measurePairs,
  type PairResult,
  round2,
  type Run,
  shNoop,
  spread,
} from "./bench_pairs.ts";
import { pathWith, PRE_TOOL_USE, type TmaFlavor } from "./bench_subjects.ts";

const REPO = decodeURIComponent(new URL("../", import.meta.url).pathname);
const PAIRS = Number(Deno.env.get("TMA_BENCH_PAIRS") ?? "15");
/** The budget of a fire that reads no answer, over `sh -c :`. */
const QUEUED_BUDGET = 5;

/**
 * One fire of the repository's wrapper at a scratch server, to its exit, as
 * the agent waits for it: `tma-hook <agent> <event>` with `$TMUX_PANE`, the
 * server pinned, the payload on stdin and `env` on top (`TMA_BIN`, `PATH`).
 */
export async function fireWrapper(
  t: ScratchTmux,
  options: {
    agent: string;
    event: string;
    pane: string;
    stdin: string;
    env?: Record<string, string>;
  },
): Promise<void> {
  const child = new Deno.Command("sh", {
    args: [`${REPO}integrations/tma-hook`, options.agent, options.event],
    env: t.env({ TMUX_PANE: options.pane, TMA_HOOK_SOCKET: t.socketName, ...options.env }),
    clearEnv: true,
    stdin: "piped",
    stdout: "null",
    stderr: "null",
  }).spawn();
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode(options.stdin));
  await writer.close();
  await child.status;
}

/**
 * One fire with tma found on PATH, as an agent's hook finds the installed
 * command, and `$TMUX` naming the server, as inside the agent's pane (the
 * wrapper then derives the server's socket with no process of its own).
 */
function fireOnce(
  t: ScratchTmux,
  flavor: TmaFlavor,
  options: { agent: string; event: string; pane: string; stdin: string; tmux: string },
): Promise<void> {
  const { tmux, ...fire } = options;
  return fireWrapper(t, { ...fire, env: { PATH: pathWith(flavor, t.env()), TMUX: tmux } });
}

/** `$TMUX` as tmux sets it in the scratch server's panes: socket path, server pid, session. */
async function paneTmux(t: ScratchTmux): Promise<string> {
  return (await t.tmux("display", "-p", "-t", "main", "#{socket_path},#{pid},0")).trim();
}

/** The scratch server's drainer claim (`<key>.drain` beside its spool) and its spool. */
async function drainFiles(t: ScratchTmux): Promise<{ claim: string; spool: string }> {
  const { daemonPaths } = await import("../src/runtime/daemon_link.ts");
  const socketPath = (await t.tmux("display", "-p", "#{socket_path}")).trim();
  const env = t.env();
  const paths = daemonPaths((name) => env[name], socketPath);
  return { claim: `${paths.dir}/${paths.key}.drain`, spool: paths.spool };
}

async function exists(path: string): Promise<boolean> {
  return await Deno.stat(path).then(() => true, () => false);
}

/**
 * Ends the server's drainer (untimed), so the next fire starts one: once the
 * spool is empty, the lingering drainer is stopped and its claim removed,
 * which is what its linger ending would leave.
 */
async function noDrainer(claim: string, spool: string): Promise<void> {
  for (;;) {
    const pending = [...Deno.readDirSync(spool)].filter((e) =>
      e.name.endsWith(".ev") || e.name.endsWith(".claimed")
    );
    if (pending.length === 0) break;
    await new Promise((r) => setTimeout(r, 10));
  }
  const pid = Number((await Deno.readTextFile(claim).catch(() => "")).trim());
  if (pid > 1) {
    try {
      Deno.kill(pid, "SIGKILL");
    } catch {
      // Gone already.
    }
    while (alive(pid)) await new Promise((r) => setTimeout(r, 5));
  }
  await Deno.remove(claim).catch(() => undefined);
}

function alive(pid: number): boolean {
  try {
    Deno.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The pane's state as tmux holds it now. */
async function stateOf(t: ScratchTmux, pane: string): Promise<string> {
  return (await t.tmux("show-options", "-pqv", "-t", pane, "@agent_state")).trim();
}

const STOP = JSON.stringify({ session_id: "bench-session", hook_event_name: "Stop" });
const PROMPT = JSON.stringify({
  session_id: "bench-session",
  hook_event_name: "UserPromptSubmit",
  prompt: "go",
});
const CODEX_POST = JSON.stringify({
  session_id: "bench-codex",
  hook_event_name: "PostToolUse",
  tool_name: "shell",
  cwd: "/tmp",
});
const PERMISSION = JSON.stringify({
  session_id: "bench-session",
  hook_event_name: "PermissionRequest",
  tool_name: "Bash",
  tool_input: { command: "ls" },
});

/**
 * Seconds from a fire to its stamp: fires alternate a prompt (working) and
 * a Stop (idle), and tmux is read every few ms until the state moves.
 */
async function fireToStamp(
  t: ScratchTmux,
  flavor: TmaFlavor,
  options: {
    pane: string;
    tmux: string;
    claim: string;
    spool: string;
    fresh: boolean;
    runs: number;
  },
): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < options.runs; i++) {
    if (options.fresh) await noDrainer(options.claim, options.spool);
    const working = (await stateOf(t, options.pane)) !== "working";
    const event = working ? "UserPromptSubmit" : "Stop";
    const start = performance.now();
    await fireOnce(t, flavor, {
      agent: "claude",
      event,
      pane: options.pane,
      tmux: options.tmux,
      stdin: working ? PROMPT : STOP,
    });
    const want = working ? "working" : "idle";
    while ((await stateOf(t, options.pane)) !== want) {
      if (performance.now() - start > 10_000) throw new Error(`no ${want} stamp within 10 s`);
    }
    out.push(performance.now() - start);
    if (!options.fresh) await new Promise((r) => setTimeout(r, 50));
  }
  return out;
}

/** One figure's JSON. */
function figure(name: string, result: PairResult, budget?: number) {
  return {
    name,
    subject_ms: round2(result.subjectMs.median),
    reference_ms: round2(result.referenceMs.median),
    ratio: round2(result.ratio.median),
    ratio_q1: round2(result.ratio.q1),
    ratio_q3: round2(result.ratio.q3),
    pairs: result.pairs,
    budget: budget ?? null,
    met: budget === undefined ? null : result.ratio.median <= budget,
    line: describePair(result, budget),
  };
}

/** Issue 20's figures, with tma run as `flavor` (the README's installed command). */
export async function benchHooks(flavor: TmaFlavor) {
  return await withScratchTmux(async (t) => {
    const pane = (await t.tmux("display", "-p", "-t", "main", "#{pane_id}")).trim();
    const tmux = await paneTmux(t);
    const { claim, spool } = await drainFiles(t);
    const sh = shNoop();
    const run = (
      label: string,
      fire: Parameters<typeof fireOnce>[2],
      prepare?: () => Promise<void>,
    ): Run => ({
      label,
      prepare,
      once: () => fireOnce(t, flavor, fire),
    });
    // Registers the pane and lets the first drainer build the server's alias file.
    await fireOnce(t, flavor, {
      agent: "claude",
      event: "SessionStart",
      pane,
      tmux,
      stdin: PROMPT,
    });
    await noDrainer(claim, spool);
    const figures = [];
    const fresh = () => noDrainer(claim, spool);
    const live = async () => {
      if (await exists(claim)) return;
      await fireOnce(t, flavor, {
        agent: "claude",
        event: "PostToolUse",
        pane,
        tmux,
        stdin: PRE_TOOL_USE,
      });
    };
    // name, fire, how each run starts (no drainer, or one running).
    const queued: [string, Parameters<typeof fireOnce>[2], () => Promise<void>][] = [
      [
        "Claude PreToolUse (async: Claude does not wait; the wrapper's own time), the fire that starts the drainer",
        { agent: "claude", event: "PreToolUse", pane, tmux, stdin: PRE_TOOL_USE },
        fresh,
      ],
      [
        "Claude PreToolUse (async), a drainer already running",
        { agent: "claude", event: "PreToolUse", pane, tmux, stdin: PRE_TOOL_USE },
        live,
      ],
      [
        "Claude Stop (async), the fire that starts the drainer",
        { agent: "claude", event: "Stop", pane, tmux, stdin: STOP },
        fresh,
      ],
      [
        "Codex PostToolUse (queued), the fire that starts the drainer",
        { agent: "codex", event: "PostToolUse", pane, tmux, stdin: CODEX_POST },
        fresh,
      ],
    ];
    for (const [name, fire, prepare] of queued) {
      const label = `tma-hook ${fire.agent} ${fire.event}`;
      figures.push(
        figure(name, await measurePairs(sh, run(label, fire, prepare), PAIRS), QUEUED_BUDGET),
      );
    }
    await Deno.mkdir(`${t.home}/.config/tma`, { recursive: true });
    await Deno.writeTextFile(
      `${t.home}/.config/tma/config.toml`,
      "[hooks]\nclaude_reply_lane = false\n",
    );
    figures.push(figure(
      "Claude PermissionRequest (foreground, reply lane off)",
      await measurePairs(
        sh,
        run("tma-hook claude PermissionRequest", {
          agent: "claude",
          event: "PermissionRequest",
          pane,
          tmux,
          stdin: PERMISSION,
        }),
        PAIRS,
      ),
    ));
    await Deno.remove(`${t.home}/.config/tma/config.toml`);
    const shMs: number[] = [];
    for (let i = 0; i < 5; i++) {
      const start = performance.now();
      await sh.once();
      shMs.push(performance.now() - start);
    }
    const stampFresh = spread(
      await fireToStamp(t, flavor, { pane, tmux, claim, spool, fresh: true, runs: PAIRS }),
    );
    const stampLive = spread(
      await fireToStamp(t, flavor, { pane, tmux, claim, spool, fresh: false, runs: PAIRS }),
    );
    const shMedian = spread(shMs).median;
    return {
      figures,
      fire_to_stamp: {
        drainer_started_ms: round2(stampFresh.median),
        drainer_running_ms: round2(stampLive.median),
        sh_c_ms: round2(shMedian),
        drainer_started_over_sh: round2(stampFresh.median / shMedian),
        drainer_running_over_sh: round2(stampLive.median / shMedian),
      },
    };
  });
}

if (import.meta.main) {
  const { installReadmeTma } = await import("./bench_subjects.ts");
  const installed = await installReadmeTma();
  try {
    const report = await benchHooks(installed);
    for (const f of report.figures) console.log(`- ${f.name}\n    ${f.line}`);
    console.log("fire to stamp:", JSON.stringify(report.fire_to_stamp));
  } finally {
    await installed.dispose();
  }
}

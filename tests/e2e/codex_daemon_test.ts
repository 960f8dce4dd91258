/**
 * Codex in its default daemon mode, two panes (issue: hook attribution). By default Codex runs its
 * hooks and `notify` inside a background app-server daemon (setsid) whose `TMUX_PANE` and process
 * ancestry belong to whichever pane started it (real-agents.md, Codex "Daemon mode"). tma must
 * attribute each event by its session id / thread-id and cwd, never by the reported pane alone.
 *
 * The walk: one scratch HOME with `tma install-hooks codex --yes`; pane A starts Codex in project
 * A first (so the daemon carries A's `TMUX_PANE`), then pane B in project B. Only B gets a `slow`
 * turn. While it runs, A's `@agent_state` / `@agent_source` / `@agent_session` are read every
 * ~200 ms and the first hook stamp that belongs to B's turn fails the test; B must read `working`
 * then `idle` in `tma ls --json`. Afterwards everything is ended by pid (the daemon too) and the
 * suite's cleanup checks must find nothing left.
 *
 * Every payload tma gets is logged through a launcher in front of `TMA_BIN`, so a failure shows
 * what Codex sent. Ignored until the attribution bug named in `KNOWN_BUG` is fixed; run it with
 * `TMA_E2E_CODEX_DAEMON=1 deno task e2e` (`TMA_E2E_VERBOSE=1` prints the screens and payloads).
 */

import { type AgentDriver, type AgentRun, AGENTS, PROJECT_NAME } from "./agents.ts";
import { assert } from "../harness/assert.ts";
import {
  killRunProcesses,
  newTmpLeftovers,
  runProcesses,
  systemTmp,
  tmpLeftoversPresent,
} from "./cleanup.ts";
import { AgentPane, type DialogSeen, sleep } from "./pane.ts";
import { AGENT_PINS, agentBin } from "./pins.ts";
import { withE2eSession } from "./session.ts";
import { type LsRow, TmaCli } from "./tma_cli.ts";
import { type ScratchTmux, shellQuote } from "./tmux.ts";

const BOUND_MS = 60_000;

/**
 * Why this test would be ignored by default; empty since the fix. Seen with Codex 0.171.0: every
 * hook and notify of B's session arrives with `--pane` = A (the daemon's `TMUX_PANE`) and B's
 * `cwd`; attribution used to take the reported pane whenever it ran Codex and had no session, so
 * B's SessionStart registered B's session on idle pane A. It now trusts the reported pane only
 * when the hook ran inside it, or when the payload's folder names it alone.
 */
const KNOWN_BUG: string = "";

function installed(bin: string): boolean {
  try {
    Deno.statSync(bin);
    return true;
  } catch {
    return false;
  }
}

/** A second one-commit git project beside the driver's (`<dir>/<name>`). */
async function secondProject(run: AgentRun, name: string): Promise<string> {
  const project = `${run.dir}/${name}`;
  await Deno.mkdir(project, { recursive: true });
  await Deno.writeTextFile(`${project}/README.md`, `# ${name}\n\nThe second scratch project.\n`);
  const env = {
    GIT_CONFIG_GLOBAL: "/dev/null",
    GIT_CONFIG_NOSYSTEM: "1",
    GIT_AUTHOR_NAME: "tma e2e",
    GIT_AUTHOR_EMAIL: "e2e@example.invalid",
    GIT_COMMITTER_NAME: "tma e2e",
    GIT_COMMITTER_EMAIL: "e2e@example.invalid",
    PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
  };
  for (const args of [["init", "-q", "-b", "main"], ["add", "README.md"], ["commit", "-qm", "i"]]) {
    const out = await new Deno.Command("git", {
      args,
      cwd: project,
      env,
      clearEnv: true,
      stdout: "null",
      stderr: "piped",
    }).output();
    if (!out.success) throw new Error(`git ${args.join(" ")} in ${project} failed`);
  }
  return project;
}

/**
 * A launcher in front of the real one: appends each call's argv, `TMUX_PANE` and stdin payload
 * to `log` (one JSON line), then runs tma with the same payload.
 */
async function loggingLauncher(real: string, log: string): Promise<string> {
  const path = `${real}-logged`;
  await Deno.writeTextFile(
    path,
    `#!/bin/sh\n# tma e2e: log every hook payload, then hand it to tma.\n` +
      `payload=$(cat)\n` +
      `printf '{"argv":"%s","tmux_pane":"%s","payload":%s}\\n' "$*" "\${TMUX_PANE-}" ` +
      `"\${payload:-null}" >> ${shellQuote(log)}\n` +
      `printf '%s' "$payload" | exec ${shellQuote(real)} "$@"\n`,
  );
  await Deno.chmod(path, 0o755);
  return path;
}

/** Starts the run's shell in a new session named `name` in `cwd` and types the agent's argv. */
async function launch(
  run: AgentRun,
  options: { tmux: ScratchTmux; name: string; cwd: string },
): Promise<AgentPane> {
  const id = await options.tmux.newPane({
    name: options.name,
    width: 120,
    height: 40,
    cwd: options.cwd,
    env: run.env,
    command: run.shell,
  });
  const pane = new AgentPane(options.tmux, id);
  await pane.waitFor(/^\$ ?$/m, { timeoutMs: 10_000 });
  await options.tmux.keys(id, "C-l");
  await options.tmux.type(id, run.argv.map(shellQuote).join(" "));
  await options.tmux.keys(id, "Enter");
  return pane;
}

/** A pane's `@agent_*` options that matter here. */
interface Stamp {
  state: string;
  source: string;
  session: string;
}

async function stamp(tmux: ScratchTmux, pane: string): Promise<Stamp> {
  const read = async (name: string) =>
    (await tmux.run(["show-options", "-pqv", "-t", pane, name], true)).trim();
  return {
    state: await read("@agent_state"),
    source: await read("@agent_source"),
    session: await read("@agent_session"),
  };
}

/** Pids of the run's Codex app-server daemon(s). */
async function daemonPids(root: string): Promise<number[]> {
  const out = await new Deno.Command("ps", {
    args: ["-e", "-ww", "-o", "pid=,args="],
    stdout: "piped",
    stderr: "null",
  }).output();
  const mine = new Set(await runProcesses(root));
  return new TextDecoder().decode(out.stdout).split("\n").flatMap((line) => {
    const m = /^\s*(\d+)\s(.*)$/.exec(line);
    return m && mine.has(Number(m[1])) && /app-server/.test(m[2]) ? [Number(m[1])] : [];
  });
}

async function describeProcesses(root: string): Promise<string> {
  const out = await new Deno.Command("ps", {
    args: ["-e", "-ww", "-o", "pid=,ppid=,sid=,args="],
    stdout: "piped",
    stderr: "null",
  }).output();
  const mine = new Set(await runProcesses(root));
  return new TextDecoder().decode(out.stdout).split("\n").filter((line) =>
    mine.has(Number(line.trim().split(/\s+/)[0]))
  ).map((line) => line.slice(0, 220)).join("\n");
}

/**
 * `passFirstRun`, then a few seconds more: in daemon mode Codex drew its main screen first and
 * the trust dialog over it a moment later, after `passFirstRun` had already returned.
 */
async function passFirstRunSettled(pane: AgentPane, driver: AgentDriver): Promise<DialogSeen[]> {
  const seen = await pane.passFirstRun(driver);
  const deadline = Date.now() + 8000;
  while (Date.now() < deadline) {
    const screen = await pane.screen();
    if (driver.dialogs.some((d) => d.match.test(screen))) {
      seen.push(...(await pane.passFirstRun(driver)));
    } else {
      await sleep(500);
    }
  }
  return seen;
}

/** Whether `pid` is gone (or a zombie) within a few seconds. */
async function ended(pid: number): Promise<boolean> {
  const deadline = Date.now() + 5000;
  for (;;) {
    const out = await new Deno.Command("ps", {
      args: ["-o", "stat=", "-p", String(pid)],
      stdout: "piped",
      stderr: "null",
    }).output();
    const stat = new TextDecoder().decode(out.stdout).trim();
    if (stat === "" || stat.startsWith("Z")) return true;
    if (Date.now() >= deadline) return false;
    await sleep(200);
  }
}

/** The daemon's folder in the system temporary folder (`codex-daemon-<uid>`). */
const DAEMON_DIR = "codex-daemon-0";

/**
 * Codex 0.171.0's daemon makes `codex-daemon-0` in the system temporary folder although its
 * TMPDIR is inside the scratch root. It is removed only when this run made it (absent before),
 * it is empty, and no Codex app-server runs anywhere on the machine any more.
 */
async function removeOurDaemonDir(before: Set<string>): Promise<boolean> {
  const path = `${systemTmp()}/${DAEMON_DIR}`;
  if (before.has(DAEMON_DIR) || !tmpLeftoversPresent().has(DAEMON_DIR)) return false;
  if ([...Deno.readDirSync(path)].length > 0) return false;
  const out = await new Deno.Command("ps", {
    args: ["-e", "-ww", "-o", "args="],
    stdout: "piped",
    stderr: "null",
  }).output();
  if (/codex app-server/.test(new TextDecoder().decode(out.stdout))) return false;
  await Deno.remove(path);
  return true;
}

/** Polls for the run's daemon for at most `timeoutMs`; its pids, or none. */
async function waitForDaemon(root: string, timeoutMs: number): Promise<number[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const pids = await daemonPids(root);
    if (pids.length > 0 || Date.now() >= deadline) return pids;
    await sleep(500);
  }
}

function readLog(path: string): string {
  try {
    return Deno.readTextFileSync(path);
  } catch {
    return "(none)";
  }
}

Deno.test({
  name: `e2e: codex ${AGENT_PINS.codex.version} daemon mode, two panes: ` +
    `B's hooks never stamp A`,
  // Opt in with TMA_E2E_CODEX_DAEMON=1 until the attribution bug below is fixed.
  ignore: !installed(agentBin("codex")) ||
    (KNOWN_BUG !== "" && Deno.env.get("TMA_E2E_CODEX_DAEMON") !== "1"),
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const log = (line: string) => console.log(`  [codex/daemon] ${line}`);
    const before = tmpLeftoversPresent();
    let rootSeen = "";
    let daemons: number[] = [];
    const failures: string[] = [];
    await withE2eSession(async ({ root, mock, tmux }) => {
      rootSeen = root;
      const driver = AGENTS.codex;
      const run = await driver.prepare({ root, mockUrl: mock.url, tag: "daemon" });
      // The default daemon mode is the point of this test.
      run.argv = run.argv.filter((word) => word !== "--no-daemon");
      const projectB = await secondProject(run, `${PROJECT_NAME}-b`);
      const tma = await TmaCli.create({
        dir: run.dir,
        home: run.home,
        socket: tmux.socket,
        extraEnv: { TMPDIR: `${run.dir}/tmp`, CODEX_HOME: run.env.CODEX_HOME },
      });
      const installedHooks = await tma.run(["install-hooks", "codex", "--yes"]);
      assert(installedHooks.code === 0, `install-hooks: ${installedHooks.stderr}`);
      const payloadLog = `${run.dir}/payloads.jsonl`;
      Object.assign(run.env, {
        TMA_BIN: await loggingLauncher(tma.bin, payloadLog),
        TMA_HOOK_SOCKET: tma.env.TMA_HOOK_SOCKET,
        TMA_DEBUG_LOG: `${run.dir}/tma_debug.log`,
        XDG_CONFIG_HOME: tma.env.XDG_CONFIG_HOME,
        XDG_STATE_HOME: tma.env.XDG_STATE_HOME,
        DENO_DIR: tma.env.DENO_DIR,
      });

      // A first: the daemon it starts carries A's TMUX_PANE and ancestry.
      const a = await launch(run, { tmux, name: "codex-a", cwd: run.project });
      const seenA = await passFirstRunSettled(a, driver);
      daemons = await waitForDaemon(root, 15_000);
      log(
        `pane A ${a.id}: dialogs ${seenA.map((d) => d.name).join(",") || "none"}; ` +
          `daemon pid(s) ${daemons.join(" ") || "none"}`,
      );
      const b = await launch(run, { tmux, name: "codex-b", cwd: projectB });
      const seenB = await passFirstRunSettled(b, driver);
      daemons = [...new Set([...daemons, ...(await daemonPids(root))])];
      log(
        `pane B ${b.id}: dialogs ${seenB.map((d) => d.name).join(",") || "none"}; ` +
          `daemon pid(s) ${daemons.join(" ") || "none"}`,
      );
      if (Deno.env.get("TMA_E2E_VERBOSE")) {
        log(`screen A:\n${await a.screen()}\nscreen B:\n${await b.screen()}`);
        log(`processes:\n${await describeProcesses(root)}`);
      }
      assert(daemons.length > 0, "no Codex app-server daemon runs: is daemon mode the default?");

      log(`new in system tmp before B's turn: ${newTmpLeftovers(before).join(",") || "none"}`);
      const startA = await stamp(tmux, a.id);
      log(`A before B's turn: ${JSON.stringify(startA)}`);

      // B's slow turn; A is polled throughout and must never carry B's hook stamps.
      const wrong: string[] = [];
      const historyA: string[] = [];
      let bWorking: LsRow | undefined;
      let bIdle: LsRow | undefined;
      const stop = new AbortController();
      const watchA = (async () => {
        // The first wrong stamp fails the test; the rest of A's stamps are kept for the report.
        while (!stop.signal.aborted) {
          const s = await stamp(tmux, a.id);
          const foreignSession = s.session !== "" && s.session !== startA.session;
          if (s.source === "hook" && s.state === "working") {
            wrong.push(`A claimed working by hook: ${JSON.stringify(s)}`);
          } else if (foreignSession) {
            wrong.push(`A's @agent_session changed during B's turn: ${JSON.stringify(s)}`);
          }
          const line = JSON.stringify(s);
          if (historyA.at(-1) !== line) historyA.push(line);
          await sleep(200);
        }
      })();
      try {
        await b.sendPrompt("say something slow please", { mock });
        const working = await tma.pollRow(b.id, (r) => r?.state === "working", {
          timeoutMs: BOUND_MS,
        });
        bWorking = working.row;
        const sourceB = await stamp(tmux, b.id);
        log(`B working: ${working.ok} ${JSON.stringify(sourceB)}`);
        const idle = await tma.pollRow(b.id, (r) => r?.state === "idle", { timeoutMs: BOUND_MS });
        bIdle = idle.row;
        // Let the turn's late events (Stop, notify, the title thread's notify) land on A too.
        await b.waitFor(/Done|slow|\(mock\)/i, { timeoutMs: 5000 }).catch(() => {});
        await sleep(3000);
      } finally {
        stop.abort();
        await watchA;
      }
      const endA = await stamp(tmux, a.id);
      const endB = await stamp(tmux, b.id);
      log(`A after: ${JSON.stringify(endA)}; B after: ${JSON.stringify(endB)}`);
      const rowA = await tma.row(a.id);
      log(`tma ls A: state=${rowA?.state} detail=${rowA?.detail}`);
      const payloads = readLog(payloadLog);
      const debug = readLog(`${run.dir}/tma_debug.log`);
      const context = `\npayloads:\n${payloads}\ndebug log:\n${debug}`;
      if (Deno.env.get("TMA_E2E_VERBOSE")) console.log(context);

      // Collected, not thrown, so the cleanup below is always observed.
      const expect = (ok: boolean, message: string) => {
        if (!ok) failures.push(message);
      };
      expect(
        payloads.includes('"payload"'),
        "no hook payload reached tma: Codex did not run its hooks in daemon mode",
      );
      expect(
        wrong.length === 0,
        `first wrong stamp: ${wrong[0]}\nA's stamps during B's turn:\n  ${historyA.join("\n  ")}`,
      );
      expect(
        endA.session === "" || endA.session !== endB.session,
        `A and B share @agent_session ${endA.session}`,
      );
      expect(rowA?.state !== "working", `tma ls says A is working: ${JSON.stringify(rowA)}`);
      expect(bWorking?.state === "working", `B never read working: ${JSON.stringify(bWorking)}`);
      expect(bIdle?.state === "idle", `B never read idle after: ${JSON.stringify(bIdle)}`);
      expect(endB.source === "hook", `B's state is not from hooks: ${JSON.stringify(endB)}`);
      if (failures.length > 0) failures.push(context);

      // Everything ends by pid: the tmux server first, then the daemon (setsid, outlives tmux).
      await tmux.kill();
      const alive = daemons.filter((pid) => {
        try {
          Deno.kill(pid, "SIGCONT");
          return true;
        } catch {
          return false;
        }
      });
      log(
        `daemon(s) alive after kill-server: ${alive.join(" ") || "none"}; ` +
          `new in system tmp: ${newTmpLeftovers(before).join(",") || "none"}`,
      );
      const ended = await killRunProcesses(root);
      log(
        `ended by pid: ${ended.join(" ") || "none"}; ` +
          `new in system tmp: ${newTmpLeftovers(before).join(",") || "none"}; ` +
          `run tmp: ${[...Deno.readDirSync(`${run.dir}/tmp`)].map((e) => e.name).join(",")}`,
      );
      const left = await runProcesses(root);
      assert(left.length === 0, `processes of the run still alive: ${left.join(" ")}`);
    }, { log });
    // After the session's own cleanup: nothing of the run, nothing new in the shared tmp.
    assert((await runProcesses(rootSeen)).length === 0, "a process of the run outlived cleanup");
    for (const pid of daemons) assert(await ended(pid), `Codex daemon ${pid} still runs`);
    const removed = await removeOurDaemonDir(before);
    if (removed) log(`removed the empty ${systemTmp()}/${DAEMON_DIR} this run's daemon made`);
    const appeared = newTmpLeftovers(before);
    assert(appeared.length === 0, `left in the system temporary folder: ${appeared.join(", ")}`);
    assert(failures.length === 0, failures.join("\n"));
  },
});

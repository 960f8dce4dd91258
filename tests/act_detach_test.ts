/**
 * Detached exec (A23, A24, C9, C103, P70): `tma act` on a `detach = true`
 * action returns `spawned` at once and leaves the run to `tma supervise`,
 * which holds the pane's lock under its own pid, outlives `act`, kills its
 * child's whole process group at `detach_timeout_ms`, releases the lock and
 * fires the completion notification once. Every test runs the real CLI on
 * a scratch server.
 */
import { assert, assertEquals, assertMatch } from "./harness/assert.ts";
import { eventually } from "./harness/daemon.ts";
import { runProcess } from "./harness/process.ts";
import { recorder, screen } from "./harness/recorder.ts";
import { runTma, type ScratchTmux, tmuxTest } from "./harness/tmux.ts";
import { attachClient, HAS_SCRIPT } from "./harness/client.ts";
import { fire } from "../src/actions/broker.ts";
import { acquireLock, parseLock } from "../src/actions/lock.ts";
import { supervise } from "../src/actions/supervise.ts";
import { defaultConfig } from "../src/core/config/schema.ts";
import type { CompletionPayload } from "../src/core/action/completion.ts";
import { parseActionManifest } from "../src/core/manifest/parse.ts";
import { COMPLETION_KEYS } from "../src/core/action/completion.ts";
import { brokerEnv } from "./harness/act.ts";

/** Writes a detached exec action into the scratch user's actions folder. */
async function detachedAction(t: ScratchTmux, name: string, lines: string[]): Promise<void> {
  const dir = `${t.home}/.config/tma/actions`;
  await Deno.mkdir(dir, { recursive: true });
  await Deno.writeTextFile(
    `${dir}/${name}.toml`,
    [
      'min_engine_version = "0.1.0"',
      `name = "${name}"`,
      `label = "${name}"`,
      'kind = "exec"',
      "detach = true",
      ...lines,
    ].join("\n"),
  );
}

async function idleClaude(t: ScratchTmux) {
  const s = screen("claude_idle_fresh_w120");
  const r = await recorder(t, "claude", { height: s.height });
  await r.draw(s);
  return r;
}

/** The lock of a pane, parsed (null when free). */
async function lockOf(t: ScratchTmux, pane: string) {
  return parseLock(await t.option(pane, "@agent_action"));
}

function alive(pid: number): boolean {
  try {
    Deno.kill(pid, "SIGCONT");
    return true;
  } catch {
    return false;
  }
}

/** The pids in a process group, from one `ps`. */
async function groupMembers(pgid: number): Promise<number[]> {
  const ps = await runProcess("ps", {
    args: ["-eo", "pid=,pgid="],
    env: { PATH: "/usr/bin:/bin" },
  });
  return ps.stdout.split("\n").map((l) => l.trim().split(/\s+/).map(Number))
    .filter(([pid, group]) => group === pgid && pid > 0).map(([pid]) => pid);
}

/** One `ps` field of a process. */
async function psField(pid: number, field: string): Promise<string> {
  const ps = await runProcess("ps", {
    args: ["-o", `${field}=`, "-p", String(pid)],
    env: { PATH: "/usr/bin:/bin" },
  });
  return ps.stdout.trim();
}

async function readJsonLines(path: string): Promise<Record<string, unknown>[]> {
  const text = await Deno.readTextFile(path).catch(() => "");
  return text.split("\n").filter((l) => l !== "").map((l) => JSON.parse(l));
}

function killQuietly(pid: number): void {
  try {
    Deno.kill(pid, "SIGKILL");
  } catch {
    // Gone.
  }
}

tmuxTest(
  "tma act A23, C103, C9, P70: a detach action is spawned; the supervisor (own session, null stdio, forwarded flags) holds the lock past act, then releases it and notifies once",
  async (t) => {
    const r = await idleClaude(t);
    const d = t.dir;
    await detachedAction(t, "bg", [
      "command = '''",
      `echo "$TMA_ARG" > '${d}/arg'`,
      `while [ ! -e '${d}/go' ]; do sleep 0.05; done`,
      "exit 3",
      "'''",
    ]);
    // The flag's config, not TMA_CONFIG's, must reach the supervisor (C9).
    const config = `${d}/other.toml`;
    await Deno.writeTextFile(
      config,
      [
        "[notify]",
        `log = "${d}/completions.jsonl"`,
        `command = "cat > '${d}/payload.json'; env > '${d}/env.txt'"`,
      ].join("\n"),
    );
    await Deno.mkdir(`${t.home}/.config/tma`, { recursive: true });
    await Deno.writeTextFile(
      `${t.home}/.config/tma/config.toml`,
      `[notify]\nlog = "${d}/wrong.jsonl"\n`,
    );
    const started = Date.now();
    const act = await runTma(t, [
      "--config",
      config,
      "act",
      "bg",
      "--pane",
      r.pane,
      "--arg",
      "hello",
      "--json",
    ]);
    const tookMs = Date.now() - started;
    assertEquals(act.code, 0, act.stderr);
    assertEquals(JSON.parse(act.stdout), {
      schema: 1,
      action: "bg",
      pane: r.pane,
      outcome: "spawned",
      exit_code: 0,
      reason: null,
    });
    let supervisor = 0;
    try {
      // act has exited; the supervisor rewrote the lock with its own pid.
      assert(
        await eventually(async () => {
          const lock = await lockOf(t, r.pane);
          if (lock === null || !alive(lock.pid)) return false;
          supervisor = lock.pid;
          return (await psField(lock.pid, "args")).includes("supervise");
        }, 10_000),
        `no supervisor holds the lock (act took ${tookMs} ms)`,
      );
      assertEquals((await lockOf(t, r.pane))!.name, "bg");
      assertEquals(await psField(supervisor, "sid"), String(supervisor), "a session of its own");
      const fds = await runProcess("readlink", {
        args: [0, 1, 2].map((fd) => `/proc/${supervisor}/fd/${fd}`),
        env: { PATH: "/usr/bin:/bin" },
      });
      assertEquals(fds.stdout, "/dev/null\n".repeat(3), "null stdio");
      const argv = (await runProcess("cat", {
        args: [`/proc/${supervisor}/cmdline`],
        env: { PATH: "/usr/bin:/bin" },
      })).stdout.split("\0");
      const socketPath = (await t.tmux("display", "-p", "#{socket_path}")).trim();
      assertEquals(argv[argv.indexOf("--socket-path") + 1], socketPath);
      assertEquals(argv[argv.indexOf("--config") + 1], config);
      assert(
        await eventually(() =>
          Promise.resolve(
            Deno.readTextFile(`${d}/arg`).then(
              (text) => text === "hello\n",
              () => false,
            ),
          ), 5000),
        "the command runs with its TMA_* context",
      );
      // While it runs, the pane is busy for every other action.
      const second = await runTma(t, ["--config", config, "act", "bg", "--pane", r.pane]);
      assertEquals(second.code, 5, second.stderr);
      assertMatch(second.stderr, /locked/);
      await Deno.writeTextFile(`${d}/go`, "");
      assert(
        await eventually(async () => (await lockOf(t, r.pane)) === null, 10_000),
        "the lock is released",
      );
      assert(await eventually(() => Promise.resolve(!alive(supervisor)), 5000), "it exits");
      assert(
        await eventually(
          async () => (await readJsonLines(`${d}/completions.jsonl`)).length > 0,
          5000,
        ),
        "the completion is logged",
      );
      const lines = await readJsonLines(`${d}/completions.jsonl`);
      assertEquals(lines.length, 1, "one completion per spawn");
      const { at, ...line } = lines[0];
      assert(typeof at === "number" && at >= started, "the log line carries its fire time");
      assertEquals(Object.keys(lines[0]), ["schema", "at", ...COMPLETION_KEYS.slice(1, -1)]);
      assertEquals(line, {
        schema: 1,
        action: "bg",
        pane: r.pane,
        agent: "claude",
        outcome: "exited",
        exit_code: 3,
        locator: "main:1.0",
      });
      assertEquals(await Deno.readTextFile(`${d}/wrong.jsonl`).catch(() => null), null);
      assert(
        await eventually(
          () => Promise.resolve(Deno.readTextFile(`${d}/env.txt`).then(() => true, () => false)),
          5000,
        ),
        "the notify command ran",
      );
      await new Promise((resolve) => setTimeout(resolve, 200));
      assertEquals(
        JSON.parse(await Deno.readTextFile(`${d}/payload.json`)),
        { ...line, schema: 1 },
      );
      const env = Object.fromEntries(
        (await Deno.readTextFile(`${d}/env.txt`)).split("\n").filter((l) => l.startsWith("TMA_"))
          .map((l) => [l.slice(0, l.indexOf("=")), l.slice(l.indexOf("=") + 1)]),
      );
      assertEquals(env.TMA_ACTION, "bg");
      assertEquals(env.TMA_PANE, r.pane);
      assertEquals(env.TMA_AGENT, "claude");
      assertEquals(env.TMA_OUTCOME, "exited");
      assertEquals(env.TMA_EXIT_CODE, "3");
      assertEquals(env.TMA_LOCATOR, "main:1.0");
      for (const leaked of ["TMA_SUPERVISE", "TMA_STATE", "TMA_ARG", "TMA_ARG_1"]) {
        assertEquals(env[leaked], undefined, `${leaked} reaches the notify command`);
      }
      // The audit log has the spawn, then the refusal while it ran.
      const log = await runTma(t, ["act", "--log", "--json"]);
      const entries: { outcome: string }[] = JSON.parse(log.stdout).entries;
      assertEquals(entries.map((e) => e.outcome), ["spawned", "refused"]);
    } finally {
      if (supervisor) killQuietly(supervisor);
    }
  },
);

tmuxTest(
  "tma supervise A23, M40, A24: at detach_timeout_ms the whole group dies (a member ignoring SIGTERM too); timeout, exit_code null; a failing command is recorded for doctor",
  async (t) => {
    const r = await idleClaude(t);
    const d = t.dir;
    await detachedAction(t, "slow", [
      "detach_timeout_ms = 1500",
      "command = '''",
      `echo $$ > '${d}/pgid'`,
      "sleep 300 &",
      `(trap '' TERM; sleep 300) &`,
      "wait",
      "'''",
    ]);
    await Deno.mkdir(`${t.home}/.config/tma`, { recursive: true });
    await Deno.writeTextFile(
      `${t.home}/.config/tma/config.toml`,
      `[notify]\nlog = "${d}/completions.jsonl"\ncommand = "exit 7"\n`,
    );
    const client = await attachClient(t, "main");
    let pgid = 0;
    try {
      await t.tmux("select-window", "-t", r.pane);
      const act = await runTma(t, ["act", "slow", "--pane", r.pane]);
      assertEquals(act.code, 0, act.stderr);
      assertMatch(act.stdout, /slow at %\d+ \(claude\): spawned/);
      assert(
        await eventually(async () => {
          pgid = Number(await Deno.readTextFile(`${d}/pgid`).catch(() => "0"));
          return pgid > 0 && (await groupMembers(pgid)).length >= 3;
        }, 10_000),
        "the child and its two sleeps run in one group",
      );
      // The deadline is wall-clock: 1.5 s, then a 1 s grace for the member that ignores SIGTERM.
      assert(
        await eventually(async () => (await groupMembers(pgid)).length === 0, 10_000),
        `the group outlived its deadline: ${await groupMembers(pgid)}`,
      );
      assert(await eventually(async () => (await lockOf(t, r.pane)) === null, 5000));
      assert(
        await eventually(
          async () => (await readJsonLines(`${d}/completions.jsonl`)).length > 0,
          5000,
        ),
      );
      const [line] = await readJsonLines(`${d}/completions.jsonl`);
      assertEquals([line.outcome, line.exit_code, line.action], ["timeout", null, "slow"]);
      const message = "tma: slow at main:1.0 (claude) timed out and was killed";
      assert(
        await eventually(() => Promise.resolve(client.drawn().includes(message)), 5000),
        `no status message: ${JSON.stringify(client.drawn().slice(-400))}`,
      );
      // A24: the failing notify command updates doctor's failure record.
      const record = `${t.home}/.local/state/tma/notify-failure.json`;
      assert(
        await eventually(
          () => Promise.resolve(Deno.readTextFile(record).then(() => true, () => false)),
          5000,
        ),
        "no failure record",
      );
      const failure = JSON.parse(await Deno.readTextFile(record));
      assertEquals([failure.trigger, failure.pane, failure.exit_code], ["completion", r.pane, 7]);
      const doctor = await runTma(t, ["doctor", "--json"]);
      assertMatch(JSON.parse(doctor.stdout).notify.last_failure, /"exit 7" \(completion/);
    } finally {
      await client.close();
      if (pgid > 0) { for (const pid of await groupMembers(pgid)) killQuietly(pid); }
    }
  },
  { ignore: !HAS_SCRIPT },
);

tmuxTest(
  "fire() A23: a supervisor that cannot start is an error, and the lock is cleared before fire returns",
  async (t) => {
    const r = await idleClaude(t);
    const action = parseActionManifest(
      [
        'min_engine_version = "0.1.0"',
        'name = "bg"',
        'label = "bg"',
        'kind = "exec"',
        "detach = true",
        `command = "touch '${t.dir}/ran'"`,
      ].join("\n"),
      { path: "bg.toml", stem: "bg" },
    );
    const env = { ...brokerEnv(t), tma: [`${t.dir}/no-such-tma`] };
    const report = await fire(env, { action, pane: r.pane });
    assertEquals([report.result.outcome, report.result.exit_code], ["error", 1]);
    assertMatch(report.message ?? "", /could not start the supervisor/);
    assertEquals(await t.option(r.pane, "@agent_action"), "");
    await new Promise((resolve) => setTimeout(resolve, 300));
    assertEquals(await Deno.stat(`${t.dir}/ran`).catch(() => null), null, "nothing ran");
  },
);

tmuxTest(
  "tma act --dry-run A36: a detached exec says it would run under the supervisor, and fireability lists it",
  async (t) => {
    const r = await idleClaude(t);
    await detachedAction(t, "bg", ["detach_timeout_ms = 60000", 'command = "true"']);
    const dry = await runTma(t, ["act", "bg", "--pane", r.pane, "--dry-run"]);
    assertEquals(dry.code, 0, dry.stderr);
    assertMatch(dry.stdout, /detached, under tma supervise; killed after 60000 ms/);
    const list = JSON.parse(
      (await runTma(t, ["act", "--list", "--pane", r.pane, "--json"])).stdout,
    );
    const bg = list.actions.find((a: { name: string }) => a.name === "bg");
    assertEquals([bg.fireable, bg.reason], [true, null]);
  },
);

tmuxTest(
  "tma supervise P70: a pane closed under a running detached action gives a null locator and no release failure",
  async (t) => {
    const r = await idleClaude(t);
    const d = t.dir;
    // A second window keeps the session (and the server) alive when the pane closes.
    await t.newWindow(["sleep", "300"]);
    await detachedAction(t, "bg", [
      `command = "while [ ! -e '${d}/go' ]; do sleep 0.05; done"`,
    ]);
    await Deno.mkdir(`${t.home}/.config/tma`, { recursive: true });
    await Deno.writeTextFile(
      `${t.home}/.config/tma/config.toml`,
      `[notify]\nlog = "${d}/completions.jsonl"\n`,
    );
    const act = await runTma(t, ["act", "bg", "--pane", r.pane]);
    assertEquals(act.code, 0, act.stderr);
    let supervisor = 0;
    try {
      assert(
        await eventually(async () => {
          const lock = await lockOf(t, r.pane);
          supervisor = lock?.pid ?? 0;
          return supervisor > 0 && (await psField(supervisor, "args")).includes("supervise");
        }, 10_000),
      );
      await t.tmux("kill-pane", "-t", r.pane);
      await Deno.writeTextFile(`${d}/go`, "");
      assert(
        await eventually(
          async () => (await readJsonLines(`${d}/completions.jsonl`)).length > 0,
          10_000,
        ),
      );
      const [line] = await readJsonLines(`${d}/completions.jsonl`);
      assertEquals([line.outcome, line.exit_code, line.locator], ["exited", 0, null]);
      assertEquals("lock_release_failed" in line, false);
    } finally {
      if (supervisor) killQuietly(supervisor);
    }
  },
);

tmuxTest(
  "supervise() A23, M40: the deadline is wall-clock time: a clock that jumps ahead (a suspend) ends the run at once",
  async (t) => {
    const r = await idleClaude(t);
    const lock = await acquireLock(t.server, {
      pane: r.pane,
      name: "bg",
      timeoutMs: 60_000,
      nowMs: Date.now(),
    });
    assert(lock.held);
    let jump = 0;
    const clock = () => Date.now() + jump;
    const timer = setTimeout(() => jump = 120_000, 400);
    const notified: CompletionPayload[] = [];
    const started = performance.now();
    const running = supervise({
      action: "bg",
      pane: r.pane,
      agent: "claude",
      nonce: lock.value.nonce,
      command: "sleep 30",
      timeout_ms: 60_000,
      context: {},
    }, {
      server: t.server,
      config: defaultConfig(),
      env: (name) => Deno.env.get(name),
      now: clock,
      notify: (payload) => Promise.resolve(void notified.push(payload)),
    });
    // The supervisor adopted the lock under its own pid (here, this process).
    assert(await eventually(async () => (await lockOf(t, r.pane))?.pid === Deno.pid, 3000));
    const payload = await running;
    clearTimeout(timer);
    const took = performance.now() - started;
    assertEquals([payload.outcome, payload.exit_code, payload.locator], [
      "timeout",
      null,
      "main:1.0",
    ]);
    assert(took < 5000, `a 60 s deadline ended ${took} ms after a 120 s clock jump`);
    assertEquals(notified, [payload], "one completion");
    assertEquals(await t.option(r.pane, "@agent_action"), "");
  },
);

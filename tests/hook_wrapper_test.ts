/**
 * The `tma-hook` wrapper's frozen contract (C104, R10, G34, I1), checked
 * with a fake `tma` that records how it was called: binary resolution at
 * each fire, the payload on stdin or from the third argument, the socket
 * pin, stdout and stderr discarded except Claude's decision object, and an
 * exit status of 0 whatever happens. The foreground path (Claude's
 * `PermissionRequest`, the statusline, `TMA_HOOK_FOREGROUND=1`) runs `tma
 * event`; every other event is queued in the server's spool and handed to
 * one detached drainer (X10), whose own tests are in `hook_queue_test.ts`.
 * Every run gets a scratch `XDG_RUNTIME_DIR`.
 * @module
 */
import { assert, assertEquals } from "./harness/assert.ts";
import { serverKey } from "../src/core/daemon_wire.ts";
import { WRAPPER } from "./harness/hook.ts";
import { type Ran, runProcess } from "./harness/process.ts";

/** A scratch folder for one test, always removed. */
async function withDir(fn: (dir: string) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "tma-hook-test-" });
  try {
    await fn(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/** Writes a fake `tma` that logs its argv, stdin and name, then makes noise and fails. */
async function fakeTma(path: string, options: { stdout?: string } = {}): Promise<string> {
  await Deno.mkdir(path.slice(0, path.lastIndexOf("/")), { recursive: true });
  await Deno.writeTextFile(
    path,
    [
      "#!/bin/sh",
      '{ printf "name=%s\\n" "$0"; printf "argv="; for a in "$@"; do printf "[%s]" "$a"; done; printf "\\n";',
      '  printf "stdin="; cat; printf "\\n"; } >> "$FAKE_LOG"',
      `printf '%s' '${options.stdout ?? "noise on stdout"}'`,
      'echo "noise on stderr" >&2',
      "exit 3",
      "",
    ].join("\n"),
  );
  await Deno.chmod(path, 0o755);
  return path;
}

/**
 * Runs the wrapper in the foreground mode (`TMA_HOOK_FOREGROUND=1`), with a
 * scratch runtime folder of its own, removed afterwards.
 */
async function run(
  wrapper: string,
  options: { args: string[]; env: Record<string, string>; stdin?: string },
): Promise<Ran> {
  const runtime = await Deno.makeTempDir({ prefix: "tma-hook-run-" });
  try {
    return await runProcess(wrapper, {
      args: options.args,
      env: {
        PATH: "/usr/bin:/bin",
        XDG_RUNTIME_DIR: runtime,
        TMA_HOOK_FOREGROUND: "1",
        ...options.env,
      },
      stdin: options.stdin ?? "",
    });
  } finally {
    await Deno.remove(runtime, { recursive: true });
  }
}

async function readLog(path: string): Promise<string> {
  return await Deno.readTextFile(path).catch(() => "");
}

Deno.test("tma-hook C104: the payload on stdin reaches tma event with the pane; output is discarded", async () => {
  await withDir(async (dir) => {
    const log = `${dir}/log`;
    const bin = await fakeTma(`${dir}/bin/tma`);
    const out = await run(WRAPPER, {
      args: ["gemini", "AfterAgent"],
      env: { TMA_BIN: bin, FAKE_LOG: log, TMUX_PANE: "%7" },
      stdin: '{"session_id":"s"}',
    });
    assertEquals(out, { code: 0, stdout: "", stderr: "" });
    assertEquals(
      await readLog(log),
      `name=${bin}\nargv=[event][--agent][gemini][--kind][AfterAgent][--pane][%7][--payload][-]\n` +
        'stdin={"session_id":"s"}\n',
    );
  });
});

Deno.test("tma-hook C104: a third argument (Codex notify) is handed over on stdin", async () => {
  await withDir(async (dir) => {
    const log = `${dir}/log`;
    const bin = await fakeTma(`${dir}/bin/tma`);
    const payload =
      '{"type":"agent-turn-complete","thread-id":"t","input-messages":["a b","it\'s"]}';
    const out = await run(WRAPPER, {
      args: ["codex", "notify", payload],
      env: { TMA_BIN: bin, FAKE_LOG: log, TMUX_PANE: "%1" },
    });
    assertEquals(out, { code: 0, stdout: "", stderr: "" });
    const text = await readLog(log);
    assertEquals(
      text.split("\n")[1],
      "argv=[event][--agent][codex][--kind][notify][--pane][%1][--payload][-]",
    );
    assertEquals(text.split("\n")[2], `stdin=${payload}`);
  });
});

Deno.test("tma-hook G34: TMA_HOOK_SOCKET pins the server by -L name", async () => {
  await withDir(async (dir) => {
    const log = `${dir}/log`;
    const bin = await fakeTma(`${dir}/bin/tma`);
    await run(WRAPPER, {
      args: ["pi", "agent_settled"],
      env: { TMA_BIN: bin, FAKE_LOG: log, TMA_HOOK_SOCKET: "work" },
    });
    assertEquals(
      (await readLog(log)).split("\n")[1],
      "argv=[--socket-name][work][event][--agent][pi][--kind][agent_settled][--pane][][--payload][-]",
    );
  });
});

Deno.test("tma-hook C104, A25: Claude's PermissionRequest stdout passes through unchanged; stderr never", async () => {
  await withDir(async (dir) => {
    const decision =
      '{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow"}}}';
    const bin = await fakeTma(`${dir}/bin/tma`, { stdout: decision });
    const env = { TMA_BIN: bin, FAKE_LOG: `${dir}/log` };
    const out = await run(WRAPPER, { args: ["claude", "PermissionRequest"], env, stdin: "{}" });
    assertEquals(out, { code: 0, stdout: decision, stderr: "" });
    // Any other event of Claude's, or another agent's PermissionRequest, stays quiet.
    for (const args of [["claude", "Stop"], ["codex", "PermissionRequest"]]) {
      assertEquals(await run(WRAPPER, { args, env, stdin: "{}" }), {
        code: 0,
        stdout: "",
        stderr: "",
      });
    }
  });
});

Deno.test("tma-hook C104: the binary is TMA_BIN, then a tma beside the wrapper, then tma on PATH", async () => {
  await withDir(async (dir) => {
    const log = `${dir}/log`;
    const wrapper = `${dir}/install/tma-hook`;
    await Deno.mkdir(`${dir}/install`);
    await Deno.copyFile(WRAPPER, wrapper);
    await Deno.chmod(wrapper, 0o755);
    const explicit = await fakeTma(`${dir}/explicit/tma`);
    const beside = await fakeTma(`${dir}/install/tma`);
    const onPath = await fakeTma(`${dir}/path/tma`);
    const env = { FAKE_LOG: log, PATH: `${dir}/path:/usr/bin:/bin` };
    const used = async (extra: Record<string, string>, via = wrapper) => {
      await Deno.remove(log).catch(() => undefined);
      assertEquals(await run(via, { args: ["pi", "session_start"], env: { ...env, ...extra } }), {
        code: 0,
        stdout: "",
        stderr: "",
      });
      return (await readLog(log)).split("\n")[0].slice("name=".length);
    };
    assertEquals(await used({ TMA_BIN: explicit }), explicit);
    // A TMA_BIN that is gone falls through to the next place.
    assertEquals(await used({ TMA_BIN: `${dir}/gone/tma` }), beside);
    assertEquals(await used({}), beside);
    // A symlinked wrapper finds the tma beside its real file.
    await Deno.mkdir(`${dir}/links`);
    await Deno.symlink(wrapper, `${dir}/links/tma-hook`);
    assertEquals(await used({}, `${dir}/links/tma-hook`), beside);
    // Relative links are resolved against the link's own folder, hop by hop.
    await Deno.mkdir(`${dir}/rel/deeper`, { recursive: true });
    await Deno.symlink("../install/tma-hook", `${dir}/rel/tma-hook`);
    await Deno.symlink("../tma-hook", `${dir}/rel/deeper/tma-hook`);
    assertEquals(await Deno.realPath(await used({}, `${dir}/rel/deeper/tma-hook`)), beside);
    await Deno.remove(beside);
    assertEquals(await used({}), onPath);
  });
});

Deno.test("tma-hook C104, R10: no binary anywhere, or no arguments, is a silent exit 0", async () => {
  await withDir(async (dir) => {
    const wrapper = `${dir}/tma-hook`;
    await Deno.copyFile(WRAPPER, wrapper);
    await Deno.chmod(wrapper, 0o755);
    const env = { PATH: `${dir}/empty:/usr/bin:/bin`, TMA_BIN: `${dir}/missing` };
    assertEquals(await run(wrapper, { args: ["claude", "PermissionRequest"], env, stdin: "{}" }), {
      code: 0,
      stdout: "",
      stderr: "",
    });
    assertEquals(await run(wrapper, { args: [], env }), { code: 0, stdout: "", stderr: "" });
    assertEquals(await run(wrapper, { args: ["claude"], env }), {
      code: 0,
      stdout: "",
      stderr: "",
    });
  });
});

Deno.test("tma-hook D47: an event time the bridge passes (TMA_EVENT_AT) is the evidence time; else date", async () => {
  await withDir(async (dir) => {
    const log = `${dir}/log`;
    const bin = `${dir}/bin/tma`;
    await Deno.mkdir(`${dir}/bin`);
    await Deno.writeTextFile(
      bin,
      '#!/bin/sh\ncat >/dev/null\necho "$TMA_HOOK_FIRED_AT" >> "$FAKE_LOG"\n',
    );
    await Deno.chmod(bin, 0o755);
    const env = { TMA_BIN: bin, FAKE_LOG: log, TMUX_PANE: "%1" };
    await run(WRAPPER, {
      args: ["opencode", "stop"],
      env: { ...env, TMA_EVENT_AT: "1796000000123" },
    });
    const before = Date.now();
    await run(WRAPPER, { args: ["opencode", "stop"], env: { ...env, TMA_EVENT_AT: "soon" } });
    const [passed, own] = (await readLog(log)).trim().split("\n");
    assertEquals(passed, "1796000000123");
    // A malformed value is ignored: the wrapper's own clock reading stands.
    assertEquals(Math.abs(Number(own) - before) < 5000, true, own);
  });
});

Deno.test("tma-hook X10: an event is queued (argv of the drainer), unless the spool already holds 1000 entries", async () => {
  await withDir(async (dir) => {
    const log = `${dir}/log`;
    const bin = await fakeTma(`${dir}/bin/tma`);
    const runtime = `${dir}/run`;
    const socket = `${dir}/tmux-sock`;
    const spool = `${runtime}/tma/${serverKey(socket)}.spool`;
    const env = {
      PATH: "/usr/bin:/bin",
      TMA_BIN: bin,
      FAKE_LOG: log,
      TMUX: `${socket},1,0`,
      TMUX_PANE: "%4",
      XDG_RUNTIME_DIR: runtime,
    };
    const fire = () =>
      runProcess(WRAPPER, { args: ["gemini", "AfterAgent"], env, stdin: '{"session_id":"s"}' });
    assertEquals(await fire(), { code: 0, stdout: "", stderr: "" });
    // The fake drainer records its argv and leaves the entry; the wrapper did not wait for it.
    let first = "";
    for (let i = 0; i < 100 && !first.includes("argv="); i++) {
      first = await readLog(log);
      if (!first.includes("argv=")) await new Promise((r) => setTimeout(r, 20));
    }
    assertEquals(first.split("\n")[1], `argv=[--socket-path][${socket}][event][--drain]`);
    const entries = [...Deno.readDirSync(spool)].filter((e) => e.name.endsWith(".ev"));
    assertEquals(entries.length, 1);
    const text = await Deno.readTextFile(`${spool}/${entries[0].name}`);
    const [agent, event, pane, stamp, payload] = text.split("\n");
    assertEquals([agent, event, pane, payload], [
      "gemini",
      "AfterAgent",
      "%4",
      '{"session_id":"s"}',
    ]);
    // No clock of the wrapper's own: the entry's creation is the fire time (X10).
    assert(/^0 \d+$/.test(stamp), stamp);
    // A spool no drainer empties stops growing: the fire goes to the foreground instead.
    for (let i = 0; i < 999; i++) await Deno.writeTextFile(`${spool}/${900000000 + i}.ev`, "x");
    await Deno.remove(log);
    await Deno.remove(`${runtime}/tma/${serverKey(socket)}.drain`).catch(() => undefined);
    assertEquals(await fire(), { code: 0, stdout: "", stderr: "" });
    assertEquals(
      (await readLog(log)).split("\n")[1],
      "argv=[event][--agent][gemini][--kind][AfterAgent][--pane][%4][--payload][-]",
    );
    assertEquals([...Deno.readDirSync(spool)].length, 1000);
  });
});

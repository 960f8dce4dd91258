/**
 * The agent never waits on tma (X10, R10, C104, D47): an event that reads no
 * answer is queued by the `tma-hook` wrapper, which returns at once, and one
 * detached drainer per server stamps it. Each test runs the real wrapper and
 * the real `tma` against a scratch tmux server; the wrapper is started in a
 * process group of its own, as agents start hooks, so a test can kill that
 * group the instant the wrapper exits.
 * @module
 */
import { assert, assertEquals } from "./harness/assert.ts";
import { eventually } from "./harness/daemon.ts";
import {
  agentOptions,
  fireHook,
  payload,
  quietPane,
  settleSpool,
  spoolOf,
  tmaScript,
  WRAPPER,
} from "./harness/hook.ts";
import { runProcess } from "./harness/process.ts";
import { type ScratchTmux, tmuxTest } from "./harness/tmux.ts";

/** The claim file of the scratch server's drainer (`<key>.drain` beside its spool). */
async function claimOf(t: ScratchTmux): Promise<string> {
  return (await spoolOf(t)).replace(/\.spool$/, ".drain");
}

/** Waits until the scratch server has no drainer (its claim is gone). */
async function drainerGone(t: ScratchTmux): Promise<boolean> {
  const claim = await claimOf(t);
  return await eventually(async () => !(await exists(claim)), 15_000);
}

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.stat(path);
    return true;
  } catch {
    return false;
  }
}

/**
 * Runs the wrapper in a new process group, as an agent runs a hook, and
 * kills that whole group the instant the wrapper exits. Returns how long
 * the wrapper ran and its output.
 */
async function fireAndKillGroup(
  t: ScratchTmux,
  options: {
    bin: string;
    agent: string;
    event: string;
    pane: string;
    stdin?: string;
    arg?: string;
  },
): Promise<{ ms: number; code: number; stdout: string }> {
  const started = performance.now();
  const child = new Deno.Command(WRAPPER, {
    args: [options.agent, options.event, ...(options.arg === undefined ? [] : [options.arg])],
    env: t.env({ TMA_BIN: options.bin, TMA_HOOK_SOCKET: t.socketName, TMUX_PANE: options.pane }),
    clearEnv: true,
    stdin: "piped",
    stdout: "piped",
    stderr: "null",
    detached: true,
  }).spawn();
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode(options.stdin ?? "")).catch(() => undefined);
  await writer.close().catch(() => undefined);
  const out = await child.output();
  const ms = performance.now() - started;
  try {
    Deno.kill(-child.pid, "SIGKILL");
  } catch {
    // The group is empty: nothing of the wrapper's stayed in it.
  }
  return { ms, code: out.code, stdout: new TextDecoder().decode(out.stdout) };
}

/** `tma` processes serving the scratch server right now (the drainer, foreground events). */
async function tmaProcesses(t: ScratchTmux): Promise<{ pid: number; sid: number; args: string }[]> {
  const ps = await runProcess("ps", {
    args: ["-eo", "pid=,sid=,args="],
    env: { PATH: "/usr/bin:/bin" },
  });
  return ps.stdout.split("\n").flatMap((line) => {
    const m = /^\s*(\d+)\s+(\d+)\s+(.*)$/.exec(line);
    if (!m || !m[3].includes("mod.ts") || !m[3].includes(` event`)) return [];
    if (!m[3].includes(t.socketName)) return [];
    return [{ pid: Number(m[1]), sid: Number(m[2]), args: m[3] }];
  });
}

tmuxTest(
  "tma-hook X10, R10: an event that reads no answer returns before tma starts; a drainer that ignores the group's hangup stamps it",
  async (t) => {
    const pane = await quietPane(t);
    const bin = await tmaScript(t);
    const fired = await fireHook(t, {
      agent: "claude",
      event: "UserPromptSubmit",
      pane,
      bin,
      stdin: payload("claude", "UserPromptSubmit"),
      noSettle: true,
    });
    assertEquals([fired.code, fired.stdout, fired.stderr], [0, "", ""]);
    // Deno takes tens of ms to start: the stamp cannot be there yet, the entry is.
    const entries = [...Deno.readDirSync(await spoolOf(t))].map((e) => e.name);
    assert(entries.some((name) => name.endsWith(".ev")), `queued: ${entries.join(" ")}`);
    // The drainer passes through sh and the tma launcher before Deno runs mod.ts.
    let drainers: Awaited<ReturnType<typeof tmaProcesses>> = [];
    assert(
      await eventually(async () => (drainers = await tmaProcesses(t)).length > 0, 5_000),
      "a drainer runs",
    );
    assertEquals(drainers.length, 1, JSON.stringify(drainers));
    assert(drainers[0].args.includes("--drain"), drainers[0].args);
    assert(drainers[0].args.includes(`--socket-path`), "the drainer targets the hook's server");
    // The wrapper ran in this process's group (as a hook runs in its agent's):
    // the drainer shares it, deaf to the hangup a closing pane sends the group.
    const status = await runProcess("cat", {
      args: [`/proc/${drainers[0].pid}/status`],
      env: { PATH: "/usr/bin:/bin" },
    });
    const ignored = BigInt(`0x${/SigIgn:\s*([0-9a-f]+)/.exec(status.stdout)?.[1] ?? "0"}`);
    assert((ignored & 1n) === 1n, `SIGHUP is ignored: ${status.stdout}`);
    assert(
      await eventually(
        async () => (await agentOptions(t, pane))["@agent_state"] === "working",
        10_000,
      ),
      "the queued event is stamped",
    );
    await settleSpool(t);
    assert(await drainerGone(t), "the drainer exits once the spool stays empty");
  },
);

tmuxTest(
  "tma-hook X10: a hook leading its own process group gets its drainer in a new session: killing that group the instant the wrapper exits still lands the stamp (stdin and argv payloads)",
  async (t) => {
    const pane = await quietPane(t);
    const bin = await tmaScript(t);
    const rounds = [
      { agent: "claude", event: "UserPromptSubmit", state: "working" },
      { agent: "claude", event: "Stop", state: "idle" },
      { agent: "claude", event: "PreToolUse", state: "working" },
    ];
    for (const round of rounds) {
      // Each round starts a fresh drainer, so each tests the detach itself.
      assert(await drainerGone(t), "no drainer lingers from the round before");
      const fired = await fireAndKillGroup(t, {
        bin,
        agent: round.agent,
        event: round.event,
        pane,
        stdin: payload("claude", round.event),
      });
      assertEquals([fired.code, fired.stdout], [0, ""]);
      assert(
        await eventually(
          async () => (await agentOptions(t, pane))["@agent_state"] === round.state,
          10_000,
        ),
        `${round.event}: the stamp landed after the group was killed`,
      );
    }
    // Codex's notify hands its payload as an argument, not on stdin: the queue takes it too.
    assert(await drainerGone(t), "no drainer lingers from the round before");
    const fired = await fireAndKillGroup(t, {
      bin,
      agent: "claude",
      event: "UserPromptSubmit",
      pane,
      arg: payload("claude", "UserPromptSubmit"),
    });
    assertEquals(fired.code, 0);
    assert(
      await eventually(
        async () => (await agentOptions(t, pane))["@agent_state"] === "working",
        10_000,
      ),
      "an argv payload is queued and stamped",
    );
  },
);

tmuxTest(
  "tma-hook X10, D47: a burst of 50 fires on one pane runs at most 2 tma processes at once, ends in the newest state, and keeps its SessionStart",
  async (t) => {
    const pane = await quietPane(t);
    const bin = await tmaScript(t);
    const working = ["UserPromptSubmit", "PreToolUse", "PostToolUse"];
    const marker = "burst-model-marker";
    const session = JSON.parse(payload("claude", "SessionStart"));
    const fires: { event: string; stdin: string }[] = [];
    for (let i = 0; i < 49; i++) {
      if (i === 25) {
        fires.push({ event: "SessionStart", stdin: JSON.stringify({ ...session, model: marker }) });
      } else {
        const event = working[i % working.length];
        fires.push({ event, stdin: payload("claude", event) });
      }
    }
    fires.push({ event: "Stop", stdin: payload("claude", "Stop") });

    let sampling = true;
    let most = 0;
    const sampler = (async () => {
      while (sampling) {
        most = Math.max(most, (await tmaProcesses(t)).length);
      }
    })();
    const started = Date.now();
    try {
      for (const fire of fires) {
        const ran = await fireHook(t, {
          agent: "claude",
          event: fire.event,
          pane,
          bin,
          stdin: fire.stdin,
          noSettle: true,
        });
        assertEquals(ran.code, 0);
        await new Promise((r) => setTimeout(r, Math.max(0, 18 - (Date.now() - started) % 20)));
      }
      const burstMs = Date.now() - started;
      assert(burstMs < 3000, `the 50 fires took ${burstMs} ms`);
      await settleSpool(t, t.env(), 30_000);
    } finally {
      sampling = false;
      await sampler;
    }
    assert(most >= 1, "the sampler saw the drainer");
    assert(most <= 2, `${most} tma processes ran at once`);
    const options = await agentOptions(t, pane);
    assertEquals(options["@agent_state"], "idle", "the newest fire (Stop) wins");
    assertEquals(options["@agent_model"], marker, "the SessionStart inside the burst was taken");
  },
);

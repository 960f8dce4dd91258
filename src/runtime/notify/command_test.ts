import { assertEquals } from "../../../tests/harness/assert.ts";
import { commandEnv, IN_FLIGHT_CAP, spawnNotifyCommand } from "./command.ts";
import { failurePrefix } from "./failure.ts";

Deno.test("commandEnv() P63 R4: inherited payload variables go, the fire's own and the rest stay", () => {
  const env = commandEnv(
    { PATH: "/bin", TMA_EXCERPT: "stale", TMA_DETAIL: "stale", TMA_NOTIFY_CMD: "x" },
    { TMA_AGENT: "claude" },
  );
  assertEquals(env, { PATH: "/bin", TMA_NOTIFY_CMD: "x", TMA_AGENT: "claude" });
});

Deno.test("failurePrefix() U28: the wrapper's status and brace complete the record", () => {
  const prefix = failurePrefix({ at_ms: 5, trigger: "done", pane: "%1", command: 'say "hi"\n' });
  assertEquals(JSON.parse(`${prefix}127}`), {
    at_ms: 5,
    trigger: "done",
    pane: "%1",
    command: 'say "hi"\n',
    exit_code: 127,
  });
});

Deno.test("spawnNotifyCommand() U21: in-flight commands are capped; at the cap the oldest is killed", async () => {
  const dir = await Deno.makeTempDir();
  const stateEnv = (name: string) => (name === "XDG_STATE_HOME" ? `${dir}/state` : undefined);
  const alive = (pid: number) => {
    try {
      Deno.kill(pid, "SIGCONT");
      return true;
    } catch {
      return false;
    }
  };
  const pids: number[] = [];
  try {
    for (let i = 0; i <= IN_FLIGHT_CAP; i++) {
      await spawnNotifyCommand({
        command: `echo $$ > '${dir}/pid-${i}'; exec sleep 30`,
        payload: "{}",
        env: {},
        failure: { at_ms: 0, trigger: "blocked", pane: "%1" },
        stateEnv,
      });
      // Each command reports its pid before the next one is spawned.
      const deadline = Date.now() + 5000;
      while (Date.now() < deadline) {
        const text = await Deno.readTextFile(`${dir}/pid-${i}`).catch(() => "");
        if (text.trim() !== "") {
          pids.push(Number(text.trim()));
          break;
        }
        await new Promise((r) => setTimeout(r, 10));
      }
    }
    assertEquals(pids.length, IN_FLIGHT_CAP + 1);
    // The first was killed when the ninth started; the others run on.
    const deadline = Date.now() + 5000;
    while (alive(pids[0]) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    assertEquals(pids.map(alive), [false, ...pids.slice(1).map(() => true)]);
  } finally {
    for (const pid of pids) {
      try {
        Deno.kill(pid, "SIGKILL");
      } catch {
        // Already gone.
      }
    }
    await Deno.remove(dir, { recursive: true });
  }
});

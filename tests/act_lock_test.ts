/**
 * The single-flight lock against a live scratch tmux (A13-A16, R5): acquire,
 * contention, reclaim from a dead holder, refusal from a live one, release
 * only by the nonce's owner, and two concurrent `tma act` runs at one pane.
 */
import { assert, assertEquals, assertMatch } from "./harness/assert.ts";
import { runTma, tmuxTest } from "./harness/tmux.ts";
import { fire } from "../src/actions/broker.ts";
import {
  acquireLock,
  LOCK_OPTION,
  LOCK_SLACK_MS,
  parseLock,
  releaseLock,
} from "../src/actions/lock.ts";
import { action, brokerEnv, setOptions } from "./harness/act.ts";
import { recorder, screen } from "./harness/recorder.ts";

/** A pid that is certainly dead: a child that exited and was reaped. */
async function deadPid(): Promise<number> {
  const child = new Deno.Command("true").spawn();
  await child.status;
  return child.pid;
}

tmuxTest(
  "fire() lock A13, A14, A16: acquire writes <expiry>:<nonce>:<pid>:<name>; a second acquire loses; release clears",
  async (t) => {
    const pane = (await t.tmux("display", "-p", "-t", "main", "#{pane_id}")).trim();
    const now = Date.now();
    const first = await acquireLock(t.server, {
      pane,
      name: "approve",
      timeoutMs: 30_000,
      nowMs: now,
    });
    assert(first.held);
    const raw = await t.option(pane, LOCK_OPTION);
    assertMatch(raw, /^\d{13}:[0-9a-f]{32}:\d+:approve$/);
    const parsed = parseLock(raw)!;
    assertEquals(parsed.expiryMs, now + 30_000 + LOCK_SLACK_MS);
    assertEquals(parsed.pid, Deno.pid);
    const second = await acquireLock(t.server, {
      pane,
      name: "deny",
      timeoutMs: 30_000,
      nowMs: now,
    });
    assertEquals(second.held, false);
    assertEquals(await t.option(pane, LOCK_OPTION), raw, "a live lock is never overwritten");
    assert(await releaseLock(t.server, first));
    assertEquals(await t.option(pane, LOCK_OPTION), "");
  },
);

tmuxTest(
  "fire() lock A16: a slow former holder's release cannot wipe a new holder's lock",
  async (t) => {
    const pane = (await t.tmux("display", "-p", "-t", "main", "#{pane_id}")).trim();
    const old = await acquireLock(t.server, { pane, name: "a", timeoutMs: 1, nowMs: Date.now() });
    assert(old.held);
    // The old lock expired and its holder "died"; a new broker reclaims it.
    const later = Date.now() + 60_000;
    const fresh = await acquireLock(t.server, {
      pane,
      name: "b",
      timeoutMs: 30_000,
      nowMs: later,
      isAlive: () => false,
    });
    assert(fresh.held);
    assertEquals(await releaseLock(t.server, old), false);
    assertEquals(await t.option(pane, LOCK_OPTION), fresh.raw);
  },
);

tmuxTest(
  "fire() lock A14, A15: expired and dead is reclaimed; expired but alive, or unexpired, is refused; corrupt is reclaimed",
  async (t) => {
    const pane = (await t.tmux("display", "-p", "-t", "main", "#{pane_id}")).trim();
    const now = Date.now();
    const dead = await deadPid();
    const sleeper = new Deno.Command("sleep", { args: ["600"] }).spawn();
    try {
      const cases: [string, boolean][] = [
        [`${now - 1000}:aaaa:${dead}:approve`, true],
        [`${now - 1000}:bbbb:${sleeper.pid}:approve`, false],
        [`${now + 60_000}:cccc:${dead}:approve`, false],
        ["not a lock at all", true],
        ["", true],
      ];
      for (const [value, reclaimed] of cases) {
        await setOptions(t, pane, { [LOCK_OPTION]: value });
        const lock = await acquireLock(t.server, {
          pane,
          name: "deny",
          timeoutMs: 1000,
          nowMs: now,
        });
        assertEquals(lock.held, reclaimed, value);
        if (lock.held) await releaseLock(t.server, lock);
        else assertEquals(await t.option(pane, LOCK_OPTION), value);
      }
    } finally {
      sleeper.kill("SIGKILL");
      await sleeper.status;
    }
  },
);

tmuxTest(
  "fire() lock A15: a lock left by a killed tma is reclaimed and the action fires",
  async (t) => {
    const s = screen("claude_blocked_bash_w80");
    const r = await recorder(t, "claude", { height: s.height });
    await r.draw(s);
    // A broker killed mid-action: its lock stays until expiry; its pid is gone.
    const victim = new Deno.Command("sleep", { args: ["600"] }).spawn();
    victim.kill("SIGKILL");
    await victim.status;
    await setOptions(t, r.pane, {
      [LOCK_OPTION]: `${Date.now() - 1}:0123456789abcdef0123456789abcdef:${victim.pid}:approve`,
    });
    const { value, bytes } = await r.recordDuring(() =>
      fire(brokerEnv(t), { action: action("approve"), pane: r.pane })
    );
    assertEquals([value.result.outcome, bytes], ["sent", "1"]);
    assertEquals(await t.option(r.pane, LOCK_OPTION), "");
  },
);

tmuxTest(
  "fire() lock C55, R5: two concurrent tma act at one pane give one sent and one locked (exit 5)",
  async (t) => {
    const s = screen("claude_blocked_bash_w80");
    const r = await recorder(t, "claude", { height: s.height });
    await r.draw(s);
    let second: { code: number; stdout: string; stderr: string } | null = null;
    const { value, bytes } = await r.recordDuring(() =>
      fire(brokerEnv(t), {
        action: action("approve"),
        pane: r.pane,
        seams: {
          // The second run starts while the first provably holds the lock.
          afterLock: async () => {
            second = await runTma(t, ["act", "approve", "--pane", r.pane, "--json"]);
          },
        },
      })
    );
    const other = second!;
    assertEquals(value.result.outcome, "sent");
    assertEquals(other.code, 5, other.stderr);
    assertEquals(JSON.parse(other.stdout), {
      schema: 1,
      action: "approve",
      pane: r.pane,
      outcome: "refused",
      exit_code: 5,
      reason: "locked",
    });
    assertMatch(other.stderr, /locked/);
    assertEquals(bytes, "1", "the prompt was answered once");
    assertEquals(await t.option(r.pane, LOCK_OPTION), "");
  },
);

/**
 * Claude's hook reply lane, the broker's side (A26): a holding hook (the
 * hook side's own `holdForVerdict`) takes the verdict and no key is typed,
 * or no hook takes it and the broker withdraws it and answers with keys
 * exactly once.
 */
import { assertEquals } from "./harness/assert.ts";
import { type ScratchTmux, tmuxTest } from "./harness/tmux.ts";
import { fire } from "../src/actions/broker.ts";
import { takeVerdict, VERDICT_ACK_OPTION, VERDICT_OPTION } from "../src/actions/hook_lane.ts";
import { holdForVerdict } from "../src/runtime/hook/reply_lane.ts";
import { action, brokerEnv, setOptions } from "./harness/act.ts";
import { recorder, screen } from "./harness/recorder.ts";
import type { HookVerdict } from "../src/core/action/transport.ts";

/**
 * The real hook side's hold (`holdForVerdict`), started as a
 * `PermissionRequest` hook would: blocked stamped, the id minted.
 */
function holdingHook(t: ScratchTmux, pane: string, id: string): Promise<HookVerdict | null> {
  return holdForVerdict(t.server, { pane, requestId: id, holdMs: 20_000, now: Date.now });
}

async function blockedClaude(t: ScratchTmux, id: string) {
  const s = screen("claude_blocked_bash_w80");
  const r = await recorder(t, "claude", { height: s.height });
  await r.draw(s);
  const now = String(Date.now());
  await setOptions(t, r.pane, {
    "@agent_state": "blocked",
    "@agent_detail": "permission",
    "@agent_source": "hook",
    "@agent_evidence_at": now,
    "@agent_stamped_at": now,
    "@agent_permission_request": id,
  });
  return r;
}

for (const [name, verdict] of [["approve", "allow"], ["deny", "deny"]] as const) {
  tmuxTest(
    `fire() hook lane A26: ${name} at a Claude pane with a holding hook is replied over the lane, no keys`,
    async (t) => {
      const r = await blockedClaude(t, "tma_req1");
      const hook = holdingHook(t, r.pane, "tma_req1");
      const { value, bytes } = await r.recordDuring(() =>
        fire(brokerEnv(t), { action: action(name), pane: r.pane })
      );
      assertEquals(value.result.outcome, "replied", value.message ?? "");
      assertEquals(value.result.exit_code, 0);
      assertEquals(value.transport, "hook-lane");
      assertEquals(await hook, verdict);
      assertEquals(bytes, "", "the lane answered; no keystroke");
      assertEquals(await t.option(r.pane, VERDICT_OPTION), "");
      assertEquals(await t.option(r.pane, VERDICT_ACK_OPTION), "", "the ack is consumed");
      assertEquals(
        await t.option(r.pane, "@agent_permission_request"),
        "",
        "the hold cleared its id",
      );
      assertEquals(await t.option(r.pane, "@agent_action"), "");
    },
  );
}

tmuxTest(
  "fire() hook lane A26: with no hook to take the verdict, it is withdrawn and the keys arm answers once",
  async (t) => {
    const r = await blockedClaude(t, "tma_orphan");
    const { value, bytes } = await r.recordDuring(() =>
      fire(brokerEnv(t), { action: action("approve"), pane: r.pane })
    );
    assertEquals(value.result.outcome, "sent", value.message ?? "");
    assertEquals(value.transport, "hook-lane");
    assertEquals(bytes, "1");
    assertEquals(await t.option(r.pane, VERDICT_OPTION), "", "the offer was withdrawn");
  },
);

tmuxTest(
  "fire() hook lane A26: a hook that wakes after the withdrawal cannot take the verdict; the prompt is answered once",
  async (t) => {
    const r = await blockedClaude(t, "tma_late");
    let lateTake: boolean | null = null;
    const { value, bytes } = await r.recordDuring(async () => {
      const firing = fire(brokerEnv(t), { action: action("approve"), pane: r.pane });
      // The late hook saw the offer, then slept past the hand-off bound.
      await t.waitFor(async () => (await t.option(r.pane, VERDICT_OPTION)) === "tma_late:allow");
      await t.waitFor(async () => (await t.option(r.pane, VERDICT_OPTION)) === "");
      lateTake = await takeVerdict(t.server, {
        pane: r.pane,
        requestId: "tma_late",
        verdict: "allow",
      });
      return await firing;
    });
    assertEquals(lateTake, false);
    assertEquals(value.result.outcome, "sent");
    assertEquals(bytes, "1");
    assertEquals(await t.option(r.pane, VERDICT_ACK_OPTION), "");
  },
);

tmuxTest(
  "fire() hook lane A26: a Claude pane without a request id takes the keys path directly",
  async (t) => {
    const s = screen("claude_blocked_bash_w80");
    const r = await recorder(t, "claude", { height: s.height });
    await r.draw(s);
    const { value, bytes } = await r.recordDuring(() =>
      fire(brokerEnv(t), { action: action("deny"), pane: r.pane })
    );
    assertEquals([value.result.outcome, value.transport, bytes], ["sent", "keys", "\x1b"]);
    assertEquals(await t.option(r.pane, VERDICT_OPTION), "", "no offer was made");
  },
);

/**
 * Claude's hook reply lane (A25, A26, G30, G31, I13): the real wrapper holds
 * a `PermissionRequest`, the test offers a verdict through the same protocol
 * helpers the broker uses, and the hook's stdout carries Claude's decision
 * object only when it took one.
 * @module
 */
import { assert, assertEquals } from "./harness/assert.ts";
import { type ScratchTmux, tmuxTest } from "./harness/tmux.ts";
import {
  agentOptions,
  type Fired,
  fireHook,
  payload,
  quietPane,
  tmaScript,
  writeConfig,
} from "./harness/hook.ts";
import {
  offerVerdict,
  readLane,
  takeVerdict,
  type Verdict,
  withdrawVerdict,
} from "../src/runtime/hook/reply_lane.ts";

const ALLOW =
  '{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow"}}}';

/** Registers a Claude pane and starts a PermissionRequest hook that holds. */
async function holding(
  scratch: ScratchTmux,
): Promise<{ pane: string; hook: Promise<Fired>; requestId: string }> {
  const pane = await quietPane(scratch);
  const bin = await tmaScript(scratch);
  await fireHook(scratch, {
    agent: "claude",
    event: "SessionStart",
    pane,
    bin,
    stdin: payload("claude", "SessionStart"),
  });
  const hook = fireHook(scratch, {
    agent: "claude",
    event: "PermissionRequest",
    pane,
    bin,
    stdin: payload("claude", "PermissionRequest"),
  });
  let requestId = "";
  await scratch.waitFor(async () => {
    requestId = (await readLane(scratch.server, pane))?.requestId ?? "";
    return requestId !== "";
  }, 15_000);
  return { pane, hook, requestId };
}

async function answered(
  scratch: ScratchTmux,
  verdict: Verdict,
): Promise<{ fired: Fired; requestId: string; pane: string }> {
  await writeConfig(scratch, "[hooks]\nhold_ms = 60000\n");
  const { pane, hook, requestId } = await holding(scratch);
  assert(/^tma_[0-9a-f]{16}$/.test(requestId), `minted id ${requestId}`);
  const options = await agentOptions(scratch, pane);
  assertEquals([options["@agent_state"], options["@agent_detail"]], ["blocked", "permission"]);
  assert(await offerVerdict(scratch.server, { pane, requestId, verdict }), "offered");
  return { fired: await hook, requestId, pane };
}

tmuxTest(
  "reply lane A25: an approve handed to the held hook comes back as Claude's allow object",
  async (scratch) => {
    const { fired, requestId, pane } = await answered(scratch, "allow");
    assertEquals([fired.code, fired.stderr], [0, ""]);
    assertEquals(fired.stdout.trim(), ALLOW);
    const lane = await readLane(scratch.server, pane);
    // The hook acknowledged the verdict, took it, and cleared its id.
    assertEquals(lane, { state: "blocked", requestId: "", verdict: "", ack: requestId });
  },
);

tmuxTest(
  "reply lane A25: a deny comes back as Claude's deny object with a message",
  async (scratch) => {
    const { fired } = await answered(scratch, "deny");
    const decision = JSON.parse(fired.stdout).hookSpecificOutput;
    assertEquals(decision.hookEventName, "PermissionRequest");
    assertEquals(decision.decision.behavior, "deny");
    assert(typeof decision.decision.message === "string" && decision.decision.message !== "");
  },
);

tmuxTest(
  "reply lane G30: with claude_reply_lane = false the hook mints nothing and prints nothing",
  async (scratch) => {
    await writeConfig(scratch, "[hooks]\nclaude_reply_lane = false\nhold_ms = 60000\n");
    const pane = await quietPane(scratch);
    const fired = await fireHook(scratch, {
      agent: "claude",
      event: "PermissionRequest",
      pane,
      stdin: payload("claude", "PermissionRequest"),
    });
    assertEquals([fired.code, fired.stdout, fired.stderr], [0, "", ""]);
    const options = await agentOptions(scratch, pane);
    assertEquals([options["@agent_state"], options["@agent_permission_request"]], [
      "blocked",
      undefined,
    ]);
  },
);

tmuxTest(
  "reply lane G31: a hold that expires prints nothing and clears its id",
  async (scratch) => {
    await writeConfig(scratch, "[hooks]\nhold_ms = 200\n");
    const pane = await quietPane(scratch);
    const fired = await fireHook(scratch, {
      agent: "claude",
      event: "PermissionRequest",
      pane,
      stdin: payload("claude", "PermissionRequest"),
    });
    assertEquals([fired.code, fired.stdout, fired.stderr], [0, "", ""]);
    const options = await agentOptions(scratch, pane);
    assertEquals([options["@agent_state"], options["@agent_permission_request"]], [
      "blocked",
      undefined,
    ]);
  },
);

tmuxTest(
  "reply lane A25: the hold ends early, silently, when the pane leaves blocked",
  async (scratch) => {
    await writeConfig(scratch, "[hooks]\nhold_ms = 60000\n");
    const { pane, hook, requestId } = await holding(scratch);
    // The user answered at the keyboard: the tool ran.
    await fireHook(scratch, {
      agent: "claude",
      event: "PostToolUse",
      pane,
      stdin: payload("claude", "PostToolUse"),
    });
    const fired = await hook;
    assertEquals([fired.code, fired.stdout, fired.stderr], [0, "", ""]);
    assertEquals(
      await offerVerdict(scratch.server, { pane, requestId, verdict: "allow" }),
      false,
    );
  },
);

tmuxTest("reply lane A25: the hold ends early when its id is replaced", async (scratch) => {
  await writeConfig(scratch, "[hooks]\nhold_ms = 60000\n");
  const { pane, hook } = await holding(scratch);
  await scratch.tmux("set-option", "-p", "-t", pane, "@agent_permission_request", "tma_other");
  const fired = await hook;
  assertEquals(fired.stdout, "");
  // Its clearing is guarded on its own id: the newer id stays.
  assertEquals((await readLane(scratch.server, pane))?.requestId, "tma_other");
});

tmuxTest("reply lane A26: offer, take and withdraw are exclusive", async (scratch) => {
  const pane = await quietPane(scratch);
  const server = scratch.server;
  const target = { pane, requestId: "tma_0123456789abcdef", verdict: "allow" as const };
  // No hold on the pane: nothing to offer to.
  assertEquals(await offerVerdict(server, target), false);
  await scratch.tmux(
    "set-option",
    "-p",
    "-t",
    pane,
    "@agent_permission_request",
    target.requestId,
  );
  assertEquals(
    await offerVerdict(server, { ...target, requestId: "tma_ffffffffffffffff" }),
    false,
  );
  assertEquals(await offerVerdict(server, target), true);
  // A take of another verdict, or for another id, does not commit.
  assertEquals(await takeVerdict(server, { ...target, verdict: "deny" }), false);
  assertEquals(await withdrawVerdict(server, target), true);
  assertEquals(await takeVerdict(server, target), false);
  assertEquals(await offerVerdict(server, target), true);
  assertEquals(await takeVerdict(server, target), true);
  assertEquals(await withdrawVerdict(server, target), false);
  assertEquals(await takeVerdict(server, target), false);
  assertEquals((await readLane(server, pane))?.ack, target.requestId);
});

tmuxTest(
  "reply lane A26: the broker's hand-off (src/actions/hook_lane.ts) is answered by the held hook",
  async (scratch) => {
    const { handVerdict } = await import("../src/actions/hook_lane.ts");
    await writeConfig(scratch, "[hooks]\nhold_ms = 60000\n");
    const { pane, hook, requestId } = await holding(scratch);
    const end = await handVerdict(scratch.server, {
      pane,
      requestId,
      verdict: "allow",
      handoffMs: 5000,
    });
    assertEquals(end, "taken");
    assertEquals((await hook).stdout.trim(), ALLOW);
  },
);

tmuxTest(
  "reply lane A25: a hold killed by its agent clears its id and exits 0",
  async (scratch) => {
    await writeConfig(scratch, "[hooks]\nhold_ms = 60000\n");
    const pane = await quietPane(scratch);
    const bin = await tmaScript(scratch);
    const child = new Deno.Command(bin, {
      args: [
        "--socket-name",
        scratch.socketName,
        "event",
        "--agent",
        "claude",
        "--kind",
        "PermissionRequest",
        "--pane",
        pane,
        "--payload",
        "-",
      ],
      env: scratch.env(),
      clearEnv: true,
      stdin: "piped",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    const writer = child.stdin.getWriter();
    await writer.write(new TextEncoder().encode(payload("claude", "PermissionRequest")));
    await writer.close();
    await scratch.waitFor(
      async () => ((await readLane(scratch.server, pane))?.requestId ?? "") !== "",
      15_000,
    );
    child.kill("SIGTERM");
    const out = await child.output();
    assertEquals([
      out.code,
      new TextDecoder().decode(out.stdout),
      new TextDecoder().decode(out.stderr),
    ], [0, "", ""]);
    assertEquals((await readLane(scratch.server, pane))?.requestId, "");
  },
);

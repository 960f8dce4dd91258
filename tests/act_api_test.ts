/**
 * The OpenCode API lane end to end (A1, A2, A5, A27-A33) against
 * `fake_opencode.ts`, with an OpenCode stand-in whose pane proves that the
 * lane never falls back to keystrokes.
 */
import { assert, assertEquals, assertMatch, assertRejects } from "./harness/assert.ts";
import { runTma, type ScratchTmux, tmuxTest } from "./harness/tmux.ts";
import { UsageError } from "../src/core/errors.ts";
import { parseActionManifest } from "../src/core/manifest/parse.ts";
// Through the library surface the README documents (src/actions/mod.ts).
import { fire, LOCK_OPTION } from "../src/actions/mod.ts";
import { action, brokerEnv, setOptions } from "./harness/act.ts";
import { type Recorder, recorder, screen } from "./harness/recorder.ts";
import { type FakeOpencode, fakeOpencode } from "./harness/fake_opencode.ts";

/**
 * A scratch-server test with an OpenCode stand-in showing a permission (or
 * question) dialog, and a fake OpenCode server, closed however it ends.
 */
function opencodeTest(
  name: string,
  fn: (ctx: { t: ScratchTmux; r: Recorder; oc: FakeOpencode }) => Promise<void>,
  options: { question?: boolean } = {},
): void {
  tmuxTest(name, async (t) => {
    const oc = fakeOpencode();
    try {
      const s = screen(
        options.question ? "opencode_blocked_question_w80" : "opencode_blocked_permission_w80",
      );
      const r = await recorder(t, "opencode", { height: s.height });
      await r.draw(s);
      await fn({ t, r, oc });
    } finally {
      await oc.close();
    }
  });
}

opencodeTest(
  "fire() api lane A1, A27, A28: approve at OpenCode POSTs the v1 permission reply once and is replied",
  async ({ t, r, oc }) => {
    oc.permissions.add("per_abc");
    await setOptions(t, r.pane, {
      "@agent_permission_request": "per_abc",
      "@agent_api_endpoint": oc.url,
    });
    const { value, bytes } = await r.recordDuring(() =>
      fire(brokerEnv(t), { action: action("approve"), pane: r.pane })
    );
    assertEquals(value.result.outcome, "replied", value.message ?? "");
    assertEquals(value.result.exit_code, 0);
    assertEquals(value.transport, "api");
    assertEquals(oc.received, [{
      method: "POST",
      path: "/permission/per_abc/reply",
      body: { reply: "once" },
    }]);
    assertEquals(bytes, "", "the API lane types nothing");
    assertEquals(await t.option(r.pane, LOCK_OPTION), "");
  },
);

opencodeTest(
  "fire() api lane A2, A28: deny replies reject; a second reply at the answered request is vanished/request-gone (exit 3)",
  async ({ t, r, oc }) => {
    oc.permissions.add("per_1");
    await setOptions(t, r.pane, {
      "@agent_permission_request": "per_1",
      "@agent_api_endpoint": oc.url,
    });
    const env = brokerEnv(t);
    const first = await fire(env, { action: action("deny"), pane: r.pane });
    assertEquals(first.result.outcome, "replied");
    assertEquals(oc.received[0].body, { reply: "reject" });
    const again = await fire(env, { action: action("deny"), pane: r.pane });
    assertEquals(again.result, {
      schema: 1,
      action: "deny",
      pane: r.pane,
      outcome: "vanished",
      exit_code: 3,
      reason: "request-gone",
    });
    assertEquals(oc.received.length, 2, "no retry");
  },
);

opencodeTest(
  "fire() api lane A27: a slow server is an error at timeout_ms (exit 1), with no retry and no keystroke",
  async ({ t, r, oc }) => {
    oc.permissions.add("per_slow");
    oc.delayMs = 10_000;
    await setOptions(t, r.pane, {
      "@agent_permission_request": "per_slow",
      "@agent_api_endpoint": oc.url,
    });
    const quick = parseActionManifest(
      [
        'min_engine_version = "0.1.0"',
        'name = "quick_approve"',
        'label = "Quick approve"',
        'kind = "keys"',
        "timeout_ms = 300",
        "[when]",
        'state = ["blocked"]',
        "[api]",
        'opencode = { op = "permission-reply", reply = "once" }',
      ].join("\n"),
      { path: "quick_approve.toml", stem: "quick_approve" },
    );
    const { value, bytes } = await r.recordDuring(() =>
      fire(brokerEnv(t), { action: quick, pane: r.pane })
    );
    assertEquals([value.result.outcome, value.result.exit_code, value.result.reason], [
      "error",
      1,
      null,
    ]);
    assertMatch(value.message ?? "", /within 300 ms/);
    assertEquals(oc.received.length, 1);
    assertEquals(bytes, "");
    assertEquals(await t.option(r.pane, LOCK_OPTION), "", "released on the error path");
  },
);

opencodeTest(
  "fire() api lane A27: a status other than 2xx or 404, or an unreachable server, is error (exit 1)",
  async ({ t, r, oc }) => {
    oc.permissions.add("per_1");
    oc.forceStatus = 500;
    await setOptions(t, r.pane, {
      "@agent_permission_request": "per_1",
      "@agent_api_endpoint": oc.url,
    });
    const env = brokerEnv(t);
    const failed = await fire(env, { action: action("approve"), pane: r.pane });
    assertEquals([failed.result.outcome, failed.result.exit_code], ["error", 1]);
    // A port nobody listens on: the fake's own, once closed, is not certain; use port 9 (discard).
    await setOptions(t, r.pane, { "@agent_api_endpoint": "http://127.0.0.1:9" });
    const unreachable = await fire(env, { action: action("approve"), pane: r.pane });
    assertEquals([unreachable.result.outcome, unreachable.result.exit_code], ["error", 1]);
    // X8: the message says what to do, not only what failed.
    assertEquals(
      unreachable.message?.includes("run tma install-hooks opencode and restart the agent"),
      true,
      unreachable.message ?? "",
    );
  },
);

opencodeTest(
  "fire() api lane A29: no request id, or no endpoint, refuses requires-unmet before the lock",
  async ({ t, r, oc }) => {
    const env = brokerEnv(t);
    let locked = false;
    const watch = { afterGate: () => Promise.resolve(void (locked = true)) };
    await setOptions(t, r.pane, { "@agent_api_endpoint": oc.url });
    const noId = await fire(env, { action: action("approve"), pane: r.pane, seams: watch });
    assertEquals([noId.result.reason, noId.result.exit_code], ["requires-unmet", 4]);
    await t.tmux("set-option", "-pu", "-t", r.pane, "@agent_api_endpoint");
    await setOptions(t, r.pane, { "@agent_permission_request": "per_1" });
    const noEndpoint = await fire(env, { action: action("approve"), pane: r.pane, seams: watch });
    assertEquals(noEndpoint.result.reason, "requires-unmet");
    assertMatch(noEndpoint.message ?? "", /api\.opencode/);
    assertEquals(locked, false, "the gate refused before the lock step");
    assertEquals(oc.received.length, 0);
  },
);

opencodeTest(
  "fire() api lane G29: [api.opencode] api_base is the endpoint when the pane has none stamped",
  async ({ t, r, oc }) => {
    oc.permissions.add("per_cfg");
    await setOptions(t, r.pane, { "@agent_permission_request": "per_cfg" });
    const env = brokerEnv(t, { config: { api: { opencode: { api_base: `${oc.url}/` } } } });
    const report = await fire(env, { action: action("approve"), pane: r.pane });
    assertEquals(report.result.outcome, "replied");
    assertEquals(oc.received[0].path, "/permission/per_cfg/reply");
  },
);

opencodeTest(
  "fire() api lane A5, A32: question_reject POSTs the question's reject; a permission op never uses a question id",
  async ({ t, r, oc }) => {
    oc.questions.add("que_9");
    await setOptions(t, r.pane, {
      "@agent_question_request": "que_9",
      "@agent_api_endpoint": oc.url,
    });
    const env = brokerEnv(t);
    // approve gates on blocked/permission; forced past it, it still needs a permission id.
    const wrong = await fire(env, { action: action("approve"), pane: r.pane, force: true });
    assertEquals(wrong.result.reason, "requires-unmet");
    const { value, bytes } = await r.recordDuring(() =>
      fire(env, { action: action("question_reject"), pane: r.pane })
    );
    assertEquals(value.result.outcome, "replied", value.message ?? "");
    assertEquals(oc.received.map((x) => x.path), ["/question/que_9/reject"]);
    assertEquals(bytes, "");
  },
  { question: true },
);

const REPLY_TOML = [
  'min_engine_version = "0.1.0"',
  'name = "answer"',
  'label = "Answer"',
  'kind = "keys"',
  "[when]",
  'state = ["blocked"]',
  'detail = ["question"]',
  "[api]",
  'opencode = { op = "question-reply" }',
].join("\n");

opencodeTest(
  "fire() api lane A33: the library fire sends answers through question-reply; without answers it is a usage error",
  async ({ t, r, oc }) => {
    oc.questions.add("que_1");
    await setOptions(t, r.pane, {
      "@agent_question_request": "que_1",
      "@agent_api_endpoint": oc.url,
    });
    const answer = parseActionManifest(REPLY_TOML, { path: "answer.toml", stem: "answer" });
    const env = brokerEnv(t);
    await assertRejects(() => fire(env, { action: answer, pane: r.pane }), UsageError);
    await assertRejects(
      () => fire(env, { action: action("approve"), pane: r.pane, answers: [["Red"]] }),
      UsageError,
    );
    const report = await fire(env, {
      action: answer,
      pane: r.pane,
      answers: [["Blue"], ["a", "b"]],
    });
    assertEquals(report.result.outcome, "replied");
    assertEquals(oc.received.at(-1), {
      method: "POST",
      path: "/question/que_1/reply",
      body: { answers: [["Blue"], ["a", "b"]] },
    });
  },
  { question: true },
);

tmuxTest(
  "fire() api lane A33, C55: tma act refuses a question-reply action as a usage error (exit 2)",
  async (t) => {
    const dir = `${t.home}/.config/tma/actions`;
    await Deno.mkdir(dir, { recursive: true });
    await Deno.writeTextFile(`${dir}/answer.toml`, REPLY_TOML);
    const out = await runTma(t, ["act", "answer", "--pane", "%0"]);
    assertEquals(out.code, 2, out.stderr);
    assert(out.stderr.includes("answers"));
  },
);

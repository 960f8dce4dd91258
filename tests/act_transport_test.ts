/**
 * The pure builders of the transports: the keystroke adapter's argv (A19,
 * A20), the API lane's requests (A27), the exec context env (A22).
 */
import { assertEquals, assertThrows } from "./harness/assert.ts";
import { sendKeysArgs, textDeliveryCalls, tmuxArg } from "../src/tmux/keys.ts";
import { apiCall, ApiCallError } from "../src/actions/api.ts";
import { childEnv, execEnv } from "../src/actions/exec.ts";
import type { PaneView } from "../src/core/action/view.ts";

Deno.test("act transport A19: one send-keys with named keys, flags ended by --", () => {
  assertEquals(sendKeysArgs("%3", ["/compact", "Enter"]), [
    "send-keys",
    "-t",
    "%3",
    "--",
    "/compact",
    "Enter",
  ]);
  assertEquals(sendKeysArgs("%3", ["-x"]), ["send-keys", "-t", "%3", "--", "-x"]);
});

Deno.test("act transport A20: the {text} element is its own literal send-keys -l; keys after it go apart", () => {
  assertEquals(
    textDeliveryCalls("%3", { sequence: ["Escape", "{text}", "Enter"], text: "Enter; rm" }),
    [
      [
        "send-keys",
        "-t",
        "%3",
        "--",
        "Escape",
        ";",
        "send-keys",
        "-l",
        "-t",
        "%3",
        "--",
        "Enter; rm",
      ],
      // A beat later, so an agent does not take the Enter as part of a paste (Codex).
      ["send-keys", "-t", "%3", "--", "Enter"],
    ],
  );
  assertEquals(textDeliveryCalls("%3", { sequence: ["{text}"], text: "x" }), [
    ["send-keys", "-l", "-t", "%3", "--", "x"],
  ]);
});

Deno.test("act transport A20: an argument ending in ; survives tmux's argv parsing", () => {
  assertEquals(tmuxArg("ls;"), "ls\\;");
  assertEquals(tmuxArg("a\\;"), "a\\\\;");
  assertEquals(tmuxArg("a;b"), "a;b");
});

Deno.test("act transport A27: v1 plane paths and bodies; ids are path-escaped", () => {
  const target = {
    endpoint: "http://127.0.0.1:4096/",
    permissionRequest: "per/1",
    questionRequest: "que_1",
  };
  assertEquals(apiCall({ op: "permission-reply", reply: "always" }, target), {
    url: "http://127.0.0.1:4096/permission/per%2F1/reply",
    body: '{"reply":"always"}',
    held: true,
  });
  assertEquals(
    apiCall({ op: "question-reject" }, target).url,
    "http://127.0.0.1:4096/question/que_1/reject",
  );
  assertEquals(
    apiCall({ op: "question-reply" }, { ...target, answers: [["Red"], []] }).body,
    '{"answers":[["Red"],[]]}',
  );
  assertThrows(() => apiCall({ op: "question-reply" }, target), ApiCallError);
  assertThrows(
    () => apiCall({ op: "question-reject" }, { ...target, questionRequest: null }),
    ApiCallError,
  );
});

const VIEW: PaneView = {
  pane: "%3",
  locator: "main:1.0",
  agent: "claude",
  state: "idle",
  detail: null,
  stampedAt: 1,
  contextPct: null,
  contextAt: null,
  tokens: null,
  tokensAt: null,
  session: null,
  cwd: "/w",
  pid: 42,
  title: "$(rm -rf ~)",
  permissionRequest: null,
  questionRequest: null,
  apiEndpoint: null,
  lock: null,
  height: 40,
  socketPath: "/tmp/tmux-0/default",
};

Deno.test("act transport A22: context env: always-set keys, present requires-keys, args only when given", () => {
  assertEquals(execEnv(VIEW, { action: "x", args: [] }), {
    TMA_PANE: "%3",
    TMA_AGENT: "claude",
    TMA_STATE: "idle",
    TMA_DETAIL: "",
    TMA_LOCATOR: "main:1.0",
    TMA_ACTION: "x",
    TMA_CWD: "/w",
    TMA_PID: "42",
    TMA_TITLE: "$(rm -rf ~)",
    TMA_SOCKET_PATH: "/tmp/tmux-0/default",
  });
  const withArgs = execEnv(VIEW, { action: "x", args: ["a", "b"] });
  assertEquals([withArgs.TMA_ARG, withArgs.TMA_ARG_1, withArgs.TMA_ARG_2, withArgs.TMA_ARG_COUNT], [
    "a",
    "a",
    "b",
    "2",
  ]);
  const env = childEnv({ PATH: "/bin", TMA_ARG_7: "old", TMA_TITLE: "old", TMA_CONFIG: "/c" }, {
    TMA_PANE: "%3",
  });
  assertEquals(env, { PATH: "/bin", TMA_CONFIG: "/c", TMA_PANE: "%3" });
});

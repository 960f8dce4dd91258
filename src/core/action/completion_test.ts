import { assertEquals } from "../../../tests/harness/assert.ts";
import {
  COMPLETION_KEYS,
  completionEnv,
  completionLogLine,
  completionMessage,
  completionOsc,
  completionPayload,
} from "./completion.ts";

const facts = {
  action: "summarize",
  pane: "%3",
  agent: "claude",
  outcome: "exited" as const,
  exitCode: 2,
  locator: "work:2.0",
  lockReleaseFailed: false,
};

Deno.test("completionPayload() P70: the key set in order; lock_release_failed only when it failed", () => {
  const payload = completionPayload(facts);
  assertEquals(Object.keys(payload), COMPLETION_KEYS.slice(0, -1));
  assertEquals(payload.exit_code, 2);
  const failed = completionPayload({ ...facts, lockReleaseFailed: true });
  assertEquals(Object.keys(failed), [...COMPLETION_KEYS]);
  assertEquals(failed.lock_release_failed, true);
  // A timeout or an error has no exit code, whatever was passed.
  assertEquals(completionPayload({ ...facts, outcome: "timeout", exitCode: 143 }).exit_code, null);
});

Deno.test("completionEnv() P70: TMA_EXIT_CODE and TMA_LOCATOR only when set", () => {
  assertEquals(completionEnv(completionPayload(facts)), {
    TMA_ACTION: "summarize",
    TMA_PANE: "%3",
    TMA_AGENT: "claude",
    TMA_OUTCOME: "exited",
    TMA_EXIT_CODE: "2",
    TMA_LOCATOR: "work:2.0",
  });
  assertEquals(
    completionEnv(completionPayload({ ...facts, outcome: "error", exitCode: null, locator: null })),
    { TMA_ACTION: "summarize", TMA_PANE: "%3", TMA_AGENT: "claude", TMA_OUTCOME: "error" },
  );
});

Deno.test("completionLogLine() P64: at after schema; action and outcome, no state", () => {
  const line = JSON.parse(completionLogLine(completionPayload(facts), 1785100000000));
  assertEquals(Object.keys(line), ["schema", "at", ...COMPLETION_KEYS.slice(1, -1)]);
  assertEquals(line.at, 1785100000000);
  assertEquals("state" in line, false);
});

Deno.test("completionMessage() and completionOsc() A24: who, where, how; a closed pane says so", () => {
  assertEquals(
    completionMessage(completionPayload(facts)),
    "tma: summarize at work:2.0 (claude) exited 2",
  );
  assertEquals(
    completionMessage(completionPayload({ ...facts, outcome: "timeout", locator: null })),
    "tma: summarize at %3 (closed) (claude) timed out and was killed",
  );
  assertEquals(completionOsc(completionPayload(facts)), "claude summarize exited");
});

import { assertEquals } from "../../../tests/harness/assert.ts";
import { commandEnv } from "./command.ts";
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

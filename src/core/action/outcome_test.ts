import { assertEquals } from "../../../tests/harness/assert.ts";
import { type ActResult, batchExitCode, exitCodeOf, OUTCOMES, REASONS } from "./outcome.ts";

Deno.test("act outcome P66: the outcome vocabulary is exactly the closed set", () => {
  assertEquals(
    [...OUTCOMES].sort(),
    ["error", "exited", "refused", "replied", "sent", "spawned", "timeout", "vanished"],
  );
});

Deno.test("act outcome P67: the reason vocabulary is the closed set plus prompt-changed (X. Beyond)", () => {
  assertEquals([...REASONS].sort(), [
    "gated",
    "locked",
    "no-coverage",
    "prompt-changed",
    "request-gone",
    "requires-unmet",
    "wrong-agent",
  ]);
});

Deno.test("exitCodeOf() C55: exit codes per outcome and reason", () => {
  assertEquals(exitCodeOf({ outcome: "sent", reason: null }), 0);
  assertEquals(exitCodeOf({ outcome: "replied", reason: null }), 0);
  assertEquals(exitCodeOf({ outcome: "spawned", reason: null }), 0);
  assertEquals(exitCodeOf({ outcome: "exited", reason: null, childCode: 0 }), 0);
  assertEquals(exitCodeOf({ outcome: "exited", reason: null, childCode: 5 }), 5);
  assertEquals(exitCodeOf({ outcome: "timeout", reason: null }), 124);
  for (
    const reason of [
      "gated",
      "requires-unmet",
      "wrong-agent",
      "no-coverage",
      "prompt-changed",
    ] as const
  ) {
    assertEquals(exitCodeOf({ outcome: "refused", reason }), 4, reason);
  }
  assertEquals(exitCodeOf({ outcome: "refused", reason: "locked" }), 5);
  assertEquals(exitCodeOf({ outcome: "vanished", reason: null }), 3);
  assertEquals(exitCodeOf({ outcome: "vanished", reason: "request-gone" }), 3);
  assertEquals(exitCodeOf({ outcome: "error", reason: null }), 1);
});

function r(
  outcome: ActResult["outcome"],
  exit_code: number,
  reason: ActResult["reason"] = null,
): ActResult {
  return { schema: 1, action: "a", pane: "%1", outcome, exit_code, reason };
}

Deno.test("batchExitCode() C46: a batch exits with the worst target's code in the documented order", () => {
  const sent = r("sent", 0);
  const locked = r("refused", 5, "locked");
  const gated = r("refused", 4, "gated");
  const vanished = r("vanished", 3);
  const timeout = r("timeout", 124);
  const child = r("exited", 7);
  const error = r("error", 1);
  assertEquals(batchExitCode([sent]), 0);
  assertEquals(batchExitCode([sent, locked]), 5);
  assertEquals(batchExitCode([locked, gated, sent]), 4);
  assertEquals(batchExitCode([gated, vanished]), 3);
  assertEquals(batchExitCode([vanished, timeout]), 124);
  assertEquals(batchExitCode([timeout, child]), 7);
  assertEquals(batchExitCode([child, error, sent]), 1);
  assertEquals(batchExitCode([r("exited", 0), sent]), 0);
  // Still exit 2..5 from a child: the child's code counts as a child's, not a refusal.
  assertEquals(batchExitCode([r("exited", 4), locked]), 4);
  assertEquals(batchExitCode([r("exited", 3), timeout]), 3);
});

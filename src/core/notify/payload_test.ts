import { assertEquals, assertStringIncludes } from "../../../tests/harness/assert.ts";
import {
  buildPayload,
  logLine,
  messageText,
  type NotifyFacts,
  oscText,
  PAYLOAD_ENV_NAMES,
  PAYLOAD_KEYS,
  payloadEnv,
} from "./payload.ts";

const T = 1_785_100_000_000;
const facts: NotifyFacts = {
  agent: "claude",
  pane: "%3",
  state: "blocked",
  detail: "permission",
  session: "s-1",
  locator: "work:2.0",
  title: "✳ Fix the parser",
  windowName: "api",
  repo: "shop",
  branch: "main",
  episodeMs: T,
  contextPct: 41,
  server: "/tmp/tmux-1000/default",
};

Deno.test("buildPayload() P62 P75 X5: the exact key set, the trigger word in state, the jump command", () => {
  const payload = buildPayload(facts, {
    trigger: "blocked",
    excerpt: "Bash: npm test",
    nowMs: T + 4000,
    direct: false,
  });
  assertEquals(Object.keys(payload), [...PAYLOAD_KEYS]);
  assertEquals(payload.state, "blocked");
  assertEquals(payload.since_ms, 4000);
  assertEquals(payload.reason, "permission");
  assertEquals(payload.jump, "tma jump --pane %3");
  assertEquals(payload.window, "api");
});

Deno.test('buildPayload() P62: since_ms is 0 on a hook\'s direct fire; repo and branch are "" when absent', () => {
  const payload = buildPayload({ ...facts, repo: null, branch: null }, {
    trigger: "done",
    excerpt: null,
    nowMs: T + 4000,
    direct: true,
  });
  assertEquals([payload.since_ms, payload.repo, payload.branch, payload.reason], [
    0,
    "",
    "",
    "done",
  ]);
});

Deno.test("payloadEnv() P63: the always-set names, and the optional ones only with a value", () => {
  const full = payloadEnv(
    buildPayload(facts, { trigger: "blocked", excerpt: "Bash: x", nowMs: T, direct: false }),
  );
  assertEquals(full.TMA_AGENT, "claude");
  assertEquals(full.TMA_STATE, "blocked");
  assertEquals(full.TMA_SINCE_MS, "0");
  assertEquals(full.TMA_CONTEXT_PCT, "41");
  assertEquals(full.TMA_EXCERPT, "Bash: x");
  assertEquals(full.TMA_JUMP, "tma jump --pane %3");
  const bare = payloadEnv(
    buildPayload({
      ...facts,
      detail: null,
      session: null,
      repo: null,
      branch: null,
      contextPct: null,
      server: "",
    }, {
      trigger: "done",
      excerpt: null,
      nowMs: T,
      direct: true,
    }),
  );
  for (
    const name of [
      "TMA_DETAIL",
      "TMA_SESSION",
      "TMA_REPO",
      "TMA_BRANCH",
      "TMA_CONTEXT_PCT",
      "TMA_EXCERPT",
      "TMA_SOCKET_PATH",
    ]
  ) {
    assertEquals(name in bare, false, name);
  }
  for (
    const name of ["TMA_AGENT", "TMA_PANE", "TMA_STATE", "TMA_LOCATOR", "TMA_TITLE", "TMA_SINCE_MS"]
  ) {
    assertEquals(name in bare, true, name);
  }
});

Deno.test("PAYLOAD_ENV_NAMES P63: every name payloadEnv sets, no other", () => {
  const env = payloadEnv(
    buildPayload(facts, { trigger: "blocked", excerpt: "x", nowMs: T, direct: false }),
  );
  assertEquals(Object.keys(env).sort(), [...PAYLOAD_ENV_NAMES].sort());
});

Deno.test("logLine() P64: the payload with at right after schema", () => {
  const payload = buildPayload(facts, {
    trigger: "blocked",
    excerpt: null,
    nowMs: T,
    direct: false,
  });
  const line = JSON.parse(logLine(payload, T + 1));
  assertEquals(Object.keys(line).slice(0, 3), ["schema", "at", "agent"]);
  assertEquals(line.at, T + 1);
});

Deno.test("messageText() X5: who, where, why and the excerpt; control characters in the window name go", () => {
  const payload = buildPayload({ ...facts, windowName: "a\nb\x1b[31m" }, {
    trigger: "blocked",
    excerpt: "Bash: npm test",
    nowMs: T,
    direct: false,
  });
  assertEquals(
    messageText(payload),
    "tma: claude needs you at work:2.0 (a b): permission · Bash: npm test",
  );
  const done = buildPayload(facts, { trigger: "done", excerpt: null, nowMs: T, direct: false });
  assertEquals(messageText(done), "tma: claude is done at work:2.0 (api)");
  assertStringIncludes(
    messageText(
      buildPayload(facts, { trigger: "context_high", excerpt: null, nowMs: T, direct: false }),
    ),
    "context at 41%",
  );
});

Deno.test("oscText() G15 R8: agent and trigger only, never the title", () => {
  assertEquals(
    oscText(buildPayload(facts, { trigger: "blocked", excerpt: "x", nowMs: T, direct: false })),
    "claude blocked",
  );
});

import { assertEquals, assertThrows } from "../../tests/harness/assert.ts";
import { inspectClaudeHooks, installClaudeHooks, uninstallClaudeHooks } from "./claude_hooks.ts";
import { ASYNC_EVENTS, CLAUDE_EVENTS } from "./agents.ts";
import { InstallError, SettingsParseError } from "./errors.ts";

const USER = `{
  // My Claude settings.
  "model": "opus",
  "permissions": { "allow": ["Bash(ls:*)"] },
  "hooks": {
    "PreToolUse": [
      {
        "matcher": "Bash",
        "hooks": [{ "type": "command", "command": "~/bin/guard.sh" }]
      }
    ]
  }
}
`;
const wiring = {
  agent: "claude",
  events: CLAUDE_EVENTS,
  wrapperRef: "/opt/tma/tma-hook",
  asyncEvents: ASYNC_EVENTS.claude,
};

Deno.test("installClaudeHooks() I11, X10: install adds one unmatched group per event, async where the wiring says, and keeps the user's hooks", () => {
  const out = installClaudeHooks(USER, "s.json", wiring);
  const doc = JSON.parse(out.replace(/^\s*\/\/.*$/m, ""));
  for (const event of CLAUDE_EVENTS) {
    const groups = doc.hooks[event];
    const mine = groups.filter((g: { hooks: { command: string }[] }) =>
      g.hooks.some((h) => h.command === `/opt/tma/tma-hook claude ${event}`)
    );
    assertEquals(mine.length, 1);
    assertEquals(mine[0].matcher, undefined);
    assertEquals(mine[0].hooks[0].async, ASYNC_EVENTS.claude.includes(event) ? true : undefined);
  }
  assertEquals(doc.hooks.PreToolUse[0].hooks[0].command, "~/bin/guard.sh");
  assertEquals(
    out.startsWith(
      '{\n  // My Claude settings.\n  "model": "opus",\n  "permissions": { "allow": ["Bash(ls:*)"] },',
    ),
    true,
  );
});

Deno.test("installClaudeHooks() I3: install is idempotent and uninstall gives back the original bytes", () => {
  const once = installClaudeHooks(USER, "s.json", wiring);
  assertEquals(installClaudeHooks(once, "s.json", wiring), once);
  assertEquals(uninstallClaudeHooks(once, "s.json", "claude"), USER);
  assertEquals(uninstallClaudeHooks(USER, "s.json", "claude"), USER);
});

Deno.test("installClaudeHooks() C78: an older wrapper path is repointed in place, and uninstall removes it too", () => {
  const old = installClaudeHooks(USER, "s.json", { ...wiring, wrapperRef: "/old path/tma-hook" });
  const report = inspectClaudeHooks(old, "s.json", wiring);
  assertEquals(report.stale.length, CLAUDE_EVENTS.length);
  const repointed = installClaudeHooks(old, "s.json", wiring);
  assertEquals(
    inspectClaudeHooks(repointed, "s.json", wiring).current.length,
    CLAUDE_EVENTS.length,
  );
  assertEquals(repointed, installClaudeHooks(USER, "s.json", wiring));
  assertEquals(uninstallClaudeHooks(old, "s.json", "claude"), USER);
});

Deno.test("installClaudeHooks() I11: PermissionRequest loses an async flag; duplicates are dropped", () => {
  const text = JSON.stringify(
    {
      hooks: {
        PermissionRequest: [
          {
            hooks: [{
              type: "command",
              command: "/opt/tma/tma-hook claude PermissionRequest",
              async: true,
            }],
          },
        ],
        Stop: [
          { hooks: [{ type: "command", command: "/opt/tma/tma-hook claude Stop" }] },
          { hooks: [{ type: "command", command: "/x/tma-hook claude Stop" }] },
        ],
      },
    },
    null,
    2,
  );
  const before = inspectClaudeHooks(text, "s.json", wiring);
  assertEquals(before.problems, [
    "PermissionRequest entry is async (it must not be)",
    "Stop is wired 2 times",
    "Stop entry is not async (the agent waits on it; rerun install-hooks)",
  ]);
  const out = installClaudeHooks(text, "s.json", wiring);
  const doc = JSON.parse(out);
  assertEquals(doc.hooks.PermissionRequest[0].hooks[0].async, undefined);
  assertEquals(doc.hooks.Stop.length, 1);
  assertEquals(doc.hooks.Stop[0].hooks[0].async, true);
  assertEquals(inspectClaudeHooks(out, "s.json", wiring).problems, []);
});

Deno.test("installClaudeHooks() X10: an older synchronous entry is drift for --check and is upgraded in place, byte for byte", () => {
  const synchronous = installClaudeHooks(USER, "s.json", { ...wiring, asyncEvents: [] });
  const report = inspectClaudeHooks(synchronous, "s.json", wiring);
  assertEquals(report.current.length, CLAUDE_EVENTS.length);
  assertEquals(
    report.problems,
    ASYNC_EVENTS.claude.map((e) =>
      `${e} entry is not async (the agent waits on it; rerun install-hooks)`
    ),
  );
  const upgraded = installClaudeHooks(synchronous, "s.json", wiring);
  assertEquals(upgraded, installClaudeHooks(USER, "s.json", wiring));
  assertEquals(inspectClaudeHooks(upgraded, "s.json", wiring).problems, []);
  // Only the flag was added: removing every `"async": true` gives the synchronous text back.
  assertEquals(upgraded.replace(/,\s*"async": true/g, ""), synchronous);
  assertEquals(uninstallClaudeHooks(upgraded, "s.json", "claude"), USER);
});

Deno.test("installClaudeHooks() R19: a broken or odd-shaped file is refused with its path", () => {
  assertThrows(() => installClaudeHooks('{ "hooks": {', "/h/s.json", wiring), SettingsParseError);
  assertThrows(() => installClaudeHooks('{ "hooks": [] }', "/h/s.json", wiring), InstallError);
  assertThrows(
    () => installClaudeHooks('{ "hooks": { "Stop": {} } }', "/h/s.json", wiring),
    InstallError,
  );
});

Deno.test("installClaudeHooks() I33: an empty or absent file gets just tma's hooks, and uninstall leaves {}", () => {
  const out = installClaudeHooks("", "g.json", {
    agent: "gemini",
    events: ["SessionStart"],
    wrapperRef: "tma-hook",
  });
  assertEquals(JSON.parse(out), {
    hooks: {
      SessionStart: [{ hooks: [{ type: "command", command: "tma-hook gemini SessionStart" }] }],
    },
  });
  assertEquals(uninstallClaudeHooks(out, "g.json", "gemini"), "{}\n");
});

Deno.test("installClaudeHooks() I35: events tma no longer wires are reported by --check and removed by install", () => {
  const gemini = {
    agent: "gemini",
    events: ["SessionStart", "AfterAgent"],
    wrapperRef: "/t/tma-hook",
  };
  // An install made when SubagentStart was wired too (Gemini 0.61 rejects it at every start).
  const older = installClaudeHooks("{}\n", "g.json", {
    ...gemini,
    events: ["SessionStart", "SubagentStart", "AfterAgent"],
  });
  const report = inspectClaudeHooks(older, "g.json", gemini);
  assertEquals([report.current, report.extra], [["SessionStart", "AfterAgent"], ["SubagentStart"]]);
  const fixed = installClaudeHooks(older, "g.json", gemini);
  assertEquals(fixed, installClaudeHooks("{}\n", "g.json", gemini));
  assertEquals(inspectClaudeHooks(fixed, "g.json", gemini).extra, []);
});

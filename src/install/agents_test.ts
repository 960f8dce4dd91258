import { assert, assertEquals } from "../../tests/harness/assert.ts";
import { BUNDLED_AGENTS, BUNDLED_INTEGRATIONS } from "../assets/bundled.ts";
import { parseToml } from "../deps/toml.ts";
import {
  AGENT_NAMES,
  ASYNC_EVENTS,
  CLAUDE_EVENTS,
  CODEX_EVENTS,
  CODEX_NOTIFY_EVENT,
  CURSOR_EVENTS,
  GEMINI_ACCEPTED_EVENTS,
  GEMINI_EVENTS,
  OPENCODE_TOKENS,
  PI_EVENTS,
} from "./agents.ts";
import { renderTemplate, WRAPPER_TOKEN } from "./managed_file.ts";

const WIRED: Record<string, readonly string[]> = {
  claude: CLAUDE_EVENTS,
  codex: [...CODEX_EVENTS, CODEX_NOTIFY_EVENT],
  gemini: GEMINI_EVENTS,
  cursor: CURSOR_EVENTS,
  opencode: OPENCODE_TOKENS,
  pi: PI_EVENTS,
};

Deno.test("every event a bundled manifest maps is one install-hooks wires", () => {
  for (const agent of AGENT_NAMES) {
    const manifest = parseToml(BUNDLED_AGENTS[agent]) as { hooks?: { map?: { event: string }[] } };
    for (const { event } of manifest.hooks?.map ?? []) {
      assert(
        WIRED[agent].includes(event),
        `${agent}: manifest maps ${event}, install-hooks does not wire it`,
      );
    }
  }
});

Deno.test("install agents I11: Claude's wired events are exactly the contract's ten", () => {
  assertEquals([...CLAUDE_EVENTS].sort(), [
    "Notification",
    "PermissionRequest",
    "PostToolUse",
    "PreToolUse",
    "SessionEnd",
    "SessionStart",
    "Stop",
    "SubagentStart",
    "SubagentStop",
    "UserPromptSubmit",
  ]);
});

Deno.test("install agents I41, I59: the bundled templates carry the banner and the wrapper token", () => {
  for (const name of ["opencode-plugin.js", "pi-extension.js"]) {
    const text = BUNDLED_INTEGRATIONS[name];
    assert(text.startsWith("// tma:managed-file"), `${name} lacks the banner`);
    assert(text.includes(WRAPPER_TOKEN), `${name} lacks the token`);
    assert(renderTemplate(text, "/a/tma-hook").includes('const WRAPPER = "/a/tma-hook";'));
  }
});

Deno.test("install agents I35: every Gemini event tma wires is one Gemini 0.61 accepts", () => {
  assertEquals(GEMINI_EVENTS.filter((e) => !GEMINI_ACCEPTED_EVENTS.includes(e)), []);
});

Deno.test("ASYNC_EVENTS X10, I11: every wired Claude event but the answering PermissionRequest", () => {
  assertEquals(
    [...ASYNC_EVENTS.claude].sort(),
    CLAUDE_EVENTS.filter((e) => e !== "PermissionRequest").sort(),
  );
  assertEquals(Object.keys(ASYNC_EVENTS), ["claude"]);
});

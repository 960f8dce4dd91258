import { assertEquals } from "../../../tests/harness/assert.ts";
import { parseScreenFile } from "../rules/screen_file.ts";
import { EXCERPT_MAX, excerptFromPayload, finishExcerpt, questionLine } from "./excerpt.ts";

const SCREENS = new URL("../../../fixtures/screens/", import.meta.url);

function screen(name: string) {
  const path = new URL(`${name}.txt`, SCREENS);
  return parseScreenFile(Deno.readTextFileSync(path), path.pathname);
}

const PAYLOADS = new URL("../../../tests/fixtures_payloads/", import.meta.url);

function payload(path: string): Record<string, unknown> {
  return JSON.parse(Deno.readTextFileSync(new URL(path, PAYLOADS)));
}

Deno.test("excerptFromPayload() X5: the tool and its command from a PermissionRequest", () => {
  assertEquals(excerptFromPayload(payload("claude/PermissionRequest.payload")), "Bash: npm test");
  assertEquals(excerptFromPayload(payload("codex/PermissionRequest.payload")), "Bash: cargo test");
  assertEquals(
    excerptFromPayload({ tool_name: "Write", tool_input: { file_path: "src/a.ts", content: "…" } }),
    "Write: src/a.ts",
  );
  assertEquals(excerptFromPayload({ tool_name: "WebSearch", tool_input: {} }), "WebSearch");
});

Deno.test("excerptFromPayload() X5: Gemini's permission notification, and nothing from an ids-only edge", () => {
  assertEquals(
    excerptFromPayload(payload("gemini/Notification.payload")),
    "Confirm Shell Command: git diff --stat",
  );
  assertEquals(excerptFromPayload(payload("opencode/permission-required.payload")), null);
});

Deno.test("questionLine() X5: the dialog's question on every blocked fixture, never the rest", () => {
  const cases: [string, string][] = [
    ["claude_blocked_bash_w120", "Do you want to proceed?"],
    ["claude_blocked_bash_w80", "Do you want to proceed?"],
    ["codex_blocked_exec_w80", "Reason: Remove the stale build directory before rebuilding?"],
    ["gemini_blocked_shell_w80", "Allow execution of [Shell]?"],
    ["opencode_blocked_question_w80", "Which colour should the primary button use?"],
    [
      "claude_blocked_trust_w120",
      "Quick safety check: Is this a project you created or one you trust?",
    ],
  ];
  for (const [name, question] of cases) {
    const file = screen(name);
    assertEquals(questionLine(file.capture, file.height), question, name);
  }
});

Deno.test("questionLine(): a screen that asks nothing has no question line", () => {
  const file = screen("claude_working_spinner_w120");
  assertEquals(questionLine(file.capture, file.height), null);
  assertEquals(questionLine("? Shell  ls\nplain", null), null);
  // The user's own prompt echo is no dialog's question.
  assertEquals(questionLine("❯ why does it fail?\n✻ Thinking…", null), null);
});

Deno.test("finishExcerpt() X5: one line, redacted like debug redact, cut to 120 characters", () => {
  assertEquals(
    finishExcerpt("Bash: cat /home/ana/notes.txt\nrm x", { home: "/home/ana" }),
    "Bash: cat <path_____________> rm x",
  );
  assertEquals(finishExcerpt("mail ana@example.com\t now", {}), "mail <email________> now");
  const long = finishExcerpt(`Bash: ${"x".repeat(300)}`, {});
  assertEquals([...long].length, EXCERPT_MAX);
  assertEquals(long.endsWith("…"), true);
  assertEquals(finishExcerpt("\x1b[31mred\x1b[0m\r\n$(touch x)`y`", {}), "red $(touch x)`y`");
});

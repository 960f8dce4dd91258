import { charWidth, displayWidth, placeholder, redact } from "./redact.ts";

function assertEquals(actual: unknown, expected: unknown): void {
  const a = JSON.stringify(actual);
  const e = JSON.stringify(expected);
  if (a !== e) throw new Error(`expected ${e}\n  actual ${a}`);
}

// deno-lint-ignore no-control-regex -- stripping escapes is the point
const ESCAPES = /\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?/g;

/** The placeholder `redact()` writes for `source`. */
function mask(label: string, source: string): string {
  return placeholder(label, displayWidth(source));
}

/** Every line's display width, escapes removed. */
function widths(text: string): number[] {
  return text.split("\n").map((line) => displayWidth(line.replace(ESCAPES, "")));
}

Deno.test("redact() C95: replaces absolute paths with a same-width placeholder", () => {
  const line = "  cwd /tmp/tma-e2e-3f2a/claude-w100/tma-demo done";
  const out = redact(line);
  assertEquals(out, `  cwd ${mask("path", "/tmp/tma-e2e-3f2a/claude-w100/tma-demo")} done`);
  assertEquals(out.length, line.length);
});

Deno.test("redact() C95: keeps slash commands and single segments readable", () => {
  const line = "Not logged in · Run /login · /model · /help · 10/20 files";
  assertEquals(redact(line), line);
});

Deno.test("redact() C95: handles ~/ paths, emails and the home folder", () => {
  assertEquals(redact("see ~/.claude/settings.json"), "see <path_________________>");
  assertEquals(
    redact("by ana.b+x@example.co.uk."),
    `by ${mask("email", "ana.b+x@example.co.uk")}.`,
  );
  assertEquals(redact("HOME=/root ok", { home: "/root" }), "HOME=***** ok");
  assertEquals(redact("in /home/ana!", { home: "/home/ana" }), "in <home___>!");
});

Deno.test("redact() C95: leaves web URLs alone but redacts file URLs", () => {
  const web = "docs https://code.claude.com/docs/en/permission-modes";
  assertEquals(redact(web), web);
  assertEquals(redact("open file:///tmp/a/b.txt"), "open <path_____________>");
});

Deno.test("redact() C95: applies literals as whole words and extra patterns", () => {
  assertEquals(redact("vm vmx avm vm", { literals: ["vm"] }), "** vmx avm **");
  assertEquals(
    redact("run tma-e2e-8f36 ready", { patterns: [/tma-e2e-[0-9a-f]+/] }),
    `run ${mask("redacted", "tma-e2e-8f36")} ready`,
  );
  // A non-global pattern is still applied everywhere.
  assertEquals(redact("id-1 id-2", { patterns: [/id-\d/] }), "**** ****");
});

Deno.test("redact() C95: keeps ANSI escapes, even inside a match", () => {
  const input = "\x1b[1m/tmp/a/\x1b[33mbcd\x1b[0m tail";
  const out = redact(input);
  // "/tmp/a/" is 7 columns and "bcd" 3: the placeholder is split 7 + 3 around the escape.
  assertEquals(out, "\x1b[1m<path__\x1b[33m__>\x1b[0m tail");
  assertEquals(widths(out), widths(input));
});

Deno.test("redact() C95: redacts paths inside OSC strings", () => {
  const input = "\x1b]8;;file:///home/ana/x.txt\x1b\\x.txt\x1b]8;;\x1b\\";
  const out = redact(input);
  assertEquals(out.includes("/home/ana"), false);
  assertEquals(out.endsWith("\x1b\\x.txt\x1b]8;;\x1b\\"), true);
});

Deno.test("redact() C95: keeps every line's display width with wide characters", () => {
  const input = [
    "│ /tmp/プロジェクト/src │",
    "  ▝▜▄  /home/ana/dev/app (main)  ✦",
    "plain line",
  ].join("\n");
  const out = redact(input);
  assertEquals(widths(out), widths(input));
  assertEquals(out.includes("プロジェクト"), false);
});

Deno.test("redact() C95: a path ends at a colon, so a branch suffix stays", () => {
  assertEquals(redact("/tmp/x/tma-demo:main"), `${mask("path", "/tmp/x/tma-demo")}:main`);
});

Deno.test("placeholder() and charWidth() basics", () => {
  assertEquals(placeholder("path", 8), "<path__>");
  assertEquals(placeholder("path", 5), "*****");
  assertEquals(placeholder("path", 0), "");
  assertEquals([charWidth("a"), charWidth("界"), charWidth("\u0301"), charWidth("🙂")], [
    1,
    2,
    0,
    2,
  ]);
});

import { assertEquals } from "../../tests/harness/assert.ts";
import { hookCommand, isTmaCommandFor, parseHookArgv, parseHookCommand } from "./hook_command.ts";
import { baseName, dirName, shellQuote, splitShellWords } from "./shell.ts";

Deno.test("shellQuote() leaves safe words bare and single-quotes the rest", () => {
  assertEquals(shellQuote("/usr/bin/tma-hook"), "/usr/bin/tma-hook");
  assertEquals(shellQuote("/a b/it's"), "'/a b/it'\\''s'");
  assertEquals(shellQuote(""), "''");
});

Deno.test("splitShellWords() undoes shellQuote and refuses operators", () => {
  const path = "/home/me/My Tools/it's/tma-hook";
  assertEquals(splitShellWords(`${shellQuote(path)} claude Stop`), [path, "claude", "Stop"]);
  assertEquals(splitShellWords(`"/a \\"b\\"/tma-hook" x y`), ['/a "b"/tma-hook', "x", "y"]);
  assertEquals(splitShellWords("tma-hook claude Stop; rm -rf /"), undefined);
  assertEquals(splitShellWords("echo $(id)"), undefined);
  assertEquals(splitShellWords("'unbalanced"), undefined);
});

Deno.test("shell words I1: tma entries are recognised by wrapper name and agent, at any path", () => {
  assertEquals(hookCommand("/b/tma-hook", "claude", "Stop"), "/b/tma-hook claude Stop");
  assertEquals(parseHookCommand("'/old place/tma-hook' claude Stop"), {
    wrapper: "/old place/tma-hook",
    agent: "claude",
    event: "Stop",
  });
  assertEquals(parseHookCommand("tma-hook gemini AfterAgent")?.agent, "gemini");
  assertEquals(isTmaCommandFor("/x/tma-hook claude Stop", "claude"), true);
  assertEquals(isTmaCommandFor("/x/tma-hook claude Stop", "codex"), false);
  assertEquals(isTmaCommandFor("/x/my-hook claude Stop", "claude"), false);
  assertEquals(isTmaCommandFor("/x/tma-hook claude Stop extra", "claude"), false);
  assertEquals(parseHookArgv(["/w/tma-hook", "codex", "notify"])?.event, "notify");
  assertEquals(parseHookArgv(["notify-send", "done"]), undefined);
});

Deno.test("baseName() and dirName()", () => {
  assertEquals(baseName("/a/b/c"), "c");
  assertEquals(dirName("/a/b/c"), "/a/b");
  assertEquals(dirName("/c"), "/");
  assertEquals(dirName("c"), ".");
});

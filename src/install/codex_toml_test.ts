import { assertEquals, assertThrows } from "../../tests/harness/assert.ts";
import { installCodexNotify, notifyLine, readNotify, uninstallCodexNotify } from "./codex_toml.ts";
import { InstallError, SettingsParseError } from "./errors.ts";

const CONFIG = `# Codex settings
model = "gpt-5" # my favourite
approval_policy = "on-request"

# Docs server
[mcp_servers.docs]
command = "docs-mcp"
`;

Deno.test("installCodexNotify() I23: notify goes after the top-level keys, comments untouched, and comes back out", () => {
  const out = installCodexNotify(CONFIG, "c.toml", "/b/tma-hook");
  assertEquals(
    out,
    CONFIG.replace('"on-request"\n', `"on-request"\n${notifyLine("/b/tma-hook")}\n`),
  );
  assertEquals(notifyLine("/b/tma-hook"), 'notify = ["/b/tma-hook", "codex", "notify"]');
  assertEquals(installCodexNotify(out, "c.toml", "/b/tma-hook"), out);
  assertEquals(uninstallCodexNotify(out, "c.toml"), CONFIG);
});

Deno.test("installCodexNotify() I23: files without tables, without a final newline, or empty round-trip", () => {
  for (
    const text of ['model = "m"', 'model = "m"\n', "", "[tui]\nx = 1\n", "# c\r\nmodel = 1\r\n"]
  ) {
    const out = installCodexNotify(text, "c.toml", "/b/tma-hook");
    assertEquals(readNotify(out, "c.toml").kind, "tma");
    assertEquals(uninstallCodexNotify(out, "c.toml"), text);
  }
});

Deno.test("installCodexNotify() I23: an older tma notify (even multi-line) is repointed", () => {
  const old = 'notify = [\n  "/old/tma-hook",\n  "codex",\n  "notify",\n]\nmodel = "m"\n';
  assertEquals(
    installCodexNotify(old, "c.toml", "/new/tma-hook"),
    `${notifyLine("/new/tma-hook")}\nmodel = "m"\n`,
  );
});

Deno.test("installCodexNotify() R19: a foreign notify is refused, a broken file reports its line", () => {
  const foreign = 'notify = ["notify-send", "Codex"]\n';
  const error = assertThrows(
    () => installCodexNotify(foreign, "/h/c.toml", "/b/tma-hook"),
    InstallError,
  );
  assertEquals(error.message.includes("notify-send"), true);
  assertEquals(uninstallCodexNotify(foreign, "/h/c.toml"), foreign);
  const broken = assertThrows(
    () => installCodexNotify("a = 1\nb = = 2\n", "/h/c.toml", "/b"),
    SettingsParseError,
  );
  assertEquals(broken.line, 2);
});

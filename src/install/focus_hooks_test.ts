import { assertEquals } from "../../tests/harness/assert.ts";
import {
  attentionCommand,
  attentionScript,
  isTmaEntry,
  printedScript,
  serverKey,
} from "./focus_hooks.ts";
import type { Launcher } from "./launcher.ts";

const launcher: Launcher = { argv: ["/opt/my tma/tma"], requires: ["/opt/my tma/tma"] };

Deno.test("focus hooks I4, I12: the hook script finds tma when it fires, sets TMA_HOOK_KIND and never fails", () => {
  const script = attentionScript("after-select-pane", launcher);
  assertEquals(
    script,
    `TMA_HOOK_KIND=after-select-pane "\${TMA_BIN:-tma}" clear-attention '#{pane_id}' 2>/dev/null || true`,
  );
  // Nothing found at install time is embedded: no binary, no checkout.
  assertEquals(script.includes("/opt/my tma/tma"), false);
  const command = attentionCommand("after-select-pane", launcher);
  assertEquals(command.startsWith('run-shell "'), true);
  assertEquals(command.includes('\\"\\${TMA_BIN:-tma}\\"'), true);
  assertEquals(isTmaEntry(command), true);
  assertEquals(isTmaEntry('display-message "hi"'), false);
});

Deno.test("printedScript() I4: reads back what show-hooks prints", () => {
  const printed =
    `run-shell "set -- /b/tma; [ -x '/b/tma' ] || set -- tma; TMA_HOOK_KIND=x \\"$@\\" clear-attention '#{pane_id}' 2>/dev/null || true"`;
  assertEquals(
    printedScript(printed),
    `set -- /b/tma; [ -x '/b/tma' ] || set -- tma; TMA_HOOK_KIND=x "$@" clear-attention '#{pane_id}' 2>/dev/null || true`,
  );
  assertEquals(printedScript("display-message hi"), undefined);
});

Deno.test("focus hooks G32: hooks-state files are named by socket name, or by the sanitised socket path", () => {
  assertEquals(serverKey("/tmp/tmux-1000/default"), "default");
  assertEquals(serverKey("/tmp/tmux-0/tma-test-1"), "tma-test-1");
  assertEquals(serverKey("/run/x y/sock"), "run_x_y_sock");
});

import { assert, assertEquals, assertStringIncludes } from "../../tests/harness/assert.ts";
import {
  buildShim,
  inspectShim,
  installShim,
  parseShim,
  uninstallShim,
} from "./statusline_shim.ts";

const wrapperRef = "/opt/tma/tma-hook";
const WRAPPER = new URL("../../integrations/tma-hook", import.meta.url).pathname;

Deno.test("statusline shim I7: the shim keeps the user's command verbatim and finds it again", () => {
  const inner = `jq -r '.model.display_name' | sed "s/^/[/" # tail comment`;
  const shim = buildShim("claude", wrapperRef, inner);
  assertEquals(parseShim(shim), { agent: "claude", inner });
  assertEquals(parseShim(buildShim("cursor", wrapperRef, undefined)), {
    agent: "cursor",
    inner: undefined,
  });
  assertEquals(parseShim(inner), undefined);
  assertStringIncludes(shim, "/opt/tma/tma-hook claude context");
});

Deno.test("statusline shim I7: install wraps, re-install is a no-op, uninstall unwinds; siblings byte-faithful", () => {
  const text = '{\n  "statusLine": { "type": "command", "command": "~/sl.sh", "padding": 2 }\n}\n';
  const out = installShim(text, "s.json", { agent: "claude", wrapperRef });
  assertEquals(
    out.startsWith('{\n  "statusLine": { "type": "command", "command": ": tma-statusline-shim'),
    true,
  );
  assertEquals(out.endsWith('~/sl.sh\\n}", "padding": 2 }\n}\n'), true);
  assertEquals(installShim(out, "s.json", { agent: "claude", wrapperRef }), out);
  assertEquals(inspectShim(out, "s.json", { agent: "claude", wrapperRef }), "present");
  assertEquals(uninstallShim(out, "s.json"), text);
});

Deno.test("statusline shim I7: a moved wrapper reads stale and a re-install keeps a hand-edited inner command", () => {
  const text = '{ "statusLine": { "type": "command", "command": "old.sh" } }';
  const out = installShim(text, "s.json", { agent: "claude", wrapperRef });
  const edited = out.replace("old.sh", "new.sh");
  const moved = "/usr/bin/tma-hook";
  assertEquals(inspectShim(edited, "s.json", { agent: "claude", wrapperRef: moved }), "stale");
  const again = installShim(edited, "s.json", { agent: "claude", wrapperRef: moved });
  assertEquals(parseShim(JSON.parse(again).statusLine.command)?.inner, "new.sh");
  assertEquals(uninstallShim(again, "s.json"), text.replace("old.sh", "new.sh"));
});

Deno.test("statusline shim I7: with no statusLine the shim is tma alone and uninstall removes what it added", () => {
  const text = '{\n  "model": "x"\n}\n';
  const out = installShim(text, "s.json", { agent: "cursor", wrapperRef });
  assertEquals(JSON.parse(out).statusLine.type, "command");
  assertEquals(uninstallShim(out, "s.json"), text);
});

async function runSh(script: string, stdin: string, env: Record<string, string>): Promise<string> {
  const child = new Deno.Command("sh", {
    args: ["-c", script],
    stdin: "piped",
    stdout: "piped",
    env,
  }).spawn();
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode(stdin));
  await writer.close();
  return new TextDecoder().decode((await child.output()).stdout);
}

Deno.test("statusline shim I7, I12: the shim forwards the payload through the wrapper to the tma found at fire time and pipes the same bytes to the user's command", async () => {
  const dir = await Deno.makeTempDir({ prefix: "tma-shim-" });
  try {
    const recorder = `${dir}/tma`;
    await Deno.writeTextFile(
      recorder,
      `#!/bin/sh\n{ printf '%s\\n' "$*"; cat; } > '${dir}/got.tmp'; mv '${dir}/got.tmp' '${dir}/got'\n`,
    );
    await Deno.chmod(recorder, 0o755);
    const shim = buildShim("claude", WRAPPER, "tr a-z A-Z");
    const payload = '{"model":"opus"}\n\n';
    // The wrapper's foreground mode hands the recorder the payload itself (its
    // queue and drainer are tested in tests/hook_queue_test.ts).
    const scratch = { XDG_RUNTIME_DIR: `${dir}/run`, TMA_HOOK_FOREGROUND: "1" };
    assertEquals(
      await runSh(shim, payload, {
        TMUX_PANE: "%9",
        PATH: "/usr/bin:/bin",
        TMA_BIN: recorder,
        ...scratch,
      }),
      '{"MODEL":"OPUS"}\n\n',
    );
    let got: string | undefined;
    for (let i = 0; i < 200 && got === undefined; i++) {
      got = await Deno.readTextFile(`${dir}/got`).catch(() => undefined);
      if (got === undefined) await new Promise((r) => setTimeout(r, 25));
    }
    assertEquals(got, `event --agent claude --kind context --pane %9 --payload -\n${payload}`);
    // Nothing names a tma binary or a checkout: only the wrapper.
    assert(!shim.includes(Deno.execPath()) && !shim.includes("mod.ts"), shim);
    // No user command: tma answers in the foreground, through the wrapper, with its own line.
    const speaker = `${dir}/tma-speaks`;
    await Deno.writeTextFile(speaker, `#!/bin/sh\ncat >/dev/null; printf 'args: %s\\n' "$*"\n`);
    await Deno.chmod(speaker, 0o755);
    const own = buildShim("claude", WRAPPER, undefined);
    assertEquals(
      await runSh(own, payload, {
        TMUX_PANE: "%9",
        PATH: "/usr/bin:/bin",
        TMA_BIN: speaker,
        ...scratch,
      }),
      "args: event --agent claude --kind context --pane %9 --payload - --print-status\n",
    );
    // A missing wrapper or tma is quiet.
    const bare = buildShim("claude", `${dir}/gone`, undefined);
    assertEquals(await runSh(bare, payload, { PATH: "/usr/bin:/bin", ...scratch }), "");
    assertEquals(
      await runSh(buildShim("claude", WRAPPER, undefined), payload, {
        PATH: "/usr/bin:/bin",
        ...scratch,
      }),
      "",
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

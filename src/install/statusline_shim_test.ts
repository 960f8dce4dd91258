import { assertEquals, assertStringIncludes } from "../../tests/harness/assert.ts";
import type { Launcher } from "./launcher.ts";
import {
  buildShim,
  inspectShim,
  installShim,
  parseShim,
  uninstallShim,
} from "./statusline_shim.ts";

const launcher: Launcher = { argv: ["/opt/tma/tma"], requires: ["/opt/tma/tma"] };

Deno.test("statusline shim I7: the shim keeps the user's command verbatim and finds it again", () => {
  const inner = `jq -r '.model.display_name' | sed "s/^/[/" # tail comment`;
  const shim = buildShim("claude", launcher, inner);
  assertEquals(parseShim(shim), { agent: "claude", inner });
  assertEquals(parseShim(buildShim("cursor", launcher, undefined)), {
    agent: "cursor",
    inner: undefined,
  });
  assertEquals(parseShim(inner), undefined);
  assertStringIncludes(shim, 'event --agent claude --kind context --pane "$TMUX_PANE" --payload -');
});

Deno.test("statusline shim I7: install wraps, re-install is a no-op, uninstall unwinds; siblings byte-faithful", () => {
  const text = '{\n  "statusLine": { "type": "command", "command": "~/sl.sh", "padding": 2 }\n}\n';
  const out = installShim(text, "s.json", { agent: "claude", launcher });
  assertEquals(
    out.startsWith('{\n  "statusLine": { "type": "command", "command": ": tma-statusline-shim'),
    true,
  );
  assertEquals(out.endsWith('~/sl.sh\\n}", "padding": 2 }\n}\n'), true);
  assertEquals(installShim(out, "s.json", { agent: "claude", launcher }), out);
  assertEquals(inspectShim(out, "s.json", { agent: "claude", launcher }), "present");
  assertEquals(uninstallShim(out, "s.json"), text);
});

Deno.test("statusline shim I7: a moved binary reads stale and a re-install keeps a hand-edited inner command", () => {
  const text = '{ "statusLine": { "type": "command", "command": "old.sh" } }';
  const out = installShim(text, "s.json", { agent: "claude", launcher });
  const edited = out.replace("old.sh", "new.sh");
  const moved: Launcher = { argv: ["/usr/bin/tma"], requires: ["/usr/bin/tma"] };
  assertEquals(inspectShim(edited, "s.json", { agent: "claude", launcher: moved }), "stale");
  const again = installShim(edited, "s.json", { agent: "claude", launcher: moved });
  assertEquals(parseShim(JSON.parse(again).statusLine.command)?.inner, "new.sh");
  assertEquals(uninstallShim(again, "s.json"), text.replace("old.sh", "new.sh"));
});

Deno.test("statusline shim I7: with no statusLine the shim is tma alone and uninstall removes what it added", () => {
  const text = '{\n  "model": "x"\n}\n';
  const out = installShim(text, "s.json", { agent: "cursor", launcher });
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

Deno.test("statusline shim I7: the shim forwards the payload to tma event and pipes the same bytes to the user's command", async () => {
  const dir = await Deno.makeTempDir({ prefix: "tma-shim-" });
  try {
    const recorder = `${dir}/tma`;
    await Deno.writeTextFile(
      recorder,
      `#!/bin/sh\n{ printf '%s\\n' "$*"; cat; } > '${dir}/got.tmp'; mv '${dir}/got.tmp' '${dir}/got'\n`,
    );
    await Deno.chmod(recorder, 0o755);
    const shim = buildShim("claude", { argv: [recorder], requires: [recorder] }, "tr a-z A-Z");
    const payload = '{"model":"opus"}\n\n';
    assertEquals(
      await runSh(shim, payload, { TMUX_PANE: "%9", PATH: "/usr/bin:/bin" }),
      '{"MODEL":"OPUS"}\n\n',
    );
    let got: string | undefined;
    for (let i = 0; i < 200 && got === undefined; i++) {
      got = await Deno.readTextFile(`${dir}/got`).catch(() => undefined);
      if (got === undefined) await new Promise((r) => setTimeout(r, 25));
    }
    assertEquals(got, `event --agent claude --kind context --pane %9 --payload -\n${payload}`);
    // No user command: tma answers in the foreground with its own line.
    const speaker = `${dir}/tma-speaks`;
    await Deno.writeTextFile(speaker, `#!/bin/sh\ncat >/dev/null; printf 'args: %s\\n' "$*"\n`);
    await Deno.chmod(speaker, 0o755);
    const own = buildShim("claude", { argv: [speaker], requires: [speaker] }, undefined);
    assertEquals(
      await runSh(own, payload, { TMUX_PANE: "%9", PATH: "/usr/bin:/bin" }),
      "args: event --agent claude --kind context --pane %9 --payload - --print-status\n",
    );
    // A missing binary falls back quietly.
    const bare = buildShim(
      "claude",
      { argv: [`${dir}/gone`], requires: [`${dir}/gone`] },
      undefined,
    );
    assertEquals(await runSh(bare, payload, { PATH: "/usr/bin:/bin" }), "");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

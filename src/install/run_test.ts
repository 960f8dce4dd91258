import { assertEquals, assertStringIncludes } from "../../tests/harness/assert.ts";
import { type InstallHooksDeps, runInstallHooks } from "./run.ts";
import { resolveInstallPaths } from "./paths.ts";

async function fixture(answer: boolean | undefined) {
  const home = await Deno.makeTempDir({ prefix: "tma-run-" });
  const env = (name: string) =>
    ({ HOME: home, PATH: "/usr/bin:/bin" } as Record<string, string>)[name];
  const out: string[] = [];
  const asked: string[] = [];
  const deps: InstallHooksDeps = {
    paths: resolveInstallPaths({ flags: {}, env, execPath: "/usr/bin/deno" }),
    launcher: { argv: ["/opt/tma"], requires: ["/opt/tma"] },
    configWrapperRef: "absolute",
    env,
    // A server that is not there: the tmux hooks are skipped.
    server: () =>
      Promise.resolve({ bin: "tmux", socketName: `tma-none-${crypto.randomUUID().slice(0, 8)}` }),
    out: (text) => void out.push(text),
    err: (text) => void out.push(text),
    confirm: answer === undefined ? undefined : (question) => {
      asked.push(question);
      return Promise.resolve(answer);
    },
  };
  return { home, deps, out, asked };
}

const request = { agent: "pi", check: false, uninstall: false, all: false, yes: false };

Deno.test("runInstallHooks() C76: on a terminal the diff is shown and a no writes nothing", async () => {
  const { home, deps, out, asked } = await fixture(false);
  try {
    assertEquals(await runInstallHooks(request, deps), 1);
    assertEquals(asked, ["Apply these changes? [y/N] "]);
    assertStringIncludes(out.join(""), `+++ ${home}/.pi/agent/extensions/tma.js`);
    assertStringIncludes(out.join(""), "declined");
    assertEquals(await Deno.stat(`${home}/.pi`).catch(() => null), null);
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("runInstallHooks() C76: on a terminal a yes writes, and a second run asks nothing", async () => {
  const { home, deps, out, asked } = await fixture(true);
  try {
    assertEquals(await runInstallHooks(request, deps), 0);
    assertStringIncludes(
      await Deno.readTextFile(`${home}/.pi/agent/extensions/tma.js`),
      "tma:managed-file",
    );
    assertStringIncludes(out.join(""), "tmux hooks skipped");
    assertEquals(await runInstallHooks(request, deps), 0);
    assertEquals(asked.length, 1);
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

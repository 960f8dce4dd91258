/**
 * The README's path for a new user, run as written: install tma with the
 * README's `deno install` line (no "discovered config file" warning), run
 * `tma init --yes`, add the line it prints to the tmux config, and the
 * status line runs tma. Also the other first words a newcomer meets: `tma
 * help`, examples in `--help`, an error outside tmux that says how to pick a
 * server.
 * @module
 */
import { assert, assertEquals, assertStringIncludes } from "./harness/assert.ts";
import { runProcess } from "./harness/process.ts";
import { runTma, tmuxTest } from "./harness/tmux.ts";
import { STATUS_RIGHT_LINE } from "../src/cli/commands/init.ts";

const ROOT = new URL("../", import.meta.url).pathname;

/** The README's `deno install` command as argv, with `--root` pointed at a scratch folder. */
async function readmeInstall(root: string): Promise<string[]> {
  const readme = await Deno.readTextFile(`${ROOT}README.md`);
  const block = /```sh\n(deno install --global[^`]*)```/.exec(readme)?.[1];
  assert(block, "README.md has no deno install block");
  const words = block.replace(/\\\n/g, " ").replace(/#.*$/gm, "").trim().split(/\s+/);
  assertEquals(words.slice(0, 3), ["deno", "install", "--global"]);
  return [...words.slice(1, 3), "--root", root, ...words.slice(3)];
}

tmuxTest(
  "README C74: install tma as the README says, tma init --yes, add the printed line: the status line runs tma",
  async (t) => {
    const root = `${t.dir}/deno-root`;
    const installed = await runProcess(Deno.execPath(), {
      args: await readmeInstall(root),
      env: t.env(),
      cwd: ROOT,
    });
    assertEquals(installed.code, 0, installed.stderr);
    assertEquals(
      installed.stderr.includes("discovered config file"),
      false,
      `the README's install line warns:\n${installed.stderr}`,
    );
    const agents = `${t.dir}/agents`;
    await Deno.mkdir(agents);
    await Deno.writeTextFile(`${agents}/claude`, "#!/bin/sh\nexit 0\n");
    await Deno.chmod(`${agents}/claude`, 0o755);
    const env = t.env({ PATH: `${root}/bin:${agents}:${Deno.env.get("PATH")}` });
    const tma = (args: string[]) =>
      runProcess(`${root}/bin/tma`, { args: ["--socket-name", t.socketName, ...args], env });

    const init = await tma(["init", "--yes"]);
    assertEquals(init.code, 0, init.stdout + init.stderr);
    assertStringIncludes(init.stdout, `found claude (${agents}/claude)`);
    assertStringIncludes(init.stdout, `  ${STATUS_RIGHT_LINE}\n`);
    assertStringIncludes(init.stdout, `wrapper: ${t.home}/.local/bin/tma-hook present, finds `);

    // The user adds the printed line to the tmux config init marked, and reloads it.
    const conf = `${t.home}/.config/tmux/tmux.conf`;
    await Deno.writeTextFile(conf, `${await Deno.readTextFile(conf)}${STATUS_RIGHT_LINE}\n`);
    await t.tmux("source-file", conf);
    assertStringIncludes(await t.tmux("show-options", "-gv", "status-right"), "#(tma status)");
    const status = await tma(["status"]);
    assertEquals(status.code, 0, status.stderr);
    const doctor = await tma(["doctor"]);
    assertStringIncludes(doctor.stdout, "ambient: status-right runs tma status");
  },
);

tmuxTest("help: tma help and tma help CMD print the help, with examples", async (t) => {
  const top = await runTma(t, ["help"]);
  assertEquals(top.code, 0);
  assertStringIncludes(top.stdout, "New here? `tma init`");
  const doctor = await runTma(t, ["help", "doctor"]);
  assertStringIncludes(doctor.stdout, "examples:\n  tma doctor ");
  assertEquals((await runTma(t, ["doctor", "--help"])).stdout, doctor.stdout);
  assertEquals((await runTma(t, ["help", "nosuch"])).code, 2);
});

tmuxTest(
  "C4: outside tmux, the error names the socket it tried and how to pick another",
  async (t) => {
    const ran = await runTma(t, ["--socket-name", `${t.socketName}-gone`, "ls"]);
    assertEquals(ran.code, 11);
    assertStringIncludes(ran.stderr, `no tmux server on socket name ${t.socketName}-gone`);
    assertStringIncludes(
      ran.stderr,
      "pick another server with -L NAME, -S PATH or TMA_SOCKET_PATH",
    );
  },
);

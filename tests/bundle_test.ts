/**
 * U45: the single-file bundle runs with `deno run --no-config` under the
 * documented permissions, from a folder with no deno.json, and carries its
 * npm packages and manifests inside. Its start-up imports no `node:` module
 * (issue 14: one would start Deno's Node layer on every run), and with reads and
 * writes limited to a scratch folder it still finds its manifests, actions
 * and hook files: what a compiled binary carries, it carries.
 * @module
 */
import { assert, assertEquals, assertMatch } from "./harness/assert.ts";
import { HAS_TMUX, withScratchTmux } from "./harness/tmux.ts";
import { checkEmbeddedAssets } from "./harness/embedded_assets.ts";
import { buildBundle } from "../scripts/bundle.ts";
import { staticImports } from "../scripts/bundle_layout.ts";
import { RUN_PERMISSIONS } from "../src/core/permissions.ts";
import { ENGINE_VERSION } from "../src/core/version.ts";

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the bundle as a user would: `deno run --no-config <permissions> tma.js ...`. */
async function runBundle(
  bundle: string,
  args: string[],
  options: { cwd: string; env?: Record<string, string>; permissions?: readonly string[] },
): Promise<Run> {
  const permissions = options.permissions ?? RUN_PERMISSIONS;
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--quiet", "--no-config", ...permissions, bundle, ...args],
    cwd: options.cwd,
    env: options.env,
    clearEnv: options.env !== undefined,
    stdin: "null",
  }).output();
  const decoder = new TextDecoder();
  return { code: out.code, stdout: decoder.decode(out.stdout), stderr: decoder.decode(out.stderr) };
}

Deno.test("dist/tma.js U45: the bundle runs with deno run --no-config and the documented permissions", async (t) => {
  const dir = await Deno.makeTempDir({ prefix: "tma-bundle-" });
  try {
    const { path, bytes } = await buildBundle({ output: `${dir}/tma.js`, skipEmbed: true });
    assert(bytes > 0, `${path} is empty`);
    const text = await Deno.readTextFile(path);
    assert(text.startsWith("#!/usr/bin/env -S deno run --no-config --allow-"), "no shebang line");
    assert(!/from\s*["']npm:/.test(text), "the bundle still imports an npm: specifier");
    const cwd = `${dir}/elsewhere`;
    await Deno.mkdir(cwd);

    await t.step("the start-up imports no node: module (U45, issue 14)", () => {
      const staticNode = staticImports(text).filter((specifier) => specifier.startsWith("node:"));
      assertEquals(staticNode, [], "a static node: import starts Deno's Node layer on every run");
    });

    await t.step("--version prints tma <version>", async () => {
      const run = await runBundle(path, ["--version"], { cwd });
      assertEquals(run.code, 0, run.stderr);
      assertEquals(run.stdout, `tma ${ENGINE_VERSION}\n`);
    });

    await t.step("--help prints the usage and exits 0", async () => {
      const run = await runBundle(path, ["--help"], { cwd });
      assertEquals(run.code, 0, run.stderr);
      assertMatch(run.stdout, /usage: tma /);
    });

    await t.step({
      name: "ls --json lists a scratch server's agents",
      ignore: !HAS_TMUX,
      fn: () =>
        withScratchTmux(async (scratch) => {
          const run = await runBundle(path, ["--socket-name", scratch.socketName, "ls", "--json"], {
            cwd,
            env: scratch.env(),
          });
          assertEquals(run.code, 0, run.stderr);
          const doc = JSON.parse(run.stdout);
          assertEquals(doc.schema, 1);
          assert(Array.isArray(doc.agents), run.stdout);
        }),
    });

    await t.step({
      name: "the lazy chunks (zod, re2js) load on first use: a user manifest is read (issue 14)",
      ignore: !HAS_TMUX,
      fn: () =>
        withScratchTmux(async (scratch) => {
          const agents = `${scratch.home}/.config/tma/agents`;
          await Deno.mkdir(agents, { recursive: true });
          await Deno.copyFile(
            new URL("../manifests/claude.toml", import.meta.url),
            `${agents}/claude.toml`,
          );
          const agent = await scratch.standIn("claude", { title: "✳ Claude Code" });
          const run = await runBundle(path, ["--socket-name", scratch.socketName, "ls", "--json"], {
            cwd,
            env: scratch.env(),
          });
          assertEquals(run.code, 0, run.stderr);
          // A user manifest that failed to load would be skipped with a warning.
          assertEquals(run.stderr, "");
          const listed = JSON.parse(run.stdout).agents as { pane: string; agent: string }[];
          assertEquals(listed.map((a) => [a.pane, a.agent]), [[agent.pane, "claude"]]);
        }),
    });

    await t.step({
      name: "reads and writes limited to a scratch folder: embedded manifests, actions, hook files",
      ignore: !HAS_TMUX,
      fn: () =>
        withScratchTmux(async (scratch) => {
          const bundle = `${scratch.dir}/tma.js`;
          await Deno.copyFile(path, bundle);
          await checkEmbeddedAssets(scratch, (args, permissions) =>
            runBundle(bundle, args, { cwd: scratch.home, env: scratch.env(), permissions }));
        }),
    });
  } finally {
    await Deno.remove(dir, { recursive: true }).catch(() => undefined);
  }
});

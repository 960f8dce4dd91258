/**
 * U45: the single-file bundle runs with `deno run --no-config` under the
 * documented permissions, from a folder with no deno.json, and carries its
 * npm packages and manifests inside.
 * @module
 */
import { assert, assertEquals, assertMatch } from "./harness/assert.ts";
import { HAS_TMUX, withScratchTmux } from "./harness/tmux.ts";
import { buildBundle } from "../scripts/bundle.ts";
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
  options: { cwd: string; env?: Record<string, string> },
): Promise<Run> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--quiet", "--no-config", ...RUN_PERMISSIONS, bundle, ...args],
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
  } finally {
    await Deno.remove(dir, { recursive: true }).catch(() => undefined);
  }
});

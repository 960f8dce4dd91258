/**
 * tma runs straight from a URL: `deno run <permissions> <url>/mod.ts`, with no
 * deno.json and no import map. The repository is served read-only over
 * loopback HTTP and run from an empty folder, which proves that no module
 * needs a bare specifier resolved by a local config (every external import is
 * a full `npm:` specifier in `src/deps/`). Run with reads limited to a scratch
 * folder, it still finds its manifests, actions and hook files (issue 14).
 * @module
 */
import { assert, assertEquals } from "./harness/assert.ts";
import { HAS_TMUX, withScratchTmux } from "./harness/tmux.ts";
import { checkEmbeddedAssets } from "./harness/embedded_assets.ts";
import { RUN_PERMISSIONS } from "../src/core/permissions.ts";
import { ENGINE_VERSION } from "../src/core/version.ts";

const ROOT = new URL("../", import.meta.url);

const TYPES: Record<string, string> = {
  ".ts": "application/typescript; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".json": "application/json; charset=utf-8",
};

/** Serves the files of the repository (GET and HEAD only) on 127.0.0.1 at a free port. */
function serveRepository(): Deno.HttpServer<Deno.NetAddr> {
  return Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (request) => {
    if (request.method !== "GET" && request.method !== "HEAD") {
      return new Response("read-only", { status: 405 });
    }
    // URL parsing has already folded any `..`, so the path stays inside ROOT.
    const file = new URL(`.${new URL(request.url).pathname}`, ROOT);
    const body = await Deno.readFile(file).catch(() => null);
    if (!body) return new Response("not found", { status: 404 });
    const type = TYPES[/\.[a-z]+$/.exec(file.pathname)?.[0] ?? ""] ?? "text/plain";
    return new Response(request.method === "HEAD" ? null : body, {
      headers: { "content-type": type },
    });
  });
}

/** Runs `<base>/mod.ts` with the documented permissions from an empty folder. */
async function runFromUrl(
  base: string,
  args: string[],
  options: { cwd: string; env?: Record<string, string>; permissions?: readonly string[] },
): Promise<{ code: number; stdout: string; stderr: string }> {
  const host = new URL(base).host;
  const out = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--quiet",
      "--no-config",
      `--allow-import=${host}`,
      ...options.permissions ?? RUN_PERMISSIONS,
      `${base}/mod.ts`,
      ...args,
    ],
    cwd: options.cwd,
    env: options.env,
    clearEnv: options.env !== undefined,
    stdin: "null",
  }).output();
  const decoder = new TextDecoder();
  return { code: out.code, stdout: decoder.decode(out.stdout), stderr: decoder.decode(out.stderr) };
}

Deno.test("tma runs from a URL with no deno.json beside it", async (t) => {
  const server = serveRepository();
  const base = `http://127.0.0.1:${server.addr.port}`;
  const cwd = await Deno.makeTempDir({ prefix: "tma-from-url-" });
  try {
    await t.step("--version prints tma <version>", async () => {
      const run = await runFromUrl(base, ["--version", "--no-config"], { cwd });
      assertEquals(run.code, 0, run.stderr);
      assertEquals(run.stdout, `tma ${ENGINE_VERSION}\n`);
    });

    // ls loads the bundled manifests through the TOML and zod packages, so
    // the npm imports of src/deps/ are exercised too.
    await t.step({
      name: "ls --json reads a scratch server",
      ignore: !HAS_TMUX,
      fn: () =>
        withScratchTmux(async (scratch) => {
          const run = await runFromUrl(
            base,
            ["--socket-name", scratch.socketName, "--no-config", "ls", "--json"],
            { cwd, env: scratch.env() },
          );
          assertEquals(run.code, 0, run.stderr);
          const doc = JSON.parse(run.stdout);
          assertEquals(doc.schema, 1);
          assert(Array.isArray(doc.agents), run.stdout);
        }),
    });

    // What a compiled binary carries: nothing of the checkout is readable.
    await t.step({
      name: "reads and writes limited to a scratch folder: embedded manifests, actions, hook files",
      ignore: !HAS_TMUX,
      fn: () =>
        withScratchTmux((scratch) =>
          checkEmbeddedAssets(
            scratch,
            (args, permissions) =>
              runFromUrl(base, args, { cwd: scratch.home, env: scratch.env(), permissions }),
            { keys: false },
          )
        ),
    });
  } finally {
    await server.shutdown();
    await Deno.remove(cwd, { recursive: true }).catch(() => undefined);
  }
});

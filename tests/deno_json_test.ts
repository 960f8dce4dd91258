/**
 * deno.json agrees with the code and the documentation: one version, one
 * entrypoint, and fine-grained permissions everywhere (never `-A`, U45).
 * @module
 */
import { assert, assertEquals } from "./harness/assert.ts";
import { ENGINE_VERSION } from "../src/core/version.ts";
import { RUN_PERMISSIONS } from "../src/core/permissions.ts";

const ROOT = new URL("../", import.meta.url);

interface DenoJson {
  version?: unknown;
  exports?: unknown;
  tasks?: Record<string, unknown>;
}

const DENO_JSON: DenoJson = JSON.parse(await Deno.readTextFile(new URL("deno.json", ROOT)));

/** `-A` as a flag of its own, or `--allow-all`. */
const ALLOW_ALL = /(^|\s)(-A|--allow-all)(?=[\s=]|$)/;

/** The Markdown files of the project: README.md and docs/, at any depth. */
async function docs(): Promise<URL[]> {
  const found: URL[] = [];
  async function walk(folder: URL): Promise<void> {
    for await (const entry of Deno.readDir(folder)) {
      const url = new URL(entry.name + (entry.isDirectory ? "/" : ""), folder);
      if (entry.isDirectory) await walk(url);
      else if (entry.name.endsWith(".md")) found.push(url);
    }
  }
  for await (const entry of Deno.readDir(ROOT)) {
    if (entry.isFile && entry.name.endsWith(".md")) found.push(new URL(entry.name, ROOT));
  }
  const folder = new URL("docs/", ROOT);
  if ((await Deno.stat(folder).catch(() => null))?.isDirectory) await walk(folder);
  return found;
}

Deno.test("deno.json version is ENGINE_VERSION of src/core/version.ts", () => {
  assertEquals(
    DENO_JSON.version,
    ENGINE_VERSION,
    "deno.json's version and ENGINE_VERSION in src/core/version.ts must be bumped together",
  );
});

Deno.test("deno.json exports ./mod.ts, the one entrypoint", () => {
  assertEquals(DENO_JSON.exports, "./mod.ts");
});

Deno.test("deno.json's check task type-checks the doc examples of src/ too", () => {
  const task = DENO_JSON.tasks?.check;
  assert(typeof task === "string", "deno.json has no tasks.check");
  assert(
    /deno check (--doc|--doc-only)\b[^&]*\bsrc\//.test(task),
    `tasks.check must run deno check --doc(-only) over src/ so examples compile: ${task}`,
  );
});

Deno.test("deno.json U45: no deno.json task grants every permission", () => {
  const tasks = Object.entries(DENO_JSON.tasks ?? {});
  assert(tasks.length > 0, "deno.json has no tasks");
  for (const [name, task] of tasks) {
    const command = typeof task === "string" ? task : JSON.stringify(task);
    assert(!ALLOW_ALL.test(command), `deno.json tasks.${name} grants all permissions: ${command}`);
  }
});

Deno.test("deno.json U45: tma's permissions are fine-grained", () => {
  for (const flag of RUN_PERMISSIONS) {
    assert(!ALLOW_ALL.test(flag), `src/core/permissions.ts grants all permissions: ${flag}`);
  }
  const net = RUN_PERMISSIONS.find((flag) => flag.startsWith("--allow-net"));
  assert(
    !net || net.startsWith("--allow-net="),
    "src/core/permissions.ts: --allow-net needs hosts",
  );
});

/** The `--allow-*` words of a command line or a block of text, in order. */
function allowFlags(text: string): string[] {
  return text.split(/\s+/).filter((word) => word.startsWith("--allow-"));
}

Deno.test("deno.json U45: deno.json's tma task runs with exactly RUN_PERMISSIONS", () => {
  const task = DENO_JSON.tasks?.tma;
  assert(typeof task === "string", "deno.json has no tasks.tma");
  assertEquals(
    allowFlags(task),
    [...RUN_PERMISSIONS],
    "deno.json tasks.tma differs from src/core/permissions.ts: make them agree",
  );
});

Deno.test("deno.json U45: the README installs and documents exactly RUN_PERMISSIONS", async () => {
  const readme = await Deno.readTextFile(new URL("README.md", ROOT));
  const install = /```sh\n(deno install --global[^`]*)```/.exec(readme)?.[1];
  assert(install, "README.md has no ```sh block with deno install --global");
  assertEquals(
    allowFlags(install),
    [...RUN_PERMISSIONS],
    "README.md's deno install differs from src/core/permissions.ts",
  );
  const table = [...readme.matchAll(/^\| `(--allow-[^`]+)` +\|/gm)].map((m) => m[1]);
  assertEquals(
    [...table].sort(),
    [...RUN_PERMISSIONS].sort(),
    "README.md's permission table differs from src/core/permissions.ts",
  );
});

Deno.test("deno.json U45: no document tells a user to run deno with -A or --allow-all", async () => {
  const problems: string[] = [];
  for (const doc of await docs()) {
    const lines = (await Deno.readTextFile(doc)).split("\n");
    lines.forEach((line, index) => {
      // `-A` alone is a flag of other programs too (tmux new -A): flag it on a deno line only.
      const denoAll = /\bdeno\b/.test(line) && ALLOW_ALL.test(line);
      if (denoAll || /--allow-all\b/.test(line)) {
        problems.push(`${doc.pathname.slice(ROOT.pathname.length)}:${index + 1}: ${line.trim()}`);
      }
    });
  }
  assert(
    problems.length === 0,
    `use the documented permissions instead:\n  ${problems.join("\n  ")}`,
  );
});

/**
 * What a compiled binary must carry, checked on the runs we can make here
 * (`deno compile` cannot download its runtime): the bundle and the from-URL
 * run, with `--allow-read` and `--allow-write` limited to a scratch folder
 * (and tmux's own folder, where the binary is looked up), so no file of
 * the checkout is readable and every manifest, action and hook file must come
 * from the embedded assets (issue 14, item 5).
 *
 * ```ts
 * import { runProcess } from "./process.ts";
 * import { withScratchTmux } from "./tmux.ts";
 * await withScratchTmux((scratch) =>
 *   checkEmbeddedAssets(scratch, (args, permissions) =>
 *     runProcess(Deno.execPath(), {
 *       args: ["run", "--no-config", ...permissions, "dist/tma.js", ...args],
 *       env: scratch.env(),
 *     })));
 * ```
 * @module
 */
import { RUN_PERMISSIONS } from "../../src/core/permissions.ts";
import { assert, assertEquals, assertMatch } from "./assert.ts";
import type { Ran } from "./process.ts";
import type { ScratchTmux } from "./tmux.ts";

/** Runs tma with these arguments under these Deno permissions. */
export type ScopedRun = (args: string[], permissions: readonly string[]) => Promise<Ran>;

/** The folder of the tmux on PATH. */
function tmuxFolder(): string {
  for (const dir of (Deno.env.get("PATH") ?? "").split(":")) {
    try {
      if (Deno.statSync(`${dir}/tmux`).isFile) return dir;
    } catch {
      // Not here.
    }
  }
  throw new Error("no tmux on PATH");
}

/** The documented permissions with reads and writes limited to the scratch folder. */
export function scratchPermissions(scratch: ScratchTmux): string[] {
  const permissions = RUN_PERMISSIONS.map((flag) =>
    flag === "--allow-read"
      ? `--allow-read=${scratch.dir},${tmuxFolder()}`
      : flag === "--allow-write"
      ? `--allow-write=${scratch.dir}`
      : flag
  );
  assert(
    !permissions.includes("--allow-read") && !permissions.includes("--allow-write"),
    `RUN_PERMISSIONS no longer has a plain --allow-read and --allow-write: ${RUN_PERMISSIONS}`,
  );
  return permissions;
}

/**
 * Lists a stand-in Claude (the bundled manifests), lists the bundled
 * actions, writes the hook wrapper (the embedded integration, byte for byte)
 * and, when `keys` is set, installs the tmux keys (the embedded tmux.conf
 * lines, loaded into the server).
 */
export async function checkEmbeddedAssets(
  scratch: ScratchTmux,
  run: ScopedRun,
  options: { keys?: boolean } = { keys: true },
): Promise<void> {
  const permissions = scratchPermissions(scratch);
  const tma = (args: string[]) => run(["--socket-name", scratch.socketName, ...args], permissions);
  const agent = await scratch.standIn("claude", { title: "✳ Claude Code" });
  await agent.draw("❯ \n" + "─".repeat(78) + "\n  ⏵⏵ accept edits on (shift+tab to cycle)");

  const ls = await tma(["ls", "--json"]);
  assertEquals(ls.code, 0, ls.stderr);
  const listed = JSON.parse(ls.stdout).agents as { pane: string; agent: string }[];
  assertEquals(listed.map((a) => [a.pane, a.agent]), [[agent.pane, "claude"]], ls.stdout);

  const actions = await tma(["act", "--list"]);
  assertEquals(actions.code, 0, actions.stderr);
  for (const name of ["approve", "deny", "interrupt", "steer"]) {
    assertMatch(actions.stdout, new RegExp(`^${name}\\t`, "m"));
  }

  const hooks = await tma(["install-hooks", "claude", "--yes"]);
  assertEquals(hooks.code, 0, hooks.stderr);
  assertEquals(
    await Deno.readTextFile(`${scratch.home}/.local/bin/tma-hook`),
    await Deno.readTextFile(new URL("../../integrations/tma-hook", import.meta.url)),
  );

  if (options.keys) {
    const keys = await tma(["install-keys", "--yes"]);
    assertEquals(keys.code, 0, keys.stderr);
    assertMatch(keys.stdout + keys.stderr, /loaded into the running tmux server/);
  }
}

/**
 * What `deno task bench` times, each the way a user meets it: tma installed
 * with the README's own `deno install` line (into a temporary
 * `DENO_INSTALL_ROOT`), the single-file bundle run with `deno run
 * --no-config`, a hook fired through the `tma-hook` wrapper that finds tma on
 * PATH, and a status-line poll.
 *
 * ```ts
 * const installed = await installReadmeTma();
 * const run = tmaRun(installed, "tma --version", ["--version"], { env: {} });
 * await run.once();
 * await installed.dispose();
 * ```
 * @module
 */
import { RUN_PERMISSIONS } from "../src/core/permissions.ts";
import { buildBundle } from "./bundle.ts";
import { processRun, type Run } from "./bench_pairs.ts";

const REPO = decodeURIComponent(new URL("../", import.meta.url).pathname);

/** A way to run tma: a `tma` command in a folder of its own (put on PATH for the wrapper). */
export interface TmaFlavor {
  /** How the report names it. */
  name: string;
  /** The `tma` executable. */
  bin: string;
  /** Its folder, which holds nothing else the wrapper could find. */
  binDir: string;
  dispose(): Promise<void>;
}

/**
 * The README's `deno install --global` block, as the shell would run it
 * (continuation lines, the trailing comment and all).
 */
export async function readmeInstallCommand(): Promise<string> {
  const readme = await Deno.readTextFile(`${REPO}README.md`);
  const block = /```sh\n(deno install --global[^`]*)```/.exec(readme)?.[1];
  if (!block) throw new Error("README.md has no ```sh block starting with deno install --global");
  return block;
}

/**
 * Installs tma with the README's line, run from the repository (the line
 * names `mod.ts`), into a fresh temporary `DENO_INSTALL_ROOT`.
 */
export async function installReadmeTma(): Promise<TmaFlavor> {
  const root = await Deno.makeTempDir({ prefix: "tma-bench-install-" });
  const command = await readmeInstallCommand();
  const out = await new Deno.Command("sh", {
    args: ["-c", command],
    cwd: REPO,
    env: { DENO_INSTALL_ROOT: root },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (!out.success) {
    throw new Error(`the README's deno install failed:\n${new TextDecoder().decode(out.stderr)}`);
  }
  return {
    name: "installed tma",
    bin: `${root}/bin/tma`,
    binDir: `${root}/bin`,
    dispose: () => Deno.remove(root, { recursive: true }).catch(() => undefined),
  };
}

/**
 * Builds `dist/tma.js` into a temporary folder (from the tree as it is) with
 * a `tma` launcher beside it that runs `deno run --no-config <permissions>
 * tma.js`: one shell hop, like the installed command.
 */
export async function bundledTma(): Promise<TmaFlavor> {
  const dir = await Deno.makeTempDir({ prefix: "tma-bench-bundle-" });
  const { path } = await buildBundle({ output: `${dir}/tma.js`, skipEmbed: true });
  const binDir = `${dir}/bin`;
  await Deno.mkdir(binDir);
  const bin = `${binDir}/tma`;
  await Deno.writeTextFile(
    bin,
    `#!/bin/sh\nexec deno run --no-config --quiet ${RUN_PERMISSIONS.join(" ")} '${path}' "$@"\n`,
  );
  await Deno.chmod(bin, 0o755);
  return {
    name: "bundled tma",
    bin,
    binDir,
    dispose: () => Deno.remove(dir, { recursive: true }).catch(() => undefined),
  };
}

/** The PATH a flavor's child gets: its folder first, then this process's PATH. */
export function pathWith(flavor: TmaFlavor, env: Record<string, string>): string {
  return `${flavor.binDir}:${env.PATH ?? Deno.env.get("PATH") ?? "/usr/bin:/bin"}`;
}

/** A run of `tma <args>` of one flavor, with the environment given. */
export function tmaRun(
  flavor: TmaFlavor,
  label: string,
  args: readonly string[],
  options: { env: Record<string, string>; prepare?: () => Promise<void> },
): Run {
  return processRun(`${label} (${flavor.name})`, flavor.bin, {
    args,
    env: { ...options.env, PATH: pathWith(flavor, options.env) },
    prepare: options.prepare,
  });
}

/** The Claude PreToolUse payload a hook fire carries. */
export const PRE_TOOL_USE = JSON.stringify({
  session_id: "bench-session",
  hook_event_name: "PreToolUse",
  tool_name: "Bash",
  tool_input: { command: "ls" },
});

/**
 * One `tma-hook claude PreToolUse` fire stamped in the foreground: the
 * repository's wrapper, which finds `tma` on PATH (no `TMA_BIN`), the
 * payload on stdin, and `TMA_HOOK_FOREGROUND=1`, so the figure is the whole
 * `tma event` run a hook costs (issue 14), not the queued fire the agent
 * waits for (issue 20, scripts/bench_hooks.ts). Every fire stamps (a state
 * claim writes its evidence time), so each makes both of the intake's tmux
 * calls.
 */
export function hookFire(
  flavor: TmaFlavor,
  options: { env: Record<string, string>; pane: string; socketName: string },
): Run {
  return processRun(`tma-hook claude PreToolUse (${flavor.name})`, "sh", {
    args: [`${REPO}integrations/tma-hook`, "claude", "PreToolUse"],
    env: {
      ...options.env,
      PATH: pathWith(flavor, options.env),
      TMUX_PANE: options.pane,
      TMA_HOOK_SOCKET: options.socketName,
      TMA_HOOK_FOREGROUND: "1",
    },
    stdin: PRE_TOOL_USE,
  });
}

/** The wrapper alone: `tma-hook` with `TMA_BIN=/bin/true`, what it costs before tma starts. */
export function wrapperOnly(env: Record<string, string>): Run {
  return processRun("tma-hook with TMA_BIN=true (foreground)", "sh", {
    args: [`${REPO}integrations/tma-hook`, "claude", "PreToolUse"],
    env: { ...env, TMA_BIN: "/bin/true", TMUX_PANE: "%0", TMA_HOOK_FOREGROUND: "1" },
    stdin: PRE_TOOL_USE,
  });
}

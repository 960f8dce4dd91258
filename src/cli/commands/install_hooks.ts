/**
 * `tma install-hooks [AGENT]`: the CLI face of `src/install/` (C76-C83).
 * @module
 */
import { UsageError } from "../../core/errors.ts";
import type { ParsedArgs, ParsedFlags } from "../args.ts";
import { boolFlag, stringFlag } from "../args.ts";
import type { CommandContext } from "../context.ts";
import { serverFromGlobals } from "../../tmux/server.ts";
import {
  currentLauncher,
  type PathFlags,
  resolveInstallPaths,
  runInstallHooks,
} from "../../install/mod.ts";

const PATH_FLAGS: (keyof PathFlags)[] = [
  "settings",
  "gemini-settings",
  "config-dir",
  "wrapper-path",
  "opencode-plugin",
  "codex-config",
  "codex-hooks",
  "cursor-hooks",
  "cursor-cli-config",
  "pi-extension",
];

/** A relative path flag is taken from the current directory. */
function absolute(path: string): string {
  return path.startsWith("/") ? path : `${Deno.cwd()}/${path}`;
}

function pathFlags(flags: ParsedFlags): PathFlags {
  const out: PathFlags = {};
  for (const name of PATH_FLAGS) {
    const value = stringFlag(flags, name);
    if (value) out[name] = absolute(value);
  }
  return out;
}

/** Reads one answer line from a terminal. */
export async function askTerminal(ctx: CommandContext, question: string): Promise<boolean> {
  ctx.out(question);
  const buffer = new Uint8Array(256);
  let line = "";
  while (!line.includes("\n")) {
    const n = await Deno.stdin.read(buffer);
    if (n === null) break;
    line += new TextDecoder().decode(buffer.subarray(0, n));
  }
  return /^\s*y(es)?\s*$/i.test(line);
}

/** Runs the command. */
export async function run(ctx: CommandContext, args: ParsedArgs): Promise<number> {
  const { flags, positionals } = args;
  if (positionals.length > 1) {
    throw new UsageError(`install-hooks takes at most one agent (got ${positionals.join(", ")})`);
  }
  if (boolFlag(flags, "statusline") && boolFlag(flags, "no-statusline")) {
    throw new UsageError("--statusline and --no-statusline exclude each other");
  }
  const statusline = boolFlag(flags, "statusline")
    ? true
    : boolFlag(flags, "no-statusline")
    ? false
    : undefined;
  let configWrapperRef: "absolute" | "bare" = "absolute";
  let configBin: string | undefined;
  let focusEvents = false;
  try {
    const config = await ctx.config();
    configWrapperRef = config.install.wrapper_ref;
    configBin = config.tmux.bin;
    focusEvents = config.focus.events;
  } catch (error) {
    // A broken config.toml must not stop a user from (un)wiring hooks.
    ctx.err(
      `tma: warning: config not loaded (${
        error instanceof Error ? error.message : error
      }); using wrapper_ref = "absolute"\n`,
    );
  }
  const paths = resolveInstallPaths({
    flags: pathFlags(flags),
    env: ctx.env,
    execPath: Deno.execPath(),
  });
  if (!paths.wrapper.startsWith("/")) paths.wrapper = absolute(paths.wrapper);
  const wrapperRef = stringFlag(flags, "wrapper-ref") as "absolute" | "bare" | undefined;
  return await runInstallHooks(
    {
      agent: positionals[0],
      check: boolFlag(flags, "check"),
      uninstall: boolFlag(flags, "uninstall"),
      all: boolFlag(flags, "all"),
      yes: boolFlag(flags, "yes"),
      statusline,
      wrapperRef,
    },
    {
      paths,
      launcher: currentLauncher(ctx.env),
      configWrapperRef,
      env: ctx.env,
      server: () => Promise.resolve(serverFromGlobals(ctx.globals, { env: ctx.env, configBin })),
      out: ctx.out,
      err: ctx.err,
      confirm: Deno.stdin.isTerminal() ? (question) => askTerminal(ctx, question) : undefined,
      focusEvents,
    },
  );
}

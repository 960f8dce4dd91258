/**
 * `tma install-keys`: the CLI face of the managed tmux.conf (C84-C90, U37,
 * U38).
 * @module
 */
import { UsageError } from "../../core/errors.ts";
import { boolFlag, type ParsedArgs, stringFlag } from "../args.ts";
import type { CommandContext } from "../context.ts";
import { serverFromGlobals } from "../../tmux/server.ts";
import { currentLauncher, runInstallKeys } from "../../install/mod.ts";
import { askTerminal } from "./install_hooks.ts";

/** A relative path flag is taken from the current directory. */
function absolute(path: string | undefined): string | undefined {
  if (path === undefined) return undefined;
  return path.startsWith("/") ? path : `${Deno.cwd()}/${path}`;
}

/** Runs the command. */
export async function run(ctx: CommandContext, args: ParsedArgs): Promise<number> {
  if (args.positionals.length > 0) {
    throw new UsageError(`install-keys takes no arguments (got "${args.positionals[0]}")`);
  }
  let focusEvents = false;
  let configBin: string | undefined;
  try {
    const config = await ctx.config();
    focusEvents = config.focus.events;
    configBin = config.tmux.bin;
  } catch (error) {
    ctx.err(
      `tma: warning: config not loaded (${error instanceof Error ? error.message : error})\n`,
    );
  }
  const flags = args.flags;
  return await runInstallKeys(
    {
      check: boolFlag(flags, "check"),
      uninstall: boolFlag(flags, "uninstall"),
      mouse: boolFlag(flags, "mouse"),
      noDaemon: boolFlag(flags, "no-daemon"),
      yes: boolFlag(flags, "yes"),
      conf: absolute(stringFlag(flags, "conf")),
      configDir: absolute(stringFlag(flags, "config-dir")),
    },
    {
      env: ctx.env,
      launcher: currentLauncher(ctx.env),
      focusEvents,
      server: () => Promise.resolve(serverFromGlobals(ctx.globals, { env: ctx.env, configBin })),
      out: ctx.out,
      err: ctx.err,
      confirm: Deno.stdin.isTerminal() ? (question) => askTerminal(ctx, question) : undefined,
    },
  );
}

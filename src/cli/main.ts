/**
 * The CLI entry: it parses the global flags, finds the command in the table,
 * prints help or the version, and maps every error to one stderr line and an
 * exit code.
 * @module
 */
import { AUTOSTART_COMMANDS, autostartDaemon } from "./autostart.ts";
import { TmaError, UsageError } from "../core/errors.ts";
import { versionLine } from "../core/version.ts";
import { boolFlag, parseFlags, stringFlag } from "./args.ts";
import { findCommand, GLOBAL_FLAGS, HOST_FLAGS } from "./commands.ts";
import { commandHelp, TABLE, topHelp } from "./help.ts";
import { type CommandContext, createContext, type GlobalOptions } from "./context.ts";

/** The global options held in parsed flags. */
function globalsFrom(flags: Record<string, unknown>): GlobalOptions {
  const f = flags as Parameters<typeof stringFlag>[0];
  const client = stringFlag(f, "client");
  return {
    manifestDir: stringFlag(f, "manifest-dir"),
    socketName: stringFlag(f, "socket-name"),
    socketPath: stringFlag(f, "socket-path"),
    config: stringFlag(f, "config"),
    noConfig: boolFlag(f, "no-config"),
    // An empty or unexpanded `#{...}` client falls back to self-resolution (C6).
    client: client && !client.includes("#{") ? client : undefined,
    debugTiming: boolFlag(f, "debug-timing"),
  };
}

/** Options for `main`, so tests can run commands in-process. */
export interface MainOptions {
  /** Builds the context; defaults to the real one over `Deno`. */
  context?: (globals: GlobalOptions) => CommandContext;
}

/**
 * Runs tma with `argv` and returns the exit code.
 *
 * ```ts
 * const code = await main(["--version"]);
 * ```
 */
export async function main(argv: readonly string[], options: MainOptions = {}): Promise<number> {
  const makeContext = options.context ?? createContext;
  const err = (line: string) => makeContext(globalsFrom({})).err(`${line}\n`);
  try {
    const nameIndex = findCommandIndex(argv);
    const command = nameIndex < 0 ? undefined : findCommand(argv[nameIndex]);
    if (nameIndex >= 0 && !command) {
      throw new UsageError(`unknown command "${argv[nameIndex]}" (run tma --help for the list)`);
    }
    const rest = nameIndex < 0
      ? [...argv]
      : [...argv.slice(0, nameIndex), ...argv.slice(nameIndex + 1)];
    // `tma` alone (the picker) takes the host flags too (X9).
    const specs = command ? [...GLOBAL_FLAGS, ...command.flags] : [...GLOBAL_FLAGS, ...HOST_FLAGS];
    const parsed = parseFlags(rest, specs);
    const ctx = makeContext(globalsFrom(parsed.flags));
    if (ctx.globals.socketName && ctx.globals.socketPath) {
      throw new UsageError("--socket-name and --socket-path select different servers: pass one");
    }
    if (boolFlag(parsed.flags, "version") && !command) {
      ctx.out(`${versionLine()}\n`);
      return 0;
    }
    if (boolFlag(parsed.flags, "help")) {
      ctx.out(`${command ? commandHelp(command) : topHelp()}\n`);
      return 0;
    }
    if (!command) {
      // `tma` alone opens the picker on a terminal (C1); piped, it prints help.
      if (Deno.stdin.isTerminal() && Deno.stdout.isTerminal()) {
        await (await import("./autostart.ts")).autostartDaemon(ctx);
        return await (await import("./commands/picker.ts")).run(ctx, parsed);
      }
      ctx.out(`${topHelp()}\n`);
      return 0;
    }
    // A cycle's children are spawned before the command's modules load, so
    // tmux and ps work meanwhile (D64); their failures surface in the cycle.
    if (command.cycles) await ctx.snapshot().catch(() => undefined);
    // issue 17: `[daemon] autostart` (G27), only for the surfaces it names.
    const autostart = AUTOSTART_COMMANDS.has(command.name) ? autostartDaemon(ctx) : undefined;
    const module = await command.load();
    await autostart;
    return await module.run(ctx, parsed, TABLE);
  } catch (error) {
    if (error instanceof TmaError) {
      err(`tma: ${error.message}`);
      return error.exitCode;
    }
    err(`tma: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  }
}

/**
 * The index of the subcommand word: the first positional that is not the
 * value of a global flag.
 */
function findCommandIndex(argv: readonly string[]): number {
  // `--host NAME` before the command word is a flag and its value, not a command (X9).
  const valued = new Set(
    [...GLOBAL_FLAGS, ...HOST_FLAGS].filter((f) => f.kind !== "boolean").flatMap((f) =>
      f.short ? [`--${f.name}`, `-${f.short}`] : [`--${f.name}`]
    ),
  );
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === "--") return -1;
    if (valued.has(arg)) {
      i++;
      continue;
    }
    if (!arg.startsWith("-")) return i;
  }
  return -1;
}

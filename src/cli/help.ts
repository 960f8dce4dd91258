/**
 * The help text of `tma --help` and `tma <command> --help`, built from the
 * command table. It lives apart from the entry so that no command module needs
 * to import `main.ts` (which would close an import cycle through the table).
 * @module
 */
import { versionLine } from "../core/version.ts";
import { formatFlags } from "./args.ts";
import { COMMANDS, type CommandSpec, GLOBAL_FLAGS } from "./commands.ts";

/**
 * The top-level help: the version line, every visible command and the global
 * flags.
 *
 * ```ts
 * topHelp().startsWith("tma "); // true
 * ```
 */
export function topHelp(): string {
  const names = COMMANDS.filter((c) => !c.hidden);
  const width = Math.max(...names.map((c) => c.name.length)) + 2;
  return [
    `${versionLine()}: which of your coding agents in tmux is working, blocked or idle`,
    "",
    "usage: tma [global flags] <command> [flags]",
    "       tma                 (on a terminal: the fuzzy picker of agent panes)",
    "",
    "commands:",
    ...names.map((c) => `  ${c.name.padEnd(width)}${c.summary}`),
    "",
    "global flags:",
    formatFlags(GLOBAL_FLAGS),
    "",
    "Run `tma <command> --help` for a command's flags.",
  ].join("\n");
}

/**
 * One command's help: its summary, usage line, own flags and the global flags.
 *
 * ```ts
 * import { findCommand } from "./commands.ts";
 * commandHelp(findCommand("ls")!).startsWith("tma ls: "); // true
 * ```
 */
export function commandHelp(command: CommandSpec): string {
  return [
    `tma ${command.name}: ${command.summary}`,
    "",
    `usage: ${command.usage}`,
    "",
    "flags:",
    formatFlags(command.flags),
    "",
    "global flags:",
    formatFlags(GLOBAL_FLAGS),
  ].join("\n");
}

/**
 * The help text of `tma --help` and `tma <command> --help`, built from the
 * command table. It lives apart from the entry so that no command module needs
 * to import `main.ts` (which would close an import cycle through the table).
 * @module
 */
import { COMMANDS, type CommandSpec, GLOBAL_FLAGS } from "./commands.ts";
import { commandHelpText, topHelpText } from "./help_text.ts";
import type { TableView } from "./table_view.ts";

/** The command table as data, for the commands that describe the CLI. */
export const TABLE: TableView = { commands: COMMANDS, globals: GLOBAL_FLAGS };

/**
 * The top-level help: the version line, every visible command and the global
 * flags.
 *
 * ```ts
 * topHelp().startsWith("tma "); // true
 * ```
 */
export function topHelp(): string {
  return topHelpText(TABLE);
}

/**
 * One command's help: its summary, usage line, examples, own flags and the
 * global flags.
 *
 * ```ts
 * import { findCommand } from "./commands.ts";
 * commandHelp(findCommand("ls")!).startsWith("tma ls: "); // true
 * ```
 */
export function commandHelp(command: CommandSpec): string {
  return commandHelpText(command, TABLE);
}

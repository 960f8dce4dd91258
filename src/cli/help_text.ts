/**
 * The help texts, built from the command table as data (`TableView`), so
 * `tma help` can print them without importing the table that loads it.
 * @module
 */
import { versionLine } from "../core/version.ts";
import { formatFlags } from "./args.ts";
import type { TableEntry, TableView } from "./table_view.ts";

/** The top-level help: the version line, every visible command and the global flags. */
export function topHelpText(table: TableView): string {
  const names = table.commands.filter((c) => !c.hidden);
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
    formatFlags(table.globals),
    "",
    "New here? `tma init` wires every agent it finds and binds the keys.",
    "Run `tma help <command>` (or `tma <command> --help`) for a command's flags.",
  ].join("\n");
}

/** One command's help: summary, usage, examples, own flags and the global flags. */
export function commandHelpText(command: TableEntry, table: TableView): string {
  const examples = command.examples ?? [];
  const width = Math.max(0, ...examples.map(([line]) => line.length)) + 2;
  return [
    `tma ${command.name}: ${command.summary}`,
    "",
    `usage: ${command.usage}`,
    ...(examples.length === 0
      ? []
      : ["", "examples:", ...examples.map(([line, what]) => `  ${line.padEnd(width)}${what}`)]),
    "",
    "flags:",
    formatFlags(command.flags),
    "",
    "global flags:",
    formatFlags(table.globals),
  ].join("\n");
}

/**
 * `tma help [COMMAND]`: the same text as `tma --help` and `tma COMMAND --help`.
 * @module
 */
import { UsageError } from "../../core/errors.ts";
import type { ParsedArgs } from "../args.ts";
import type { CommandContext } from "../context.ts";
import { commandHelpText, topHelpText } from "../help_text.ts";
import type { TableView } from "../table_view.ts";

/** Runs the command; `table` is the command table `main` dispatches on. */
export function run(ctx: CommandContext, args: ParsedArgs, table?: TableView): Promise<number> {
  if (!table) throw new Error("tma help needs the command table (run it through main)");
  const [name, ...rest] = args.positionals;
  if (rest.length > 0) {
    throw new UsageError(`help takes one command (got ${args.positionals.join(" ")})`);
  }
  if (name === undefined) {
    ctx.out(`${topHelpText(table)}\n`);
    return Promise.resolve(0);
  }
  const command = table.commands.find((c) => c.name === name);
  if (!command) throw new UsageError(`unknown command "${name}" (run tma help for the list)`);
  ctx.out(`${commandHelpText(command, table)}\n`);
  return Promise.resolve(0);
}

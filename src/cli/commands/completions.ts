/**
 * `tma completions <SHELL>` (C94): prints the completion script of one
 * shell, generated from the command table `main` dispatches on.
 * @module
 */
import {
  type CompletionFlag,
  type CompletionModel,
  completionScript,
  isShell,
  SHELLS,
} from "../../core/completions.ts";
import { UsageError } from "../../core/errors.ts";
import type { FlagSpec, ParsedArgs } from "../args.ts";
import type { CommandContext } from "../context.ts";
import type { TableView } from "../table_view.ts";

function flags(specs: readonly FlagSpec[]): CompletionFlag[] {
  return specs.filter((f) => !f.hidden).map((f) => ({
    name: f.name,
    short: f.short,
    help: f.help,
    takesValue: f.kind !== "boolean",
    choices: f.choices,
  }));
}

/**
 * The table as completions see it: hidden and internal commands and hidden
 * flags left out; `help` completes the command names.
 */
export function completionModel(table: TableView): CompletionModel {
  const commands = table.commands.filter((c) => !c.hidden && !c.internal);
  return {
    program: "tma",
    globals: flags(table.globals),
    commands: commands.map((c) => ({
      name: c.name,
      summary: c.summary,
      flags: flags(c.flags),
      args: c.name === "help" ? commands.map((x) => x.name) : c.args,
    })),
  };
}

/** Runs the command; `table` is the command table `main` dispatches on. */
export function run(ctx: CommandContext, args: ParsedArgs, table?: TableView): Promise<number> {
  if (!table) throw new Error("tma completions needs the command table (run it through main)");
  const [shell, ...rest] = args.positionals;
  if (shell === undefined || rest.length > 0 || !isShell(shell)) {
    throw new UsageError(
      `${
        shell === undefined ? "name a shell" : `unknown shell "${args.positionals.join(" ")}"`
      }: one of ${SHELLS.join(", ")} (tma completions bash)`,
    );
  }
  ctx.out(completionScript(shell, completionModel(table)));
  return Promise.resolve(0);
}

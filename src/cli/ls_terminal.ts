/**
 * The `ls` table as both `ls` commands print it on a terminal (C18): the
 * terminal's width, `NO_COLOR`, and "filtered" when a selector or `--pane`
 * narrowed the rows. Kept apart from `list_rows.ts`, which the status poll
 * loads: the table's width code stays off that path.
 * @module
 */
import type { AgentRow } from "../core/rows.ts";
import { renderLsTable } from "../ui_core/ls_table.ts";
import type { ClassStyles } from "../ui_core/surface.ts";
import { type ParsedArgs, stringFlag } from "./args.ts";
import type { CommandContext } from "./context.ts";
import { hasSelector, selectorFrom } from "./selector_flags.ts";

/** The table of `rows` for this terminal, styled by `[picker]`. */
export function lsTable(
  ctx: CommandContext,
  args: ParsedArgs,
  view: { rows: readonly AgentRow[]; styles: ClassStyles },
): string {
  return renderLsTable(view.rows, {
    nowMs: ctx.now(),
    styles: view.styles,
    color: (ctx.env("NO_COLOR") ?? "") === "",
    width: terminalWidth(),
    filtered: hasSelector(selectorFrom(args.flags)) ||
      stringFlag(args.flags, "pane") !== undefined,
  });
}

/** The terminal's width, 120 when stdout is no terminal. */
function terminalWidth(): number {
  try {
    return Deno.consoleSize().columns;
  } catch {
    return 120;
  }
}

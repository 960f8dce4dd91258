/** `tma ls` (C17-C19, item 8). @module */
import { plainLine } from "../../core/rows.ts";
import { hasSelector, selectorFrom } from "../selector_flags.ts";
import { renderLsTable } from "../../ui_core/ls_table.ts";
import { boolFlag, fleetAsked, type ParsedArgs, stringFlag } from "../args.ts";
import type { CommandContext } from "../context.ts";
import { listRows, terminalWidth } from "../list_rows.ts";

/**
 * Lists agent panes: the schema-1 document with `--json`; piped, the C17
 * tab-separated lines; on a terminal, a table for people.
 */
export async function run(ctx: CommandContext, args: ParsedArgs): Promise<number> {
  // X9: other hosts, and the identity document another host's fleet view reads.
  if (fleetAsked(args.flags)) return await (await import("../fleet/ls.ts")).run(ctx, args);
  if (boolFlag(args.flags, "identity")) {
    return await (await import("../fleet/ls.ts")).runIdentity(ctx, args);
  }
  const { rows, config } = await listRows(ctx, args, { alwaysGit: true, stampedeGuard: false });
  if (boolFlag(args.flags, "json")) {
    ctx.out(`${JSON.stringify({ schema: 1, agents: rows })}\n`);
  } else if (Deno.stdout.isTerminal()) {
    const noColor = (ctx.env("NO_COLOR") ?? "") !== "";
    ctx.out(renderLsTable(rows, {
      nowMs: ctx.now(),
      styles: config.picker,
      color: !noColor,
      width: terminalWidth(),
      filtered: hasSelector(selectorFrom(args.flags)) ||
        stringFlag(args.flags, "pane") !== undefined,
    }));
  } else {
    for (const row of rows) ctx.out(`${plainLine(row)}\n`);
  }
  return 0;
}

/** `tma ls` (C17-C19). @module */
import { plainLine } from "../../core/rows.ts";
import { boolFlag, type ParsedArgs } from "../args.ts";
import type { CommandContext } from "../context.ts";
import { listRows } from "../list_rows.ts";

/** Lists agent panes: tab-separated lines, or the schema-1 document with `--json`. */
export async function run(ctx: CommandContext, args: ParsedArgs): Promise<number> {
  const { rows } = await listRows(ctx, args, { alwaysGit: true, stampedeGuard: false });
  if (boolFlag(args.flags, "json")) {
    ctx.out(`${JSON.stringify({ schema: 1, agents: rows })}\n`);
  } else {
    for (const row of rows) ctx.out(`${plainLine(row)}\n`);
  }
  return 0;
}

/** `tma ls` (C17-C19, item 8). @module */
import { plainLine } from "../../core/rows.ts";
import { boolFlag, fleetAsked, type ParsedArgs } from "../args.ts";
import type { CommandContext } from "../context.ts";
import { listRows } from "../list_rows.ts";
import { lsTable } from "../ls_terminal.ts";

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
    ctx.out(lsTable(ctx, args, { rows, styles: config.picker }));
  } else {
    for (const row of rows) ctx.out(`${plainLine(row)}\n`);
  }
  return 0;
}

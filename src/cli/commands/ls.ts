/** `tma ls` (C17-C19). @module */
import { plainLine } from "../../core/rows.ts";
import { listAgents } from "../../runtime/listing.ts";
import { boolFlag, type ParsedArgs, stringFlag } from "../args.ts";
import type { CommandContext } from "../context.ts";
import { reportTiming } from "../debug_timing.ts";
import { selectorFrom } from "../selector_flags.ts";

/** Lists agent panes: tab-separated lines, or the schema-1 document with `--json`. */
export async function run(ctx: CommandContext, args: ParsedArgs): Promise<number> {
  const selector = selectorFrom(args.flags);
  const [server, config, manifests] = await Promise.all([
    ctx.server(),
    ctx.config(),
    ctx.manifests(),
  ]);
  const { rows, cycle } = await listAgents({
    server,
    config,
    models: manifests.models,
    now: ctx.now,
    selector,
    pane: stringFlag(args.flags, "pane"),
    git: true,
  });
  reportTiming(ctx, cycle.stats);
  if (boolFlag(args.flags, "json")) {
    ctx.out(`${JSON.stringify({ schema: 1, agents: rows })}\n`);
  } else {
    for (const row of rows) ctx.out(`${plainLine(row)}\n`);
  }
  return 0;
}

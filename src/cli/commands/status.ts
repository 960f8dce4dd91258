/** `tma status`: the ambient driver of the polling tier (C20-C23). @module */
import {
  countClasses,
  renderJson,
  renderPlain,
  renderProm,
  renderTmux,
} from "../../core/status_render.ts";
import { type ParsedArgs, stringFlag } from "../args.ts";
import type { CommandContext } from "../context.ts";
import { listRows } from "../list_rows.ts";

/** Runs a full cycle and prints the counts in the chosen format. */
export async function run(ctx: CommandContext, args: ParsedArgs): Promise<number> {
  const format = stringFlag(args.flags, "format") ?? "tmux";
  const { rows, config } = await listRows(ctx, args, { alwaysGit: false, stampedeGuard: true });
  const counts = countClasses(rows);
  switch (format) {
    case "plain":
      ctx.out(renderPlain(counts, config.status));
      break;
    case "json":
      ctx.out(`${renderJson(counts)}\n`);
      break;
    case "prom":
      ctx.out(renderProm(rows, ctx.now()));
      break;
    default:
      ctx.out(renderTmux(counts, config.status));
  }
  return 0;
}

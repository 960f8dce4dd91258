/** `tma status` (C20-C23): the ambient driver of the polling tier. @module */
import { needsGit } from "../../core/selector.ts";
import {
  countClasses,
  renderJson,
  renderPlain,
  renderProm,
  renderTmux,
} from "../../core/status_render.ts";
import { listAgents } from "../../runtime/listing.ts";
import { type ParsedArgs, stringFlag } from "../args.ts";
import type { CommandContext } from "../context.ts";
import { reportTiming } from "../debug_timing.ts";
import { selectorFrom } from "../selector_flags.ts";

/** Runs a full cycle and prints the counts in the chosen format. */
export async function run(ctx: CommandContext, args: ParsedArgs): Promise<number> {
  const selector = selectorFrom(args.flags);
  const format = stringFlag(args.flags, "format") ?? "tmux";
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
    git: needsGit(selector),
    stampedeGuard: true,
  });
  reportTiming(ctx, cycle.stats);
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

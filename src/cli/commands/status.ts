/** `tma status`: the ambient driver of the polling tier (C20-C23). @module */
import {
  countClasses,
  renderJson,
  renderPlain,
  renderProm,
  renderTmux,
} from "../../core/status_render.ts";
import { fleetAsked, type ParsedArgs, stringFlag } from "../args.ts";
import type { CommandContext } from "../context.ts";
import { listRows } from "../list_rows.ts";

/** Runs a full cycle and prints the counts in the chosen format. */
export async function run(ctx: CommandContext, args: ParsedArgs): Promise<number> {
  // X9: the fleet's counts from cached readings; the fleet code loads only then.
  if (fleetAsked(args.flags)) return await (await import("../fleet/status.ts")).run(ctx, args);
  const format = stringFlag(args.flags, "format") ?? "tmux";
  if (format === "tmux" && !hasSelector(args)) {
    const fresh = await daemonStatus(ctx);
    if (fresh !== null) {
      ctx.out(fresh);
      return 0;
    }
  }
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

/** The selector flags (SELECTOR_FLAGS of the command table), which the daemon's value does not apply. */
const SELECTORS = ["session", "repo", "branch", "agent", "state"];

function hasSelector(args: ParsedArgs): boolean {
  return SELECTORS.some((name) => args.flags[name] !== undefined);
}

/**
 * X6: what a live daemon last published in `@tma_status`, when it refreshed
 * the server within `freshness_secs` (D49); otherwise null and the cycle
 * runs. The daemon computes it exactly as this command would, over every
 * agent of the server. Its refresh time rides the cycle's listing, already
 * under way (issue 14): without a fresh daemon no tmux call is added.
 */
async function daemonStatus(ctx: CommandContext): Promise<string | null> {
  const panes = await ctx.snapshot().then((s) => s.panes).catch(() => []);
  const at = Math.max(0, ...panes.map((p) => p.statusAtMs));
  const config = await ctx.config();
  const age = ctx.now() - at;
  if (at === 0 || !(age >= 0 && age <= config.fold.freshness_secs * 1000)) return null;
  const [{ readServerOptions }, server] = await Promise.all([
    import("../../tmux/options.ts"),
    ctx.server(),
  ]);
  const [status] = await readServerOptions(server, ["@tma_status"]);
  return status ?? "";
}

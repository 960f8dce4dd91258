/**
 * The shared half of `ls` and `status`: resolve server, config and
 * manifests, run one cycle through the selector, report its timing.
 * @module
 */
import type { Config } from "../core/config/schema.ts";
import { needsGit } from "../core/selector.ts";
import { listAgents, type Listing } from "../runtime/cycle/listing.ts";
import { type ParsedArgs, stringFlag } from "./args.ts";
import type { CommandContext } from "./context.ts";
import { reportTiming } from "./debug_timing.ts";
import { selectorFrom } from "./selector_flags.ts";

/** How a surface lists. */
export interface ListRowsOptions {
  /** Resolve git labels for every row, not only when the selector needs them. */
  alwaysGit: boolean;
  /** Apply the stampede guard (D53). */
  stampedeGuard: boolean;
  /**
   * Dispatch notifications from this cycle when `from_poll` is on (U25):
   * the polling surfaces do; `mute`, which is about to silence a pane, not.
   */
  dispatch?: boolean;
  /** Every agent row, the selector left to the caller (jump: `--back` and `--pane` ignore it). */
  unscoped?: boolean;
}

/** Runs one cycle for a listing surface and returns its rows and the config. */
export async function listRows(
  ctx: CommandContext,
  args: ParsedArgs,
  options: ListRowsOptions,
): Promise<Listing & { config: Config }> {
  const selector = selectorFrom(args.flags);
  // The snapshot is usually under way already (main starts it, D64).
  const [server, snapshot, config, manifests] = await Promise.all([
    ctx.server(),
    ctx.snapshot(),
    ctx.config(),
    ctx.manifests(),
  ]);
  const listing = await listAgents({
    server,
    config,
    models: manifests.models,
    now: ctx.now,
    selector: options.unscoped ? undefined : selector,
    pane: options.unscoped ? undefined : stringFlag(args.flags, "pane"),
    git: options.alwaysGit || needsGit(selector),
    stampedeGuard: options.stampedeGuard,
    snapshot,
    notify: options.dispatch === false ? undefined : { env: ctx.env },
  });
  reportTiming(ctx, listing.cycle.stats);
  return { ...listing, config };
}

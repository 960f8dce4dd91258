/**
 * `tma supervise` (C103, internal): the detached-exec supervisor the broker
 * starts for an action with `detach = true`. It reads its job from
 * `TMA_SUPERVISE`, runs it under the lock the broker handed over, and fires
 * the completion (A23, A24). Started with null stdio in a session of its
 * own, it has no one to talk to: a job it cannot read exits 2, silently.
 * @module
 */
import { defaultConfig } from "../../core/config/schema.ts";
import { UsageError } from "../../core/errors.ts";
import { parseSpec, supervise, SUPERVISE_ENV } from "../../actions/supervise.ts";
import { serverFromGlobals } from "../../tmux/server.ts";
import type { ParsedArgs } from "../args.ts";
import type { CommandContext } from "../context.ts";

/** Runs `tma supervise`. */
export async function run(ctx: CommandContext, args: ParsedArgs): Promise<number> {
  if (args.positionals.length > 0) {
    throw new UsageError(`supervise takes no arguments (got "${args.positionals[0]}")`);
  }
  const spec = parseSpec(ctx.env(SUPERVISE_ENV));
  if (typeof spec === "string") {
    throw new UsageError(`tma supervise is started by tma act, not by hand: ${spec}`);
  }
  // The job is this process's alone: neither the child nor the notify command inherits it.
  Deno.env.delete(SUPERVISE_ENV);
  // The job runs whatever the config says: a broken file only loses the notify settings.
  const config = await ctx.config().catch(() => defaultConfig());
  const server = serverFromGlobals(ctx.globals, {
    env: (name) => ctx.env(name),
    configBin: config.tmux.bin,
  });
  const payload = await supervise(spec, {
    server,
    config,
    env: (name) => ctx.env(name),
    now: ctx.now,
  });
  return payload.outcome === "exited" ? 0 : 1;
}

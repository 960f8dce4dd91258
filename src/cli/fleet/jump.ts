/**
 * `tma jump --host H --pane %N` (X9): read the host once, then open (or
 * reuse) a local window attached to the remote session at that pane and
 * move the acting client there. The picker's and the watch's Enter on a
 * remote row come through `jumpToRemote` too.
 * @module
 */
import { TmaError, UsageError } from "../../core/errors.ts";
import type { ClientHints } from "../../core/client.ts";
import type { HostSpec } from "../../core/fleet/hosts.ts";
import type { FleetRow } from "../../core/fleet/reading.ts";
import { remoteJump } from "../../runtime/fleet/remote_jump.ts";
import { NO_PANE_EXIT } from "../../runtime/jump.ts";
import { type ParsedArgs, stringFlag } from "../args.ts";
import type { CommandContext } from "../context.ts";
import { fleetOnce } from "./common.ts";

/** Jumps to one remote row; a note for stderr when the remote session could not be moved. */
export async function jumpToRemote(
  ctx: CommandContext,
  options: { spec: HostSpec; row: FleetRow; hints: ClientHints },
): Promise<string | null> {
  const result = await remoteJump(await ctx.server(), options);
  if (result.selectError) {
    return `${options.spec.name}: could not move the remote session to ${options.row.pane}: ${result.selectError}`;
  }
  return result.note ?? null;
}

/** Runs `jump --host`. */
export async function run(ctx: CommandContext, args: ParsedArgs): Promise<number> {
  const name = stringFlag(args.flags, "host")!;
  const pane = stringFlag(args.flags, "pane");
  if (pane === undefined) {
    throw new UsageError(`jump --host ${name} needs --pane ID (a pane of that host)`);
  }
  const { view, specs, tracks } = await fleetOnce(ctx, args, null);
  const spec = specs[0];
  const host = view.hosts[0];
  if (!host.reachable) throw new TmaError(`jump: ${name}: unreachable: ${host.error}`);
  const row = view.rows.find((r) => r.pane === pane || r.locator === pane);
  if (!row) {
    if (!tracks[0].panes.includes(pane)) {
      throw new TmaError(`no pane ${pane} on host ${name}'s tmux server`, NO_PANE_EXIT);
    }
    ctx.err(`tma: ${pane} on ${name} runs no agent; not jumping\n`);
    return 0;
  }
  const note = await jumpToRemote(ctx, {
    spec,
    row,
    hints: {
      explicit: ctx.globals.client,
      pane: ctx.env("TMUX_PANE") || undefined,
      tmux: ctx.env("TMUX") || undefined,
    },
  });
  if (note) ctx.err(`tma: ${note}\n`);
  return 0;
}

/**
 * `tma status --all-hosts` and `status --host NAME` (X9): the fleet's
 * counts for a status line, from cached readings only, so a poll never
 * waits on the network. The local rows come from this poll's own cycle (as
 * plain `status`); each host's come from its track in the local server's
 * options, counted only while fresh (no older than `[fleet] refresh_secs`
 * plus the host's deadline), and a host that is not is marked. The poll
 * renews the refresher's lease and, when no refresher holds its lock,
 * starts one in the background (`src/runtime/fleet/refresher.ts`).
 * @module
 */
import { emptyTrack } from "../../core/fleet/liveness.ts";
import { hostKey, hostSpecs } from "../../core/fleet/hosts.ts";
import { withIdentity } from "../../core/fleet/local.ts";
import { renderFleetStatus, type StatusFormat } from "../../core/fleet/status.ts";
import { fleetView } from "../../core/fleet/view.ts";
import { readCachedTracks } from "../../runtime/fleet/cache.ts";
import { refresherLockPath, renewLease, startDetached } from "../../runtime/fleet/refresher.ts";
import { selfArgv } from "../../actions/self.ts";
import { boolFlag, type ParsedArgs, stringFlag } from "../args.ts";
import type { CommandContext } from "../context.ts";
import { listRows } from "../list_rows.ts";
import { selectorFrom } from "../selector_flags.ts";
import { chosenHosts, livePolicy } from "./common.ts";

/** The argv of the refresher: this tma with this command's server and config flags (C9). */
function refresherArgv(ctx: CommandContext): string[] {
  const g = ctx.globals;
  return [
    ...selfArgv(),
    ...(g.socketPath ? ["--socket-path", g.socketPath] : []),
    ...(g.socketName ? ["--socket-name", g.socketName] : []),
    ...(g.noConfig ? ["--no-config"] : g.config ? ["--config", g.config] : []),
    ...(g.manifestDir ? ["--manifest-dir", g.manifestDir] : []),
    "fleet-refresh",
  ];
}

/** Runs the fleet status. */
export async function run(ctx: CommandContext, args: ParsedArgs): Promise<number> {
  const format = (stringFlag(args.flags, "format") ?? "tmux") as StatusFormat;
  const [config, specs, server] = await Promise.all([
    ctx.config(),
    chosenHosts(ctx, args),
    ctx.server(),
  ]);
  const listing = boolFlag(args.flags, "all-hosts")
    ? await listRows(ctx, args, { alwaysGit: false, stampedeGuard: true })
    : null;
  const cached = await readCachedTracks(server, specs);
  try {
    // The refresher reads every [[host]]: one lock per server and host set.
    const lock = refresherLockPath(ctx.env, server, hostSpecs(config));
    if (renewLease(lock, ctx.now())) startDetached(refresherArgv(ctx));
  } catch (error) {
    ctx.err(
      `tma: status: cannot start the fleet refresher: ${
        error instanceof Error ? error.message : error
      }\n`,
    );
  }
  const nowMs = ctx.now();
  const view = fleetView({
    local: listing ? withIdentity(listing.rows, listing.cycle.panes, null) : null,
    tracks: specs.map((s) => cached.get(s.name) ?? emptyTrack(s.name, hostKey(s))),
    policy: livePolicy(specs, { nowMs, cadenceMs: config.fleet.refresh_secs * 1000 }),
    selector: selectorFrom(args.flags),
  });
  ctx.out(renderFleetStatus(view, { format, styles: config.status, nowMs }));
  return 0;
}

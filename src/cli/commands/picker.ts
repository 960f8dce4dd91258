/**
 * `tma` with no subcommand (C1): the fuzzy picker of agent panes (U29-U32),
 * meant for `display-popup -E -w 80% -h 60% tma`. The invoking pane (the one
 * the popup opened over, or the pane it runs in) is left out; Enter jumps
 * the acting client there and closes, tab opens the action menu and closes.
 * @module
 */
import type { ClientFacts } from "../../core/client.ts";
import { resolveClient } from "../../core/client.ts";
import { stampedRowsAndClients } from "../../runtime/surface.ts";
import { boolFlag, fleetAsked, type ParsedArgs } from "../args.ts";
import type { CommandContext } from "../context.ts";

/** Runs the picker. */
export async function run(ctx: CommandContext, args: ParsedArgs): Promise<number> {
  const [server, config] = await Promise.all([ctx.server(), ctx.config()]);
  // One tmux call lists the panes and the clients, while the terminal layer loads (D64).
  const listing = stampedRowsAndClients(server, ctx.now());
  const ui = Promise.all([import("../../ui/run.ts"), import("../surface_host.ts")]);
  const pane = ctx.env("TMUX_PANE") || undefined;
  ui.catch(() => undefined);
  const first = await listing; // no server: one line and exit 1, before the screen is taken
  // In a popup there is no $TMUX_PANE: the invoking pane is the client's.
  const client: ClientFacts | null = pane ? null : resolveClient(first.clients, {
    explicit: ctx.globals.client,
    tmux: ctx.env("TMUX") || undefined,
  });
  const firstRead = Promise.resolve({ rows: first.rows, panes: first.panes });
  const [{ runSurface }, { surfaceHost }] = await ui;
  const reports: string[] = [];
  const local = await surfaceHost(ctx, {
    exclude: pane ?? client?.pane ?? null,
    client,
    firstRead,
    report: (line) => reports.push(line),
  });
  // X9: `tma --all-hosts` or `tma --host NAME` lists other hosts' agents too.
  const host = fleetAsked(args.flags)
    ? await (await import("../fleet/surface.ts")).fleetSurfaceHost(ctx, local, {
      specs: await (await import("../fleet/common.ts")).chosenHosts(ctx, args),
      withLocal: boolFlag(args.flags, "all-hosts"),
      refreshMs: 1000,
    })
    : local;
  const code = await runSurface(host, { kind: "picker", styles: config.picker });
  for (const line of reports) ctx.err(`${line}\n`);
  return code;
}

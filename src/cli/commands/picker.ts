/**
 * `tma` with no subcommand (C1): the fuzzy picker of agent panes (U29-U32),
 * meant for `display-popup -E -w 80% -h 60% tma`. The invoking pane (the one
 * the popup opened over, or the pane it runs in) is left out; Enter jumps
 * the acting client there and closes, tab opens the action menu and closes.
 * @module
 */
import type { ClientFacts } from "../../core/client.ts";
import { stampedRows } from "../../runtime/surface.ts";
import type { ParsedArgs } from "../args.ts";
import type { CommandContext } from "../context.ts";

/** Runs the picker. */
export async function run(ctx: CommandContext, _args: ParsedArgs): Promise<number> {
  const [server, config] = await Promise.all([ctx.server(), ctx.config()]);
  // The first frame's listing starts at once, beside the client lookup (D64).
  const firstRead = stampedRows(server, ctx.now());
  firstRead.catch(() => undefined);
  // The terminal layer loads while tmux lists (D64).
  const ui = Promise.all([import("../../ui/run.ts"), import("../surface_host.ts")]);
  const pane = ctx.env("TMUX_PANE") || undefined;
  // In a popup there is no $TMUX_PANE: the invoking pane is the client's.
  const client: ClientFacts | null = pane
    ? null
    : await (await import("../../runtime/jump.ts")).findActingClient(server, {
      explicit: ctx.globals.client,
      tmux: ctx.env("TMUX") || undefined,
    });
  const [{ runSurface }, { surfaceHost }] = await ui;
  const reports: string[] = [];
  const host = await surfaceHost(ctx, {
    exclude: pane ?? client?.pane ?? null,
    client,
    firstRead,
    report: (line) => reports.push(line),
  });
  const code = await runSurface(host, { kind: "picker", styles: config.picker });
  for (const line of reports) ctx.err(`${line}\n`);
  return code;
}

/**
 * `tma ls` across hosts (X9), and the document a host's `tma ls --json
 * --identity` prints for the machine reading it.
 *
 * - `--json`: the fleet document, `{"schema":1,"agents":[…],"hosts":[…]}`:
 *   every live row with its identity keys, and each host's line (reachable,
 *   error, last good reading and its age). An unreachable host's rows are
 *   left out; the host is not.
 * - piped: the C17 lines, a remote row's pane written `%3@build`; an
 *   unreachable host is one line on stderr.
 * - on a terminal: the table, a remote row's locator prefixed with its host,
 *   then one line per unreachable host.
 *
 * It exits 0 whether or not every host answered: the document says which did.
 * @module
 */
import { identityDocument, withIdentity } from "../../core/fleet/local.ts";
import { keyedRow } from "../../core/fleet/keys.ts";
import { fleetDocument, hostNote } from "../../core/fleet/view.ts";
import { plainLine } from "../../core/rows.ts";
import { serverStartMs } from "../../tmux/options.ts";
import { boolFlag, type ParsedArgs } from "../args.ts";
import type { CommandContext } from "../context.ts";
import { listRows } from "../list_rows.ts";
import { lsTable } from "../ls_terminal.ts";
import { fleetOnce, hostNames } from "./common.ts";

/** `ls --json --identity`: the local rows with identity keys and every live pane id. */
export async function runIdentity(ctx: CommandContext, args: ParsedArgs): Promise<number> {
  const listing = await listRows(ctx, args, { alwaysGit: true, stampedeGuard: false });
  const started = await serverStartMs(await ctx.server());
  const rows = withIdentity(listing.rows, listing.cycle.panes, started);
  ctx.out(`${identityDocument(rows, listing.cycle.panes)}\n`);
  return 0;
}

/** `ls --host …` / `ls --all-hosts`. */
export async function run(ctx: CommandContext, args: ParsedArgs): Promise<number> {
  const { view, config, specs } = await fleetOnce(
    ctx,
    args,
    () => listRows(ctx, args, { alwaysGit: true, stampedeGuard: false }),
  );
  const notes = view.hosts.map(hostNote).filter((n): n is string => n !== null);
  if (boolFlag(args.flags, "json")) {
    ctx.out(`${fleetDocument(view)}\n`);
    return 0;
  }
  const names = hostNames(specs);
  const rows = view.rows.map((row) => keyedRow(row, names));
  if (Deno.stdout.isTerminal()) {
    ctx.out(lsTable(ctx, args, {
      rows: rows.map((row) => ({ ...row, pane: row.pane.split("@")[0] })),
      styles: config.picker,
    }));
    for (const note of notes) ctx.out(`✗ ${note}\n`);
    return 0;
  }
  for (const row of rows) ctx.out(`${plainLine(row)}\n`);
  for (const note of notes) ctx.err(`tma: ${note}\n`);
  return 0;
}

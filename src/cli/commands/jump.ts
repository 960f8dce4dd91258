/**
 * `tma jump`: take the acting client to the agent that wants it (C24-C33),
 * back along its trail, or show a `display-menu` of every agent (C30, U39).
 * Silent on success, since a `run-shell` binding shows whatever a command
 * prints; a note goes to stderr when nothing moved.
 * @module
 */
import { UsageError } from "../../core/errors.ts";
import { pickerOrder, sessionOfLocator } from "../../core/jump.ts";
import type { AgentRow } from "../../core/rows.ts";
import { matches, needsGit } from "../../core/selector.ts";
import { formatAge } from "../../core/age.ts";
import { classOf } from "../../core/state.ts";
import { truncate } from "../../core/width.ts";
import { shQuote } from "../../actions/menu.ts";
import { actingClient, jump, type JumpMode, sessionOfPane } from "../../runtime/jump.ts";
import { showMenu, tmuxQuote } from "../../tmux/menu.ts";
import { boolFlag, type ParsedArgs, stringFlag } from "../args.ts";
import { childArgv } from "../child_argv.ts";
import type { CommandContext } from "../context.ts";
import { listRows } from "../list_rows.ts";
import { selectorFrom } from "../selector_flags.ts";

const MODES: JumpMode[] = ["attention", "blocked", "next", "back", "home"];

/** The mode the flags ask for; `--next` when none (C26). */
function modeOf(args: ParsedArgs): JumpMode | "menu" {
  const given: (JumpMode | "menu")[] = MODES.filter((m) => boolFlag(args.flags, m));
  if (stringFlag(args.flags, "pane") !== undefined) given.push("pane");
  if (boolFlag(args.flags, "menu")) given.push("menu");
  if (given.length > 1) {
    throw new UsageError(`--${given.join(" and --")} do not combine; pick one mode`);
  }
  return given[0] ?? "next";
}

/** Runs `tma jump`. */
export async function run(ctx: CommandContext, args: ParsedArgs): Promise<number> {
  if (args.positionals.length > 0) {
    throw new UsageError(`jump takes no arguments (got "${args.positionals[0]}"); see --help`);
  }
  // X9: a pane of another host, reached through a local window attached to it.
  if (stringFlag(args.flags, "host") !== undefined) {
    return await (await import("../fleet/jump.ts")).run(ctx, args);
  }
  const mode = modeOf(args);
  const selector = selectorFrom(args.flags);
  const listing = await listRows(ctx, args, {
    alwaysGit: needsGit(selector),
    stampedeGuard: false,
    unscoped: true,
  });
  const server = await ctx.server();
  const rows = listing.rows;
  const scoped = rows.filter((r) => matches(r, selector, sessionOfLocator(r.locator)));
  const panes = listing.cycle.panes;
  const tmuxPane = ctx.env("TMUX_PANE") || undefined;
  const hints = {
    explicit: ctx.globals.client,
    pane: tmuxPane,
    paneSession: sessionOfPane(panes, tmuxPane),
    tmux: ctx.env("TMUX") || undefined,
  };
  if (mode === "menu") return await jumpMenu(ctx, { rows: scoped, hints, server });
  const result = await jump(server, {
    mode,
    pane: stringFlag(args.flags, "pane"),
    rows,
    scoped,
    panes,
    hints,
  });
  if (result.note) ctx.err(`tma: ${result.note}\n`);
  return 0;
}

/** One menu label: glyph, agent, locator, time in state and title. */
function menuLabel(
  row: AgentRow,
  options: { glyph: string; nowMs: number },
): string {
  const age = row.since_ms === null ? "" : ` ${formatAge(options.nowMs - row.since_ms)}`;
  const title = row.title.trim() ? `  ${truncate(row.title.trim(), 40)}` : "";
  return `${options.glyph} ${row.agent} ${row.locator}${age}${title}`;
}

/** The shell command of a menu entry: `jump --pane` for the same client and server. */
function jumpCommand(tma: readonly string[], pane: string, client: string): string {
  const argv = [...tma, "jump", "--pane", pane, "--client", client].map(shQuote);
  return `${argv.join(" ")} >/dev/null 2>&1`;
}

/** `jump --menu` (C30): every agent but the invoking pane, in picker order. */
async function jumpMenu(
  ctx: CommandContext,
  options: {
    rows: readonly AgentRow[];
    hints: Parameters<typeof actingClient>[1];
    server: Awaited<ReturnType<CommandContext["server"]>>;
  },
): Promise<number> {
  const client = await actingClient(options.server, options.hints);
  const invoking = options.hints.pane ?? client.pane;
  const rows = pickerOrder(options.rows.filter((r) => r.pane !== invoking));
  if (rows.length === 0) {
    ctx.err("tma: no agents\n");
    return 0;
  }
  const styles = (await ctx.config()).picker;
  const nowMs = ctx.now();
  const tma = childArgv(ctx, rows[0].server);
  await showMenu(options.server, {
    pane: client.pane,
    client: client.name,
    title: "tma: jump",
    items: rows.map((row, i) => ({
      label: menuLabel(row, { glyph: styles[classOf(row.state, row.attention)].glyph, nowMs }),
      // Digits for the first nine (C30); the rest are reached with the arrows.
      key: i < 9 ? String(i + 1) : "",
      command: `run-shell -b ${tmuxQuote(jumpCommand(tma, row.pane, client.name))}`,
    })),
  });
  return 0;
}

/**
 * `tma mute`: silence a pane's notifications, for a while or until cleared
 * (C56-C59, P31). The target is `--pane`, the selector (every match), or
 * the current pane. The deadline lives in the pane's `@agent_mute_until`,
 * so it survives restarts; it silences every notification sink and nothing
 * else. Exit 0 written, 3 no agent matched, 2 usage, 1 runtime.
 * @module
 */
import { parseDuration } from "../../core/duration.ts";
import { EXIT, TmaError, UsageError } from "../../core/errors.ts";
import { MUTE_FOREVER, muteWrite, unmuteWrite } from "../../core/mute.ts";
import type { AgentRow } from "../../core/rows.ts";
import { writeChains } from "../../tmux/writer.ts";
import { boolFlag, type ParsedArgs, stringFlag } from "../args.ts";
import type { CommandContext } from "../context.ts";
import { listRows } from "../list_rows.ts";
import { hasSelector, selectorFrom } from "../selector_flags.ts";

/** Runs `tma mute`. */
export async function run(ctx: CommandContext, args: ParsedArgs): Promise<number> {
  const clear = boolFlag(args.flags, "clear");
  const forText = stringFlag(args.flags, "for");
  if (clear && forText !== undefined) {
    throw new UsageError("mute --clear removes the mute: it takes no --for");
  }
  const forMs = forText === undefined ? null : parseDuration(forText, "--for");
  const pane = stringFlag(args.flags, "pane");
  const selecting = hasSelector(selectorFrom(args.flags));
  if (pane !== undefined && selecting) {
    throw new UsageError(
      "mute --pane names its pane: it takes no selector flags (--session, --repo, --branch, --agent, --state)",
    );
  }
  const current = ctx.env("TMUX_PANE");
  if (pane === undefined && !selecting && !current) {
    throw new UsageError("mute needs --pane ID or a selector when it runs outside tmux");
  }
  // The selector filters the listing; a named pane is found among every row.
  const { rows: listed } = await listRows(ctx, {
    ...args,
    flags: { ...args.flags, pane: undefined },
  }, {
    alwaysGit: false,
    stampedeGuard: false,
    dispatch: false,
  });
  const target = pane ?? (selecting ? undefined : current);
  const rows: AgentRow[] = target === undefined
    ? listed
    : listed.filter((row) => row.pane === target || row.locator === target);
  if (rows.length === 0) {
    ctx.err(
      `tma: mute: no agent ${
        target === undefined ? "matches the selector" : `in pane ${target}`
      }\n`,
    );
    return EXIT.vanished;
  }
  const nowMs = ctx.now();
  const write = clear ? unmuteWrite() : muteWrite({ nowMs, forMs });
  const committed = await writeChains(
    await ctx.server(),
    rows.map((row) => ({ pane: row.pane, writes: [write] })),
  );
  const failed = rows.filter((row) => !committed.get(row.pane));
  if (failed.length > 0) {
    throw new TmaError(`mute: could not write ${failed.map((r) => r.pane).join(", ")} (gone?)`);
  }
  for (const row of rows) ctx.out(`${describe(row, { clear, write: write.value, forText })}\n`);
  return EXIT.ok;
}

function describe(
  row: AgentRow,
  what: { clear: boolean; write: string | null; forText: string | undefined },
): string {
  const who = `${row.pane} (${row.agent}, ${row.locator})`;
  if (what.clear) return `unmuted ${who}`;
  if (what.write === MUTE_FOREVER) return `muted ${who} until cleared`;
  return `muted ${who} for ${what.forText} (until ${new Date(Number(what.write)).toISOString()})`;
}

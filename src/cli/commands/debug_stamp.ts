/**
 * `tma debug stamp PANE publish|hold|remove` (C100, internal): the test
 * harness that applies one stamp by hand through the guarded writer, as one
 * compare-and-swap chain on `@agent_stamped_at` (the value read, or
 * `--if-stamped-at`'s), and says whether it committed. Exit 0 committed,
 * 1 refused by the guard (another writer got there first), 3 pane gone.
 * @module
 */
import { debugStampWrites, STAMP_KINDS, type StampKind } from "../../core/debug_stamp.ts";
import { EXIT, UsageError } from "../../core/errors.ts";
import { DETAIL_TOKEN, isState, STATES } from "../../core/state.ts";
import { parseEpochMs } from "../../core/time.ts";
import { listPane } from "../../tmux/panes.ts";
import { unchangedSince, writeChains } from "../../tmux/writer.ts";
import { boolFlag, type ParsedArgs, stringFlag } from "../args.ts";
import type { CommandContext } from "../context.ts";

const SOURCES = ["hook", "capture", "process"] as const;

/** Runs `tma debug stamp`. */
export async function debugStamp(ctx: CommandContext, args: ParsedArgs): Promise<number> {
  const [, pane, kindArg] = args.positionals;
  const usage = "tma debug stamp PANE publish|hold|remove [--state S] [--detail D] " +
    "[--source hook|capture|process] [--agent NAME] [--attention] [--at MS] [--if-stamped-at MS]";
  if (!pane || !kindArg) throw new UsageError(`debug stamp needs a pane and a kind: ${usage}`);
  if (!(STAMP_KINDS as readonly string[]).includes(kindArg)) {
    throw new UsageError(`debug stamp: "${kindArg}" is not publish, hold or remove`);
  }
  const kind = kindArg as StampKind;
  const flags = args.flags;
  const state = stringFlag(flags, "state");
  if (state !== undefined && !isState(state)) {
    throw new UsageError(`--state must be one of ${STATES.join(", ")} (got "${state}")`);
  }
  if (kind === "publish" && state === undefined) {
    throw new UsageError("debug stamp publish needs --state");
  }
  const detail = stringFlag(flags, "detail");
  if (detail !== undefined && !DETAIL_TOKEN.test(detail)) {
    throw new UsageError(`--detail must be a detail token (a-z, 0-9, _ and -; got "${detail}")`);
  }
  const source = stringFlag(flags, "source");
  if (source !== undefined && !(SOURCES as readonly string[]).includes(source)) {
    throw new UsageError(`--source must be one of ${SOURCES.join(", ")} (got "${source}")`);
  }
  const at = epochFlag(stringFlag(flags, "at"), "--at");
  const ifStampedAt = stringFlag(flags, "if-stamped-at");
  if (ifStampedAt !== undefined && ifStampedAt !== "") epochFlag(ifStampedAt, "--if-stamped-at");
  const server = await ctx.server();
  const facts = await listPane(server, pane);
  if (facts === null) {
    ctx.err(`tma debug stamp: pane ${pane} is gone\n`);
    return EXIT.vanished;
  }
  let writes;
  try {
    writes = debugStampWrites(facts, {
      kind,
      state: state as (typeof STATES)[number] | undefined,
      detail: detail ?? null,
      source: source as (typeof SOURCES)[number] | undefined,
      agent: stringFlag(flags, "agent") ?? null,
      attention: boolFlag(flags, "attention"),
      atMs: at,
      nowMs: ctx.now(),
    });
  } catch (error) {
    throw new UsageError(`debug stamp: ${(error as Error).message} (pass --agent NAME)`);
  }
  const guard = unchangedSince(ifStampedAt ?? facts.options["@agent_stamped_at"]);
  const committed = writes.length === 0 ||
    ((await writeChains(server, [{ pane: facts.paneId, guard, writes }])).get(facts.paneId) ??
      false);
  if (boolFlag(flags, "json")) {
    ctx.out(`${JSON.stringify({ schema: 1, pane: facts.paneId, kind, committed, writes })}\n`);
  } else {
    ctx.out(
      `${kind} ${facts.paneId}: ${
        committed ? `committed (${writes.length} writes)` : "refused by the guard"
      }\n`,
    );
  }
  return committed ? EXIT.ok : EXIT.runtime;
}

function epochFlag(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  const ms = parseEpochMs(value);
  if (ms === null) throw new UsageError(`${flag} must be epoch milliseconds (got "${value}")`);
  return ms;
}

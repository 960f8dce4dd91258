/**
 * `tma subscribe --json`: a stream of the agents' state for scripts
 * (C60-C65, P61). Each tick runs the subscriber's own cycle and prints one
 * complete `ls --json` document per line, or with `--events` one edge
 * record per state transition (the first cycle is a silent baseline). The
 * selector filters rows before the emit and before the diff, so a pane
 * leaving the selection reads as a departure. stdout carries documents
 * only: no replay, no heartbeat. It ends cleanly (exit 0) on SIGINT,
 * SIGTERM or SIGHUP, and when its reader goes away (`stdout_watch.ts`).
 * @module
 */
import { parseSeconds } from "../../core/duration.ts";
import { diffEdges } from "../../core/edges.ts";
import { EXIT, UsageError } from "../../core/errors.ts";
import type { AgentRow } from "../../core/rows.ts";
import { needsGit } from "../../core/selector.ts";
import { watchStdoutReader } from "../../runtime/stdout_watch.ts";
import { Ticker } from "../../runtime/ticker.ts";
import { boolFlag, fleetAsked, type ParsedArgs, stringFlag } from "../args.ts";
import type { CommandContext } from "../context.ts";
import { joinDaemonHints } from "../daemon_hints.ts";
import { selectorFrom } from "../selector_flags.ts";
import { WaiterCycles } from "../waiter_cycle.ts";

/** The reader of stdout went away: the stream ends. */
function readerGone(error: unknown): boolean {
  return error instanceof Deno.errors.BrokenPipe ||
    (error instanceof Error && /broken pipe|os error 32/i.test(error.message));
}

/** Runs `tma subscribe`. */
export async function run(ctx: CommandContext, args: ParsedArgs): Promise<number> {
  if (!boolFlag(args.flags, "json")) {
    throw new UsageError("subscribe needs --json (one JSON document per line is its only format)");
  }
  const intervalText = stringFlag(args.flags, "interval");
  const intervalMs = intervalText === undefined
    ? 1000
    : parseSeconds(intervalText, { flag: "--interval", min: 1 });
  const events = boolFlag(args.flags, "events");
  const changesOnly = boolFlag(args.flags, "changes-only") && !events;
  const selector = selectorFrom(args.flags);
  const cycles = new WaiterCycles(ctx, "subscribe", { selector, git: needsGit(selector) });
  const ticker = new Ticker({
    intervalMs,
    wakeSignals: ["SIGUSR1"],
    stopSignals: ["SIGINT", "SIGTERM", "SIGHUP"],
  });
  // U11: a running daemon's pushes wake the waiter within its coalescing window.
  const stopHints = await joinDaemonHints(ctx, ticker.waker);
  // The reader of a pipe may leave between documents: stop at once (C65).
  const watch = watchStdoutReader(() => ticker.stop());
  if (fleetAsked(args.flags)) {
    // X9: the same stream over other hosts' rows; the fleet code loads only then.
    try {
      const { runSubscribe } = await import("../fleet/waiters.ts");
      return await runSubscribe(ctx, args, {
        intervalMs,
        events,
        changesOnly,
        selector,
        ticker,
        write: (lines) => {
          try {
            for (const line of lines) ctx.out(`${line}\n`);
            return true;
          } catch (error) {
            if (readerGone(error)) return false;
            throw error;
          }
        },
      });
    } finally {
      stopHints();
      watch.close();
      ticker.close();
    }
  }
  let previous: AgentRow[] | null = null;
  let lastDocument: string | null = null;
  try {
    while (!ticker.stopped) {
      const listing = await cycles.next();
      if (listing === "no-server") return EXIT.runtime;
      const rows = listing === "stalled" ? null : listing.rows;
      if (rows !== null) {
        const lines: string[] = [];
        if (events) {
          for (const edge of diffEdges(previous, rows, ctx.now())) lines.push(JSON.stringify(edge));
          previous = rows;
        } else {
          const document = JSON.stringify({ schema: 1, agents: rows });
          if (!changesOnly || document !== lastDocument) lines.push(document);
          lastDocument = document;
        }
        try {
          for (const line of lines) ctx.out(`${line}\n`);
        } catch (error) {
          if (readerGone(error)) return EXIT.ok;
          throw error;
        }
      }
      if ((await ticker.sleep()) === "stopped") break;
    }
    return EXIT.ok;
  } finally {
    stopHints();
    watch.close();
    ticker.close();
  }
}

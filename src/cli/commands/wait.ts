/**
 * `tma wait`: block until agents reach a state (C34-C42). One cycle at once,
 * then about one a second (sooner on a SIGUSR1 or, later, a daemon's wake
 * hint), re-reading config and manifests each tick. The decision is the
 * pure `stepWait` (src/core/wait.ts); this module runs the cycles, prints
 * the match, and maps the end to an exit code: 0 observed, 124 timeout
 * (nothing on stdout), 3 pane vanished, 4 agent gone while its pane lives,
 * 2 usage, 1 runtime (ambiguous `--agent`, no server).
 * @module
 */
import { parseCount, parseSeconds } from "../../core/duration.ts";
import { EXIT, UsageError } from "../../core/errors.ts";
import { needsGit, parseStates, type Selector } from "../../core/selector.ts";
import {
  initialWaitState,
  stepWait,
  type WaitObservation,
  type WaitSpec,
  type WaitTarget,
} from "../../core/wait.ts";
import type { Listing } from "../../runtime/cycle/listing.ts";
import { Ticker } from "../../runtime/ticker.ts";
import { boolFlag, fleetAsked, type ParsedArgs, stringFlag } from "../args.ts";
import type { CommandContext } from "../context.ts";
import { joinDaemonHints } from "../daemon_hints.ts";
import { hasSelector, selectorFrom } from "../selector_flags.ts";
import { WaiterCycles } from "../waiter_cycle.ts";
import { endOfWait } from "../wait_verdict.ts";

/** The cadence of a wait without wake hints (C40). */
export const WAIT_TICK_MS = 1000;

/** Reads the flags into a wait, or throws a usage error naming the flag. */
export function waitSpecFrom(args: ParsedArgs): WaitSpec {
  const flags = args.flags;
  const selector = selectorFrom(flags);
  const pane = stringFlag(flags, "pane");
  const countText = stringFlag(flags, "count");
  const named = [
    pane !== undefined && "--pane",
    boolFlag(flags, "any") && "--any",
    boolFlag(flags, "all") && "--all",
    countText !== undefined && "--count",
  ].filter((f): f is string => typeof f === "string");
  if (named.length > 1) throw new UsageError(`wait takes one target, got ${named.join(" and ")}`);
  let target: WaitTarget;
  let scope: Selector = selector;
  if (pane !== undefined) {
    if (hasSelector(selector)) {
      throw new UsageError(
        "wait --pane names its pane: it takes no selector flags (--session, --repo, --branch, --agent, --state)",
      );
    }
    target = { kind: "pane", pane };
  } else if (boolFlag(flags, "any")) {
    target = { kind: "any" };
  } else if (boolFlag(flags, "all")) {
    target = { kind: "all" };
  } else if (countText !== undefined) {
    target = { kind: "count", count: parseCount(countText, "--count") };
  } else if (selector.agent !== undefined) {
    // Alone, --agent is the target that pins; beside --any, --all or --count it scopes.
    target = { kind: "agent", agent: selector.agent };
    scope = { ...selector, agent: undefined };
  } else {
    throw new UsageError("wait needs a target: --pane ID, --agent NAME, --any, --all or --count N");
  }
  const untilText = stringFlag(flags, "until");
  if (untilText === undefined) {
    throw new UsageError(
      "wait needs --until STATES (a comma list of idle, working, blocked, unknown, done)",
    );
  }
  const until = parseStates(untilText, "--until");
  if (until.size === 0) throw new UsageError("--until: name at least one state");
  const sinceText = stringFlag(flags, "since");
  let sinceMs: number | null = null;
  if (sinceText !== undefined) {
    if (!/^\d+$/.test(sinceText.trim())) {
      throw new UsageError(`--since: "${sinceText}" is not an epoch time in milliseconds`);
    }
    sinceMs = Number(sinceText.trim());
  }
  return { target, until, sinceMs, selector: scope };
}

/** The observation `stepWait` reads, from one listing. */
function observe(listing: Listing): WaitObservation {
  // A dead pane kept by remain-on-exit still lives: its agent died (exit 4), it did not vanish.
  const panes = listing.cycle.panes;
  const session = new Map(panes.map((p) => [p.paneId, p.sessionName]));
  return {
    panes: panes.map((p) => ({ paneId: p.paneId, locator: p.locator })),
    rows: listing.rows.map((row) => ({ row, sessionName: session.get(row.pane) ?? "" })),
  };
}

/** Runs `tma wait`. */
export async function run(ctx: CommandContext, args: ParsedArgs): Promise<number> {
  const spec = waitSpecFrom(args);
  const timeoutText = stringFlag(args.flags, "timeout");
  const started = ctx.now();
  const deadline = timeoutText === undefined
    ? undefined
    : started + parseSeconds(timeoutText, { flag: "--timeout", min: 0 });
  // X9: the same wait over other hosts' rows; the fleet code loads only then.
  if (fleetAsked(args.flags)) {
    const { runWait } = await import("../fleet/waiters.ts");
    return await runWait(ctx, args, { spec, deadline, tickMs: WAIT_TICK_MS });
  }
  const json = boolFlag(args.flags, "json");
  const cycles = new WaiterCycles(ctx, "wait", { git: needsGit(spec.selector) });
  const ticker = new Ticker({ intervalMs: WAIT_TICK_MS, wakeSignals: ["SIGUSR1"] });
  // U11: a running daemon's pushes wake the waiter within its coalescing window.
  const stopHints = await joinDaemonHints(ctx, ticker.waker);
  let state = initialWaitState();
  try {
    for (;;) {
      const listing = await cycles.next();
      if (listing === "no-server") return EXIT.runtime;
      if (listing !== "stalled") {
        const step = stepWait(spec, state, observe(listing));
        state = step.state;
        const code = endOfWait(ctx, step.verdict, { json, object: (row) => row });
        if (code !== null) return code;
      }
      // Checked after a cycle: even --timeout 0 looks once.
      if (deadline !== undefined && ctx.now() >= deadline) return EXIT.timeout;
      if ((await ticker.sleep(deadline)) === "deadline") return EXIT.timeout;
    }
  } finally {
    stopHints();
    ticker.close();
  }
}

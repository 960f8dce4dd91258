/**
 * `tma debug`: tools for rule authors (C95-C97 and `classify`). `capture`
 * prints what the detector saw in fixture format, `explain` every fact and
 * rule behind a pane's verdict, `classify` a capture offline, and `redact`
 * makes a capture safe to commit; `notify-test` runs the notify command
 * against a synthesized payload (C99); `stamp` applies one guarded stamp by
 * hand, for tests (C100).
 * @module
 */
import { UsageError } from "../../core/errors.ts";
import { runCycle } from "../../runtime/cycle/run.ts";
import { boolFlag, multiFlag, type ParsedArgs, stringFlag } from "../args.ts";
import type { CommandContext } from "../context.ts";

/** Dispatches the debug subcommands. */
export async function run(ctx: CommandContext, args: ParsedArgs): Promise<number> {
  const [sub, target] = args.positionals;
  switch (sub) {
    case "capture":
      return await capture(ctx, requirePane(target, "capture"), stringFlag(args.flags, "state"));
    case "explain":
      return await explain(ctx, requirePane(target, "explain"), boolFlag(args.flags, "json"));
    case "classify":
      return await classify(ctx, args);
    case "redact":
      return await redact(ctx, args);
    case "transitions":
      return await transitions(ctx, boolFlag(args.flags, "json"));
    case "notify-test":
      return await (await import("./notify_test.ts")).notifyTest(ctx, args);
    case "stamp":
      return await (await import("./debug_stamp.ts")).debugStamp(ctx, args);
    default:
      throw new UsageError(
        `debug needs a subcommand: capture PANE, explain PANE, classify FILE, redact FILE, notify-test, transitions, stamp PANE KIND (got ${
          sub ? `"${sub}"` : "none"
        })`,
      );
  }
}

function requirePane(pane: string | undefined, sub: string): string {
  if (!pane) throw new UsageError(`debug ${sub} needs a pane id, e.g. tma debug ${sub} %3`);
  return pane;
}

async function cycleFor(ctx: CommandContext, pane: string) {
  const [server, config, manifests] = await Promise.all([
    ctx.server(),
    ctx.config(),
    ctx.manifests(),
  ]);
  const result = await runCycle({
    server,
    models: manifests.models,
    windows: {
      dwellSecs: config.fold.dwell_secs,
      hookDecaySecs: config.fold.hook_decay_secs,
      blockedDecaySecs: config.fold.blocked_decay_secs,
    },
    now: ctx.now,
    dryRun: true,
    forceCapture: new Set([pane]),
  });
  const facts = result.panes.find((p) => p.paneId === pane);
  if (!facts) throw new UsageError(`no pane ${pane} on this tmux server`);
  return { result, facts, server, outcome: result.outcomes.find((o) => o.pane.paneId === pane) };
}

/** C96: the pane's capture in fixture format. */
async function capture(ctx: CommandContext, pane: string, state?: string): Promise<number> {
  const { facts, server, outcome } = await cycleFor(ctx, pane);
  const { capturePanes } = await import("../../tmux/capture.ts");
  const screen = (await capturePanes(server, [pane])).get(pane) ?? "";
  const header = [
    `# agent: ${outcome?.identity.agent ?? "none"}`,
    `# state: ${state ?? outcome?.stamp.state ?? "unknown"}`,
    `# title: ${facts.title}`,
    `# command: ${facts.currentCommand}`,
    `# pid: ${outcome?.identity.pid ?? 0}`,
    `# captured_at: ${ctx.now()}`,
    `# height: ${facts.height}`,
    "---",
  ];
  ctx.out(`${header.join("\n")}\n${screen}\n`);
  return 0;
}

/** C97, P73: identity facts, every rule tried, the verdict and its evidence. */
async function explain(ctx: CommandContext, pane: string, json: boolean): Promise<number> {
  const { facts, outcome } = await cycleFor(ctx, pane);
  const identity = outcome?.identity;
  const reading = outcome?.screen?.reading ?? null;
  const verdict = outcome?.verdict ?? null;
  const evidence = [];
  if (outcome?.prior.source === "hook" && outcome.prior.state) {
    evidence.push({
      source: "hook",
      claim: outcome.prior.detail
        ? `${outcome.prior.state}/${outcome.prior.detail}`
        : outcome.prior.state,
      at: outcome.prior.evidenceAt,
      meta: null,
    });
  }
  if (reading?.best) {
    evidence.push({
      source: "capture",
      claim: reading.best.detail
        ? `${reading.best.state}/${reading.best.detail}`
        : reading.best.state,
      at: ctx.now(),
      meta: reading.best.label,
    });
  }
  if (identity?.agent) {
    evidence.push({
      source: "process",
      claim: identity.foregroundIsAgent ? "foreground" : "background",
      at: ctx.now(),
      meta: identity.matched ? `${identity.matched.comm} (${identity.matched.pid})` : null,
    });
  }
  const doc = {
    schema: 1,
    pane: facts.paneId,
    locator: facts.locator,
    command: facts.currentCommand,
    title: facts.title,
    agent: identity?.agent ?? null,
    identity_source: identity?.source ?? null,
    out_of_scope: identity?.outOfScope !== null && identity?.outOfScope !== undefined &&
      identity.source === null,
    out_of_scope_kind: identity?.source === null ? identity?.outOfScope ?? null : null,
    registered_behind: identity?.source === "registered" && identity.outOfScope !== null,
    registered_behind_kind: identity?.source === "registered" ? identity.outOfScope : null,
    ignored: Boolean(facts.options["@agent_ignore"]),
    foreground_is_agent: identity?.foregroundIsAgent ?? false,
    scrolled: facts.scrollPosition > 0,
    history_view: reading?.historyView?.label ?? null,
    evidence,
    rules: (reading?.results ?? []).map((r) => ({
      index: r.index,
      matched: r.matched,
      state: r.state,
      detail: r.detail,
      priority: r.priority,
      region: r.region,
      skip_state_update: r.skipStateUpdate,
      ends_turn: r.endsTurn,
    })),
    verdict: verdict && verdict.action !== "remove"
      ? {
        state: verdict.state,
        detail: verdict.detail,
        action: verdict.action,
        may_override: verdict.mayOverride,
        set_attention: verdict.setAttention,
        episode_reset: verdict.episodeReset,
        winning_evidence: verdict.winning,
        reason: verdict.reason,
      }
      : null,
  };
  if (json) {
    ctx.out(`${JSON.stringify(doc)}\n`);
    return 0;
  }
  const lines = [
    `pane ${doc.pane} (${doc.locator}) command ${doc.command} title ${JSON.stringify(doc.title)}`,
    `agent: ${doc.agent ?? "none"} (${
      doc.identity_source ?? "-"
    }), foreground: ${doc.foreground_is_agent}` +
    (doc.out_of_scope_kind ? `, out of scope: ${doc.out_of_scope_kind}` : "") +
    (doc.ignored ? ", ignored" : "") + (doc.scrolled ? ", scrolled" : ""),
    ...doc.rules.map((r) =>
      `  ${r.matched ? "✓" : "·"} rules[${r.index}] ${r.state}${r.detail ? `/${r.detail}` : ""} ` +
      `priority ${r.priority} ${r.region}${r.skip_state_update ? " (history view)" : ""}` +
      (r.ends_turn ? " (ends the turn)" : "")
    ),
    verdict
      ? `verdict: ${verdict.action} ${verdict.state ?? ""}${
        verdict.detail ? `/${verdict.detail}` : ""
      } — ${verdict.reason}`
      : "verdict: none",
  ];
  ctx.out(`${lines.join("\n")}\n`);
  return 0;
}

async function readInput(path: string | undefined, what: string): Promise<string> {
  if (!path) throw new UsageError(`debug ${what} needs a FILE (or - for stdin)`);
  if (path === "-") return await new Response(Deno.stdin.readable).text();
  try {
    return await Deno.readTextFile(path);
  } catch (error) {
    throw new UsageError(`debug ${what}: cannot read ${path}: ${(error as Error).message}`);
  }
}

/** Classifies a capture offline and prints `{"agent","state","detail","rule"}`. */
async function classify(ctx: CommandContext, args: ParsedArgs): Promise<number> {
  const text = await readInput(args.positionals[1], "classify");
  const { parseScreenFile } = await import("../../core/rules/screen_file.ts");
  let screen = {
    agent: undefined as string | undefined,
    title: "",
    height: null as number | null,
    capture: text,
  };
  if (text.startsWith("# ")) {
    const file = parseScreenFile(text, args.positionals[1]);
    screen = { agent: file.agent, title: file.title, height: file.height, capture: file.capture };
  }
  const agent = stringFlag(args.flags, "agent") ?? screen.agent;
  if (!agent) throw new UsageError("debug classify needs --agent NAME (or a fixture header)");
  const manifests = await ctx.manifests();
  const model = manifests.models.find((m) => m.profile.name === agent);
  if (!model) throw new UsageError(`debug classify: no manifest for agent "${agent}"`);
  const heightFlag = stringFlag(args.flags, "height");
  const height = heightFlag === undefined ? screen.height : Number(heightFlag);
  if (heightFlag !== undefined && !Number.isInteger(height)) {
    throw new UsageError(`--height must be a whole number of rows (got "${heightFlag}")`);
  }
  const evidence = model.classify({
    capture: screen.capture,
    title: stringFlag(args.flags, "title") ?? screen.title,
    height: height ?? null,
  });
  const chosen = evidence.historyView ?? evidence.best;
  ctx.out(
    `${
      JSON.stringify({
        agent,
        state: evidence.historyView ? "unknown" : chosen?.state ?? "unknown",
        detail: evidence.historyView ? null : chosen?.detail ?? null,
        rule: chosen?.label ?? null,
      })
    }\n`,
  );
  return 0;
}

/** C95: redacts paths, emails and extra patterns, keeping each line's width. */
async function redact(ctx: CommandContext, args: ParsedArgs): Promise<number> {
  const text = await readInput(args.positionals[1], "redact");
  const patterns = multiFlag(args.flags, "pattern").map((source) => {
    try {
      return new RegExp(source, "gu");
    } catch (error) {
      throw new UsageError(
        `--pattern ${JSON.stringify(source)} is not a valid regex: ${(error as Error).message}`,
      );
    }
  });
  const { redact } = await import("../../core/redact.ts");
  ctx.out(redact(text, { patterns, home: ctx.env("HOME") }));
  return 0;
}

/** `debug transitions [--json]` (C98, P74): the daemon's ring over its socket. */
async function transitions(ctx: CommandContext, json: boolean): Promise<number> {
  const [{ readTransitions }, { daemonOf }] = await Promise.all([
    import("../../runtime/daemon_link.ts"),
    import("../../runtime/daemon_start.ts"),
  ]);
  const found = await daemonOf(await ctx.server(), (name) => ctx.env(name));
  const text = found === null ? null : await readTransitions(found.paths);
  if (text === null) {
    ctx.err("tma debug transitions: no daemon runs for this server (start one: tma daemon)\n");
    return 1;
  }
  if (json) {
    ctx.out(`${text}\n`);
    return 0;
  }
  const doc = JSON.parse(text) as {
    recorded: number;
    transitions: {
      pane: string;
      from: string | null;
      to: string | null;
      at: number;
      source: string;
    }[];
  };
  for (const t of doc.transitions) {
    ctx.out(
      `${new Date(t.at).toISOString()} ${t.pane} ${t.from ?? "-"} -> ${
        t.to ?? "gone"
      } (${t.source})\n`,
    );
  }
  ctx.out(`${doc.transitions.length} shown, ${doc.recorded} recorded since the daemon started\n`);
  return 0;
}

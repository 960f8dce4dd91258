/**
 * `tma act`: fire an action at a pane through the broker, or `--list` the
 * actions, `--menu` them in tmux, `--dry-run` one, or print the audit `--log`
 * (C43-C55).
 * @module
 */
import { UsageError } from "../../core/errors.ts";
import type { ParsedActionManifest } from "../../core/manifest/parse.ts";
import { auditLine, auditPath, readAudit } from "../../actions/audit.ts";
import { fire, type FireReport, validateRequest } from "../../actions/broker.ts";
import {
  dryRun,
  type DryRunTarget,
  fireability,
  freshView,
  type ListedAction,
  listedAction,
} from "../../actions/explain.ts";
import type { BrokerEnv } from "../../actions/observe.ts";
import { type ActResult, batchExitCode, exitCodeOf } from "../../core/action/outcome.ts";
import { resolveTargets } from "../../actions/target.ts";
import { boolFlag, multiFlag, type ParsedArgs, stringFlag } from "../args.ts";
import type { CommandContext } from "../context.ts";
import type { TableView } from "../table_view.ts";
import { hasSelector, selectorFrom } from "../selector_flags.ts";
import { brokerEnv, showActionMenu } from "../action_menu.ts";

/** How many audit entries `--log` prints. */
export const LOG_ENTRIES = 20;

/** Fires an action, or lists, menus, dry-runs or logs. */
export async function run(
  ctx: CommandContext,
  args: ParsedArgs,
  table?: TableView,
): Promise<number> {
  const flags = args.flags;
  // X9: the remote act over the host's transport; the fleet code loads only then.
  if (stringFlag(flags, "host") !== undefined) {
    return await (await import("../fleet/act.ts")).run(ctx, args, table?.globals ?? []);
  }
  const json = boolFlag(flags, "json");
  const modes = ["list", "menu", "log"].filter((m) => boolFlag(flags, m));
  if (modes.length > 1) throw new UsageError(`--${modes.join(" and --")} do not combine; pick one`);
  if (modes.length === 1 && args.positionals.length > 0) {
    throw new UsageError(`--${modes[0]} takes no action name (got "${args.positionals[0]}")`);
  }
  if (args.positionals.length > 1) {
    throw new UsageError(`act fires one action; got ${args.positionals.join(", ")}`);
  }
  if (boolFlag(flags, "log")) return await printLog(ctx, json);

  const env = await brokerEnv(ctx);
  const manifests = await ctx.manifests();
  if (boolFlag(flags, "list")) {
    return await printList(ctx, env, { args, json, manifests: manifests.actions });
  }
  if (boolFlag(flags, "menu")) {
    return await openMenu(ctx, env, { args, actions: manifests.actions });
  }

  const name = args.positionals[0];
  if (name === undefined) {
    throw new UsageError("which action? tma act NAME (tma act --list shows them)");
  }
  const action = manifests.actions.get(name);
  if (!action) {
    const known = [...manifests.actions.keys()].sort().join(", ");
    throw new UsageError(`no action named "${name}" (loaded: ${known})`);
  }
  if (Object.values(action.api).some((op) => op.op === "question-reply")) {
    throw new UsageError(
      `${name} answers questions with question-reply, and tma act cannot carry the answers; ` +
        "fire it from the library with answers (A33)",
    );
  }
  const text = stringFlag(flags, "text");
  const argValues = multiFlag(flags, "arg");
  const force = boolFlag(flags, "force");
  // Checked before any pane is looked at; the confirmation comes later.
  validateRequest({ action, pane: "", text, args: argValues, confirmed: true });

  const selector = selectorFrom(flags);
  const all = boolFlag(flags, "all");
  const targets = await resolveTargets(env, {
    pane: stringFlag(flags, "pane"),
    selector,
    hasSelector: hasSelector(selector),
    all,
    envPane: ctx.env("TMUX_PANE") || undefined,
  });

  if (boolFlag(flags, "dry-run")) {
    const explained: DryRunTarget[] = [];
    for (const pane of targets) {
      explained.push(await dryRun(env, { action, pane, text, args: argValues, force }));
    }
    printDryRun(ctx, { action, explained, json, all });
    return dryRunCode(explained);
  }

  const confirmed = !action.confirm || boolFlag(flags, "yes") ||
    await confirmOnTerminal(ctx, action, targets);
  const reports: FireReport[] = [];
  for (const pane of targets) {
    reports.push(
      await fire(env, {
        action,
        pane,
        text,
        args: argValues,
        force,
        confirmed,
        execStdout: json ? "stderr" : "inherit",
      }),
    );
  }
  for (const report of reports) describe(ctx, report, { json });
  const results = reports.map((r) => r.result);
  if (json) {
    const doc = all ? { schema: 1, results } : results[0];
    ctx.out(`${JSON.stringify(doc)}\n`);
  }
  return all ? batchExitCode(results) : results[0].exit_code;
}

/** One line per target: success on stdout, a refusal or failure with its reason on stderr. */
function describe(ctx: CommandContext, report: FireReport, options: { json: boolean }): void {
  const r = report.result;
  const who = `${r.action} at ${r.pane}${report.agent ? ` (${report.agent})` : ""}`;
  if (r.exit_code === 0) {
    // A sync exec speaks for itself; a detached one is told apart by its outcome.
    if (!options.json && (report.transport !== "exec" || r.outcome === "spawned")) {
      ctx.out(`${who}: ${r.outcome}\n`);
    }
    return;
  }
  const reason = r.reason ? `: ${r.reason}` : "";
  const why = report.message ? ` (${report.message})` : "";
  ctx.err(`tma: ${who} ${r.outcome}${reason}${why}\n`);
}

/**
 * The exit code of a dry run: what the real run would end in at the gate
 * (0 fireable, 4 refused, 3 gone), the worst target's under C46's ranking.
 */
function dryRunCode(explained: readonly DryRunTarget[]): number {
  const results: ActResult[] = explained.map((t) => {
    const gone = t.locator === null;
    const outcome = t.fireable ? "sent" : gone ? "vanished" : "refused";
    return {
      schema: 1,
      action: "",
      pane: t.pane,
      outcome,
      exit_code: exitCodeOf({ outcome, reason: gone ? null : t.reason ?? "gated" }),
      reason: t.reason,
    };
  });
  return batchExitCode(results);
}

function printDryRun(
  ctx: CommandContext,
  options: { action: ParsedActionManifest; explained: DryRunTarget[]; json: boolean; all: boolean },
): void {
  const { action, explained } = options;
  if (options.json) {
    ctx.out(
      `${JSON.stringify({ schema: 1, action: action.name, dry_run: true, targets: explained })}\n`,
    );
    return;
  }
  for (const t of explained) {
    const verdict = t.fireable ? "fireable" : `refused: ${t.reason ?? "not fireable"}`;
    ctx.out(`${action.name} at ${t.pane}${t.locator ? ` (${t.locator})` : ""}: ${verdict}\n`);
    if (t.message) ctx.out(`  why: ${t.message}\n`);
    ctx.out(
      `  agent: ${t.agent ?? "-"}  state: ${t.state ?? "-"}${t.detail ? `/${t.detail}` : ""}`,
    );
    ctx.out(`  stamp age: ${age(t.stamp_age_ms)}${t.redetected ? " (re-detected)" : ""}\n`);
    if (explained.length > 1) continue;
    const c = t.context;
    ctx.out(
      `  context: ${
        c.context_pct ? `${c.context_pct.value}% (${age(c.context_pct.age_ms)} old)` : "-"
      }` +
        `  tokens: ${c.tokens ? `${c.tokens.value} (${age(c.tokens.age_ms)} old)` : "-"}\n`,
    );
    if (t.lock) ctx.out(`  lock: held (${t.lock})\n`);
    const w = t.would_send;
    if (!w) continue;
    switch (w.transport) {
      case "keys":
        ctx.out(`  would send keys: ${w.keys.map((k) => JSON.stringify(k)).join(" ")}\n`);
        break;
      case "text":
        ctx.out(
          `  would type: ${
            w.sequence.map((k) => (k === "{text}" ? JSON.stringify(w.text) + " (literal)" : k))
              .join(" ")
          }\n`,
        );
        break;
      case "hook-lane":
        ctx.out(`  would hand the hook lane ${w.option}=${w.value}\n`);
        ctx.out(
          `  if no hook takes it: keys ${
            w.fallback_keys.map((k) => JSON.stringify(k)).join(" ")
          }\n`,
        );
        break;
      case "api":
        ctx.out(`  would ${w.method} ${w.url} ${w.body}\n`);
        break;
      case "exec":
        ctx.out(`  would run: sh -c ${JSON.stringify(w.command)}\n`);
        if (w.detach_timeout_ms !== undefined) {
          ctx.out(`  detached, under tma supervise; killed after ${w.detach_timeout_ms} ms\n`);
        }
        for (const [k, v] of Object.entries(w.env)) ctx.out(`    ${k}=${JSON.stringify(v)}\n`);
        break;
    }
  }
}

function age(ms: number | null): string {
  if (ms === null) return "-";
  if (ms < 1000) return `${ms}ms`;
  if (ms < 120_000) return `${(ms / 1000).toFixed(1)}s`;
  return `${Math.round(ms / 60_000)}m`;
}

/** Asks once on the terminal (R7); a non-terminal caller without --yes is refused. */
async function confirmOnTerminal(
  ctx: CommandContext,
  action: ParsedActionManifest,
  targets: readonly string[],
): Promise<boolean> {
  if (!Deno.stdin.isTerminal()) {
    throw new UsageError(
      `${action.name} is a confirm action; pass --yes (a caller without a terminal is refused)`,
    );
  }
  const where = targets.length === 1 ? targets[0] : `${targets.length} panes`;
  ctx.err(`${action.label} at ${where}? [y/N] `);
  const answer = await readLine();
  if (!/^y(es)?$/i.test(answer.trim())) {
    throw new UsageError(`${action.name} not confirmed; nothing fired`);
  }
  return true;
}

async function readLine(): Promise<string> {
  const buffer = new Uint8Array(256);
  let line = "";
  const decoder = new TextDecoder();
  for (;;) {
    const n = await Deno.stdin.read(buffer);
    if (n === null) return line;
    line += decoder.decode(buffer.subarray(0, n), { stream: true });
    const end = line.indexOf("\n");
    if (end >= 0) return line.slice(0, end);
  }
}

async function printLog(ctx: CommandContext, json: boolean): Promise<number> {
  const entries = await readAudit(auditPath(ctx.env), LOG_ENTRIES);
  if (json) {
    ctx.out(`${JSON.stringify({ schema: 1, entries })}\n`);
  } else {
    for (const entry of entries) ctx.out(`${auditLine(entry)}\n`);
  }
  return 0;
}

async function printList(
  ctx: CommandContext,
  env: BrokerEnv,
  options: {
    args: ParsedArgs;
    json: boolean;
    manifests: ReadonlyMap<string, ParsedActionManifest>;
  },
): Promise<number> {
  const flags = options.args.flags;
  if (hasSelector(selectorFrom(flags)) || boolFlag(flags, "all")) {
    throw new UsageError("--list takes --pane only (no selector flags, no --all)");
  }
  const pane = stringFlag(flags, "pane");
  const actions = [...options.manifests.values()].sort((a, b) => a.name.localeCompare(b.name));
  const view = pane === undefined ? null : await freshView(env, pane);
  if (pane !== undefined && view === null) {
    ctx.err(`tma: pane ${pane} is gone\n`);
    return 3;
  }
  const listed: ListedAction[] = [];
  const messages = new Map<string, string | null>();
  for (const action of actions) {
    const entry = listedAction(action);
    if (view) {
      const f = fireability(env, { action, view });
      entry.fireable = f.fireable;
      entry.reason = f.reason;
      messages.set(action.name, f.message);
    }
    listed.push(entry);
  }
  if (options.json) {
    ctx.out(`${JSON.stringify({ schema: 1, actions: listed })}\n`);
    return 0;
  }
  for (const entry of listed) {
    const w = entry.when;
    const when = w
      ? [
        `${w.state.join("|") || "any"}${w.detail.length > 0 ? `/${w.detail.join("|")}` : ""}`,
        ...(w.context_pct_min !== null ? [`ctx>=${w.context_pct_min}`] : []),
        ...(w.context_pct_max !== null ? [`ctx<=${w.context_pct_max}`] : []),
      ].join(" ")
      : "always";
    const agents = entry.agents.length > 0 ? entry.agents.join(",") : "all";
    const cells = [entry.name, entry.label, entry.kind + (entry.text ? "+text" : ""), agents, when];
    if (view) {
      cells.push(
        entry.fireable ? "fireable" : `not fireable: ${entry.reason ?? messages.get(entry.name)}`,
      );
    }
    ctx.out(`${cells.join("\t")}\n`);
  }
  return 0;
}

async function openMenu(
  ctx: CommandContext,
  env: BrokerEnv,
  options: { args: ParsedArgs; actions: ReadonlyMap<string, ParsedActionManifest> },
): Promise<number> {
  const flags = options.args.flags;
  const selector = selectorFrom(flags);
  if (boolFlag(flags, "all")) throw new UsageError("--menu opens for one pane; drop --all");
  const [target] = await resolveTargets(env, {
    pane: stringFlag(flags, "pane"),
    selector,
    hasSelector: hasSelector(selector),
    all: false,
    envPane: ctx.env("TMUX_PANE") || undefined,
  });
  return await showActionMenu(ctx, env, { pane: target, actions: options.actions });
}

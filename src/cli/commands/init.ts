/**
 * `tma init` (C74, C75): the first-run wizard. Six steps in order, each
 * run by the command that owns it so its diff and its question read as
 * that command shows them: find the agents on PATH, `install-hooks` each,
 * say whether `status-right` runs `tma status` (it is never edited: the
 * line to add is printed), `install-keys` unless current, the daemon when
 * asked for, and a doctor report. Exit 1 when a step failed or was
 * declined; without a terminal and without `--yes` every question declines.
 * @module
 */
import { UsageError } from "../../core/errors.ts";
import { statusRunsTma } from "../../core/doctor.ts";
import {
  checkKeys,
  currentLauncher,
  DAEMON_AVAILABLE,
  findInstalledAgents,
  readKeysState,
} from "../../install/mod.ts";
import { readServerFacts } from "../../tmux/server_facts.ts";
import { boolFlag, type ParsedArgs, type ParsedFlags, stringFlag } from "../args.ts";
import type { CommandContext } from "../context.ts";
import { absolute, run as runInstallKeysCommand } from "./install_keys.ts";

/** The line `init` prints for a status line that does not run tma yet (U2). */
export const STATUS_RIGHT_LINE = "set -ag status-right ' #(tma status)'";

/** Runs the command. */
export async function run(ctx: CommandContext, args: ParsedArgs): Promise<number> {
  const { flags } = args;
  if (args.positionals.length > 0) {
    throw new UsageError(`init takes no arguments (got "${args.positionals[0]}")`);
  }
  if (boolFlag(flags, "daemon") && boolFlag(flags, "no-daemon")) {
    throw new UsageError("--daemon and --no-daemon exclude each other");
  }
  const yes = boolFlag(flags, "yes");
  const configDir = absolute(stringFlag(flags, "config-dir") ?? ctx.env("TMA_CONFIG_DIR"));
  const conf = absolute(stringFlag(flags, "conf"));
  const failed: string[] = [];
  const step = (n: number, title: string) => ctx.out(`\n== ${n}/6 ${title}\n`);

  // 1. Agents on PATH, by manifest name and process_names.
  step(1, "agents on PATH");
  const manifests = await ctx.manifests();
  const found = findInstalledAgents(
    ctx.env,
    (agent) => manifests.agents.get(agent)?.identity.process_names,
  );
  if (found.length === 0) {
    ctx.out("no agent install-hooks can wire is on PATH (install one, then rerun tma init)\n");
  }
  for (const agent of found) ctx.out(`found ${agent.agent} (${agent.path})\n`);

  // 2. install-hooks for each, as that command shows it.
  step(2, "agent hooks");
  const installHooks = await import("./install_hooks.ts");
  for (const { agent } of found) {
    ctx.out(`-- tma install-hooks ${agent}\n`);
    const hookFlags: ParsedFlags = { yes };
    if (configDir) hookFlags["config-dir"] = configDir;
    const code = await installHooks.run(ctx, { flags: hookFlags, positionals: [agent] });
    if (code !== 0) failed.push(`install-hooks ${agent}`);
  }
  if (found.length === 0) ctx.out("nothing to wire\n");

  // 3. The status line: reported, never edited.
  step(3, "status line");
  try {
    const facts = await readServerFacts(await ctx.server());
    if (statusRunsTma(facts.statusRight)) {
      ctx.out("status-right already runs tma status\n");
    } else {
      ctx.out(
        `status-right does not run tma status; add this line to your tmux.conf (tma never edits status-right):\n  ${STATUS_RIGHT_LINE}\n`,
      );
    }
  } catch (error) {
    ctx.out(
      `status-right not checked (${
        error instanceof Error ? error.message : error
      }); if it does not run tma status, add to your tmux.conf:\n  ${STATUS_RIGHT_LINE}\n`,
    );
  }

  // 4. install-keys, skipped when current.
  step(4, "tmux keys");
  const noDaemon = boolFlag(flags, "no-daemon") || !boolFlag(flags, "daemon");
  const config = await ctx.config().catch(() => undefined);
  const request = { check: true, uninstall: false, mouse: false, noDaemon, yes, conf, configDir };
  const { paths, state } = await readKeysState(request, ctx.env);
  const current = state.managed !== null && checkKeys(paths, state, {
    mouse: false,
    daemon: false,
    noDaemon,
    focusEvents: config?.focus.events ?? false,
    launcher: currentLauncher(ctx.env),
  }).ok;
  if (current) {
    ctx.out(`keys current (${paths.managed}, sourced from ${paths.conf}); skipped\n`);
  } else {
    ctx.out("-- tma install-keys\n");
    const keyFlags: ParsedFlags = { yes, "no-daemon": noDaemon };
    if (conf) keyFlags.conf = conf;
    if (configDir) keyFlags["config-dir"] = configDir;
    if ((await runInstallKeysCommand(ctx, { flags: keyFlags, positionals: [] })) !== 0) {
      failed.push("install-keys");
    }
  }

  // 5. The daemon, only when asked for.
  step(5, "daemon");
  if (!boolFlag(flags, "daemon")) {
    ctx.out("skipped (pass --daemon to start one; every surface works without it)\n");
  } else if (!DAEMON_AVAILABLE) {
    ctx.out("this build of tma has no daemon yet; not started\n");
    failed.push("daemon");
  } else {
    // Through `tma daemon --ensure` in a child: only that command loads the daemon.
    const { ensureDaemon } = await import("../autostart.ts");
    const problem = await ensureDaemon(ctx);
    if (problem === null) ctx.out("daemon running (tma daemon --ensure)\n");
    else {
      ctx.out(`daemon not started: ${problem}\n`);
      failed.push("daemon");
    }
  }

  // 6. What doctor says now.
  step(6, "doctor");
  const doctor = await import("./doctor.ts");
  const doctorFlags: ParsedFlags = {};
  if (configDir) doctorFlags["config-dir"] = configDir;
  await doctor.run(ctx, { flags: doctorFlags, positionals: [] });

  ctx.out(
    failed.length === 0
      ? "\ntma init: done\n"
      : `\ntma init: not done: ${failed.join(", ")} failed or declined\n`,
  );
  return failed.length === 0 ? 0 : 1;
}

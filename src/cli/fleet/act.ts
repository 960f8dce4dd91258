/**
 * `tma act NAME --host H --pane %N` (X9): the remote `tma act` over the
 * host's transport, with every act flag but `--host` passed on, so the gate,
 * the lock and the prompt fingerprint are checked where the pane lives. Its
 * output comes through unchanged and its exit code is this command's. A
 * connection that fails is ssh's exit 255: then whether the action went
 * out is unknown, which the one line says (exit 1).
 * @module
 */
import { EXIT, TmaError, UsageError } from "../../core/errors.ts";
import { oneHost } from "../../core/fleet/hosts.ts";
import { isSsh, remoteTma, transportArgv } from "../../core/fleet/transport.ts";
import { runTransport } from "../../runtime/fleet/ssh.ts";
import { type FlagSpec, type ParsedArgs, stringFlag } from "../args.ts";
import type { CommandContext } from "../context.ts";

/** How long a remote act may run before it is killed (an exec action may take a while). */
export const REMOTE_ACT_MS = 300_000;

/**
 * The act flags to pass on, as argv: every flag given but `--host` and the
 * global ones (which pick this machine's server and config).
 */
export function forwardedFlags(args: ParsedArgs, globalFlags: readonly FlagSpec[]): string[] {
  const globals = new Set(globalFlags.map((f) => f.name));
  const out: string[] = [];
  for (const [name, value] of Object.entries(args.flags)) {
    if (name === "host" || globals.has(name) || value === undefined || value === false) continue;
    if (value === true) out.push(`--${name}`);
    else if (Array.isArray(value)) { for (const v of value) out.push(`--${name}`, v); }
    else out.push(`--${name}`, value);
  }
  return out;
}

/** Runs the remote act; returns its exit code. `globalFlags` are the command table's. */
export async function run(
  ctx: CommandContext,
  args: ParsedArgs,
  globalFlags: readonly FlagSpec[],
): Promise<number> {
  const name = stringFlag(args.flags, "host")!;
  const spec = oneHost(await ctx.config(), name);
  const flags = args.flags;
  if (flags.menu === true) {
    throw new UsageError(
      "act --menu --host: a menu opens on your own tmux client; use the watch's `a` on a remote row",
    );
  }
  const targeted = flags.pane !== undefined ||
    ["session", "repo", "branch", "agent", "state"].some((f) => flags[f] !== undefined);
  if (!targeted && flags.list !== true && flags.log !== true) {
    throw new UsageError(
      `act --host ${name} needs --pane ID or a selector: another host has no current pane`,
    );
  }
  const remote = remoteTma(spec, [
    "act",
    ...args.positionals,
    ...forwardedFlags(args, globalFlags),
  ]);
  const argv = transportArgv(spec, remote, { tty: false });
  const run = await runTransport(argv, { timeoutMs: REMOTE_ACT_MS, output: "inherit" });
  switch (run.kind) {
    case "failed":
      throw new TmaError(`act --host ${name}: ${run.message}`);
    case "timeout":
      ctx.err(
        `tma: act --host ${name}: no end within ${REMOTE_ACT_MS / 1000} s; killed ` +
          `(whether it fired is unknown: tma act --log --host ${name})\n`,
      );
      return EXIT.timeout;
    case "exited":
      if (run.code === 255 && isSsh(spec.command)) {
        ctx.err(
          `tma: act --host ${name}: the connection failed (ssh exit 255, its reason above); ` +
            `whether the action went out is unknown: tma act --log --host ${name}\n`,
        );
        return EXIT.runtime;
      }
      return run.code;
  }
}

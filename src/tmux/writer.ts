/**
 * The guarded writer: the only way tma writes options (P1, P2, R12).
 *
 * A chain is a list of option writes for one pane that commit or hold as a
 * whole. All chains of a cycle go to tmux in one process, one line each. Its guard is a tmux format condition evaluated once, server side,
 * against the values as they were before the chain: the first command stores
 * the verdict in `@tma_guard`, every write keeps the old value unless that
 * flag is set, and a final `display-message` reports the verdict back. tmux
 * runs one client's command list without interleaving another's, so a status
 * poll, a hook and a second poll racing on one pane converge.
 * @module
 */
import type { OptionWrite } from "../core/stamp.ts";
import { readMarkers, runTmuxScript, type TmuxServer } from "./exec.ts";

export type { OptionWrite };

/** The writes of one pane, committed together. */
export interface WriteChain {
  pane: string;
  /**
   * A tmux format condition (for example `#{==:#{@agent_stamped_at},1700}`),
   * evaluated against the old values before any write of the chain. Absent
   * means unconditional.
   */
  guard?: string;
  writes: OptionWrite[];
}

const GUARD_OPTION = "@tma_guard";

/**
 * Escapes a literal for use inside a tmux format, so `#`, `,` and `}` in a
 * value cannot end a conditional early.
 *
 * ```ts
 * escapeFormat("a,b"); // "a#,b"
 * ```
 */
export function escapeFormat(value: string): string {
  return value.replace(/[#,}]/g, (ch) => `#${ch}`);
}

function scopeFlags(write: OptionWrite, pane: string): string[] {
  switch (write.scope ?? "pane") {
    case "pane":
      return ["-p", "-t", pane];
    case "window":
      return ["-w", "-t", pane];
    case "session":
      return ["-t", pane];
    case "server":
      return ["-s", "-t", pane];
  }
}

/**
 * The tmux commands of one chain. A guarded chain ends by printing
 * `<marker>:<verdict>`.
 */
export function chainCommands(chain: WriteChain, marker: string): string[][] {
  const commands: string[][] = [];
  if (chain.guard !== undefined) {
    commands.push(["set-option", "-pF", "-t", chain.pane, GUARD_OPTION, `#{?${chain.guard},1,}`]);
  }
  for (const write of chain.writes) {
    const flags = scopeFlags(write, chain.pane);
    if (chain.guard === undefined) {
      if (write.value === null) commands.push(["set-option", "-u", ...flags, write.name]);
      else commands.push(["set-option", "-F", ...flags, write.name, literalOrFormat(write)]);
      continue;
    }
    const kept = `#{${write.name}}`;
    const next = write.value === null ? "" : literalOrFormat(write);
    commands.push([
      "set-option",
      "-F",
      ...flags,
      write.name,
      `#{?#{${GUARD_OPTION}},${next},${kept}}`,
    ]);
  }
  if (chain.guard !== undefined) {
    commands.push(["display-message", "-p", "-t", chain.pane, `${marker}:#{${GUARD_OPTION}}`]);
    commands.push(["set-option", "-pu", "-t", chain.pane, GUARD_OPTION]);
  }
  return commands;
}

/** A write's value as the format `set-option -F` expands: escaped unless it is a format. */
function literalOrFormat(write: OptionWrite): string {
  return write.format ? write.value! : escapeFormat(write.value!);
}

/**
 * Applies chains in one tmux invocation and returns, per pane, whether its
 * chain committed (an unguarded chain commits when it ran). A pane that
 * vanished mid-batch does not stop the others: they are retried one by one.
 */
export async function writeChains(
  server: TmuxServer,
  chains: readonly WriteChain[],
): Promise<Map<string, boolean>> {
  const committed = new Map<string, boolean>();
  const live = chains.filter((chain) => chain.writes.length > 0);
  if (live.length === 0) return committed;
  const nonce = crypto.randomUUID();
  // One line per chain: a pane that vanished fails only its own line.
  const result = await runTmuxScript(
    server,
    live.map((chain, i) => chainCommands(chain, `${nonce}:${i}`)),
  );
  readVerdicts(result.stdout, nonce, live, committed);
  if (result.code !== 0) {
    // An unguarded chain prints nothing, so a failed run cannot tell which
    // of them ran: report those as not committed.
    for (const chain of live) if (chain.guard === undefined) committed.set(chain.pane, false);
  }
  return committed;
}

function readVerdicts(
  stdout: string,
  nonce: string,
  chains: readonly WriteChain[],
  into: Map<string, boolean>,
): void {
  const verdicts = new Map<number, boolean>();
  for (const marker of readMarkers(stdout, nonce)) verdicts.set(marker.index, marker.tail === "1");
  chains.forEach((chain, i) => {
    // A pane may have several chains (its stamp, a rollup): all must commit.
    const ok = chain.guard === undefined ? true : verdicts.get(i) ?? false;
    into.set(chain.pane, (into.get(chain.pane) ?? true) && ok);
  });
}

/** A guard that holds only while `@agent_stamped_at` still has the value read (compare and swap). */
export function unchangedSince(stampedAt: string | undefined): string {
  return `#{==:#{@agent_stamped_at},${escapeFormat(stampedAt ?? "")}}`;
}

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
  /**
   * Options to read back after the writes, in the same tmux command list
   * (a guarded chain only): what the chain committed, or what beat it.
   */
  readBack?: readonly string[];
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
    // Read-backs print before the verdict: `readMarkers` hands them over as its body.
    for (const name of chain.readBack ?? []) {
      commands.push(["display-message", "-p", "-t", chain.pane, `#{${name}}`]);
    }
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
  const { result, nonce } = await runChains(server, live);
  readVerdicts(result.stdout, nonce, live, committed);
  if (result.code !== 0) {
    // An unguarded chain prints nothing, so a failed run cannot tell which
    // of them ran: report those as not committed.
    for (const chain of live) if (chain.guard === undefined) committed.set(chain.pane, false);
  }
  return committed;
}

/** Runs chains in one tmux process, one line each: a pane that vanished fails only its own line. */
async function runChains(server: TmuxServer, chains: readonly WriteChain[]) {
  const nonce = crypto.randomUUID();
  const result = await runTmuxScript(
    server,
    chains.map((chain, i) => chainCommands(chain, `${nonce}:${i}`)),
  );
  return { result, nonce };
}

/** What a guarded chain with read-backs committed, and the values it read after. */
export interface ClaimResult {
  committed: boolean;
  /** Each `readBack` option as it read after the chain ("" when unset). */
  values: Record<string, string>;
}

/**
 * Applies one guarded chain and reads options back in the same tmux command
 * list: the claim of a notification marker, which fires only if its own
 * write won (U23, U24, R17). A pane that vanished reads as not committed.
 *
 * ```ts
 * const server = { bin: "tmux", socketName: "work" };
 * const claim = await claimChain(server, {
 *   pane: "%3",
 *   guard: "#{e|<:#{@agent_notified_at},1785100000000}",
 *   writes: [{ name: "@agent_notified_at", value: "1785100000500" }],
 *   readBack: ["@agent_notified_at"],
 * });
 * claim.committed; // true for exactly one of several racing claimers
 * ```
 */
export async function claimChain(
  server: TmuxServer,
  chain: WriteChain & { guard: string },
): Promise<ClaimResult> {
  const { result, nonce } = await runChains(server, [chain]);
  const marker = readMarkers(result.stdout, nonce).find((m) => m.index === 0);
  const values: Record<string, string> = {};
  (chain.readBack ?? []).forEach((name, i) => {
    values[name] = marker?.body[i] ?? "";
  });
  return { committed: marker?.tail === "1", values };
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

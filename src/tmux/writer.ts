/**
 * The guarded writer: the only way tma writes options (P1, P2, R12).
 *
 * A chain is a list of option writes for one pane that commit or hold as a
 * whole. Its guard is a tmux format condition evaluated once, server side,
 * against the values as they were before the chain: the first command stores
 * the verdict in `@tma_guard`, every write keeps the old value unless that
 * flag is set, and a final `display-message` reports the verdict back. tmux
 * runs one client's command list without interleaving another's, so a status
 * poll, a hook and a second poll racing on one pane converge.
 * @module
 */
import type { OptionWrite } from "../core/stamp.ts";
import { runTmux, type TmuxServer } from "./exec.ts";

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
 * The tmux arguments of one chain, without a leading `;`. A guarded chain
 * ends by printing `<marker>:<verdict>`.
 */
export function chainArgs(chain: WriteChain, marker: string): string[] {
  const commands: string[][] = [];
  if (chain.guard !== undefined) {
    commands.push(["set-option", "-pF", "-t", chain.pane, GUARD_OPTION, `#{?${chain.guard},1,}`]);
  }
  for (const write of chain.writes) {
    const flags = scopeFlags(write, chain.pane);
    if (chain.guard === undefined) {
      if (write.value === null) commands.push(["set-option", "-u", ...flags, write.name]);
      else commands.push(["set-option", "-F", ...flags, write.name, escapeFormat(write.value)]);
      continue;
    }
    const kept = `#{${write.name}}`;
    const next = write.value === null ? "" : escapeFormat(write.value);
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
  return commands.flatMap((command, i) => (i === 0 ? command : [";", ...command]));
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
  for (const batch of batchesUnder(live, (chain) => chainArgs(chain, `${nonce}:0`))) {
    const args = batch.flatMap((chain, i) =>
      (i === 0 ? [] : [";"]).concat(chainArgs(chain, `${nonce}:${i}`))
    );
    const result = await runTmux(server, args, { allowFailure: true });
    if (result.code === 0) {
      readVerdicts(result.stdout, nonce, batch, committed);
      continue;
    }
    for (const chain of batch) {
      const single = await runTmux(server, chainArgs(chain, `${nonce}:0`), { allowFailure: true });
      if (single.code === 0) readVerdicts(single.stdout, nonce, [chain], committed);
      else committed.set(chain.pane, false);
    }
  }
  return committed;
}

/**
 * tmux refuses a command line longer than its message size (16 KiB, "command
 * too long"), so a batch is split into runs whose arguments stay well under.
 */
export const MAX_BATCH_BYTES = 12_000;

/** Splits items into consecutive batches whose argument bytes stay under the limit. */
export function batchesUnder<T>(items: readonly T[], argsOf: (item: T) => string[]): T[][] {
  const batches: T[][] = [];
  let current: T[] = [];
  let bytes = 0;
  for (const item of items) {
    const size = argsOf(item).reduce((n, arg) => n + new TextEncoder().encode(arg).length + 1, 2);
    if (current.length > 0 && bytes + size > MAX_BATCH_BYTES) {
      batches.push(current);
      current = [];
      bytes = 0;
    }
    current.push(item);
    bytes += size;
  }
  if (current.length > 0) batches.push(current);
  return batches;
}

function readVerdicts(
  stdout: string,
  nonce: string,
  chains: readonly WriteChain[],
  into: Map<string, boolean>,
): void {
  const verdicts = new Map<number, boolean>();
  for (const line of stdout.split("\n")) {
    if (!line.startsWith(`${nonce}:`)) continue;
    const [index, flag] = line.slice(nonce.length + 1).split(":");
    verdicts.set(Number(index.trim()), flag?.trim() === "1");
  }
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

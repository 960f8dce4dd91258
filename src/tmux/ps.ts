/**
 * The one process snapshot of a cycle: a single `ps` over every process,
 * never a scan per pane (D29). Lives beside the tmux runner because it is the
 * other process tma spawns on every cycle.
 * @module
 */
import type { ProcessInfo } from "../core/snapshot.ts";
import { TmaError } from "../core/errors.ts";
import { spawnWithDeadline } from "./spawn.ts";

/** The `ps` timeout; a hung `ps` must not hang the status line. */
const PS_TIMEOUT_MS = 3000;

/**
 * The arguments of the one `ps` of a cycle. Column headers are renamed to
 * single words so their offsets in the header line tell where `comm` (which
 * may contain spaces) ends and `args` begins.
 */
export const PS_ARGS: readonly string[] = [
  "-A",
  "-o",
  "pid=PID",
  "-o",
  "ppid=PPID",
  "-o",
  "pgid=PGID",
  "-o",
  "tpgid=TPGID",
  "-o",
  "comm=COMM",
  "-o",
  "args=ARGS",
];

/** Takes the process snapshot. */
export async function snapshotProcesses(): Promise<ProcessInfo[]> {
  let result;
  try {
    result = await spawnWithDeadline("ps", PS_ARGS, {
      timeoutMs: PS_TIMEOUT_MS,
      env: { LC_ALL: "C" },
    });
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) {
      throw new TmaError("process walk failed: ps is not installed");
    }
    throw error;
  }
  if (result === "timeout") {
    throw new TmaError(`process walk failed: ps did not answer within ${PS_TIMEOUT_MS} ms`);
  }
  if (result.code !== 0) {
    throw new TmaError(`process walk failed: ps exited ${result.code}`);
  }
  return parsePsOutput(result.stdout);
}

/**
 * Parses `ps` output with a header line. The four numeric columns are split
 * on white space; `comm` runs from its header's column to the `ARGS` column.
 */
export function parsePsOutput(text: string): ProcessInfo[] {
  const lines = text.split("\n");
  const header = lines[0] ?? "";
  const commStart = header.indexOf("COMM");
  const argsStart = header.indexOf("ARGS");
  if (commStart < 0 || argsStart < 0) return [];
  const rows: ProcessInfo[] = [];
  for (const line of lines.slice(1)) {
    if (line.trim() === "") continue;
    const numbers = line.slice(0, commStart).trim().split(/\s+/).map(Number);
    if (numbers.length < 4 || numbers.some((n) => !Number.isFinite(n))) continue;
    const [pid, ppid, pgid, tpgid] = numbers;
    let comm = line.slice(commStart, argsStart).trim();
    let args = line.slice(argsStart).trim();
    // A comm longer than its column (macOS prints paths) pushes args right:
    // fall back to the first token of the rest.
    if (
      line.length > commStart && line[argsStart - 1] !== " " && line[argsStart - 1] !== undefined
    ) {
      const rest = line.slice(commStart).trim();
      const space = rest.indexOf(" ");
      comm = space < 0 ? rest : rest.slice(0, space);
      args = space < 0 ? rest : rest.slice(space + 1).trim();
    }
    rows.push({ pid, ppid, pgid, tpgid, comm, args });
  }
  return rows;
}

/**
 * The command lines of a few processes (`ps -o pid=,args= -p …`), by pid; a
 * pid that is gone is missing. For checking a pid before signalling it.
 *
 * ```ts
 * const lines = await commandLines([1234]);
 * lines.get(1234); // "deno run … mod.ts watch"
 * ```
 */
export async function commandLines(pids: readonly number[]): Promise<Map<number, string>> {
  const lines = new Map<number, string>();
  if (pids.length === 0) return lines;
  const result = await spawnWithDeadline(
    "ps",
    ["-o", "pid=", "-o", "args=", "-p", pids.join(",")],
    {
      timeoutMs: PS_TIMEOUT_MS,
      env: { LC_ALL: "C" },
    },
  ).catch(() => "timeout" as const);
  if (result === "timeout") return lines;
  for (const line of result.stdout.split("\n")) {
    const m = /^\s*(\d+)\s+(.*)$/.exec(line);
    if (m) lines.set(Number(m[1]), m[2]);
  }
  return lines;
}

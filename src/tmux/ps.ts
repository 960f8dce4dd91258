/**
 * The one process snapshot of a cycle (D29): every process at once, never a
 * scan per pane. On Linux it is read from `/proc` (the same files `ps` reads,
 * without forking it: `ps` alone cost more than a whole quiet cycle, D64);
 * elsewhere, or when `/proc` cannot be read, a single `ps`. Lives beside the
 * tmux runner because `ps` is the other process tma spawns on every cycle.
 * @module
 */
import type { ProcessInfo } from "../core/snapshot.ts";
import { TmaError } from "../core/errors.ts";
import { spawnWithDeadline } from "./spawn.ts";

/** The `ps` timeout; a hung `ps` must not hang the status line. */
const PS_TIMEOUT_MS = 3000;

/**
 * Column headers are renamed to single words so their offsets in the header
 * line tell where `comm` (which may contain spaces) ends and `args` begins.
 */
const PS_ARGS = [
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

/** The kernel's task-name length (TASK_COMM_LEN less its terminator). */
const COMM_LENGTH = 15;

/** Where the kernel's process table is read from, when it can be. */
const PROC_ROOT = "/proc";

/**
 * Takes the process snapshot: from `/proc` when it is readable, else with
 * `ps`. `TMA_PROCESS_SNAPSHOT=ps` forces `ps` (to compare the two, or to
 * step around a `/proc` that misreports).
 */
export async function snapshotProcesses(): Promise<ProcessInfo[]> {
  if (forcedSource() !== "ps") {
    const fromProc = snapshotFromProc(PROC_ROOT);
    if (fromProc !== null) return fromProc;
  }
  return await snapshotFromPs();
}

function forcedSource(): string | undefined {
  try {
    return Deno.env.get("TMA_PROCESS_SNAPSHOT");
  } catch {
    // No env permission: nothing is forced.
    return undefined;
  }
}

/**
 * Reads every process from a `/proc` tree, or returns null when the tree is
 * not there or not readable (macOS, a BSD, a read permission that excludes
 * it), so the caller falls back to `ps`. Synchronous on purpose: a few
 * hundred tiny reads finish faster than their promises would settle, and the
 * cycle's `list-panes` child runs meanwhile.
 */
export function snapshotFromProc(root: string): ProcessInfo[] | null {
  let entries: Deno.DirEntry[];
  try {
    Deno.readTextFileSync(`${root}/self/stat`);
    entries = [...Deno.readDirSync(root)];
  } catch {
    return null;
  }
  const decoder = new TextDecoder();
  const rows: ProcessInfo[] = [];
  for (const entry of entries) {
    if (!/^\d+$/.test(entry.name)) continue;
    let stat: string;
    let cmdline: Uint8Array;
    try {
      stat = Deno.readTextFileSync(`${root}/${entry.name}/stat`);
      cmdline = Deno.readFileSync(`${root}/${entry.name}/cmdline`);
    } catch {
      // The process exited between the listing and the read.
      continue;
    }
    const parsed = parseProcStat(stat);
    if (parsed === null) continue;
    const { name, state, ...ids } = parsed;
    rows.push({
      ...ids,
      // `ps` shows the 15-character task name as comm (P8's truncation rule).
      comm: name.slice(0, COMM_LENGTH),
      args: argsFromCmdline(decoder.decode(cmdline), name, state),
    });
  }
  return rows;
}

/** The fields of `/proc/<pid>/stat` a snapshot keeps. */
export interface ProcStat {
  pid: number;
  ppid: number;
  pgid: number;
  tpgid: number;
  /** The name between the parentheses (a kworker's carries its workqueue). */
  name: string;
  /** The state letter (`Z` for a zombie). */
  state: string;
}

/**
 * Parses `/proc/<pid>/stat`: `pid (comm) state ppid pgrp session tty_nr
 * tpgid ...`. `comm` may hold spaces and parentheses, so it runs to the last
 * `)`.
 *
 * ```ts
 * parseProcStat("42 (my (odd) cmd) S 1 42 42 34816 42 4194560");
 * // { pid: 42, ppid: 1, pgid: 42, tpgid: 42, name: "my (odd) cmd", state: "S" }
 * ```
 */
export function parseProcStat(text: string): ProcStat | null {
  const open = text.indexOf("(");
  const close = text.lastIndexOf(")");
  if (open < 0 || close < open) return null;
  const pid = Number(text.slice(0, open).trim());
  const fields = text.slice(close + 1).trim().split(/\s+/);
  // fields[0] is the state letter; ppid, pgrp, session, tty_nr, tpgid follow.
  const [ppid, pgid, , , tpgid] = fields.slice(1, 6).map(Number);
  if (![pid, ppid, pgid, tpgid].every(Number.isInteger)) return null;
  return { pid, ppid, pgid, tpgid, name: text.slice(open + 1, close), state: fields[0] };
}

/**
 * The command line as `ps -o args` shows it: arguments joined by spaces; a
 * process with none shows `[name]` (a kernel thread) or `[name] <defunct>`
 * (a zombie).
 */
export function argsFromCmdline(cmdline: string, name: string, state = "S"): string {
  const args = cmdline.replace(/\0+$/, "").replaceAll("\0", " ");
  if (args !== "") return args;
  return state === "Z" ? `[${name}] <defunct>` : `[${name}]`;
}

/** Takes the snapshot with one `ps` over every process. */
export async function snapshotFromPs(): Promise<ProcessInfo[]> {
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

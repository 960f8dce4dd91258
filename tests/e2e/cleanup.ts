/**
 * Leaves nothing behind after a real-agent run: no process that belongs to the run, and a report
 * of any known temporary folder that appeared outside the scratch root.
 *
 * A process belongs to the run when its command line or its environment (HOME, TMPDIR,
 * CODEX_HOME) points inside the scratch root. That finds the Codex app-server daemon too, which
 * runs under setsid and so is no descendant of any pane. Processes are ended by pid, never by
 * name.
 *
 * ```ts
 * import { killRunProcesses } from "./cleanup.ts";
 * await killRunProcesses("/tmp/tma-e2e-x1y2");
 * ```
 * @module
 */

import { sleep } from "./pane.ts";

/** Temporary folders the agents are known to create (real-agents.md, safety lessons). */
export const KNOWN_TMP_LEFTOVERS = ["claude-0", "jiti", "codex-daemon-0", "opencode"] as const;

/** The system temporary folder. */
export function systemTmp(): string {
  return Deno.env.get("TMPDIR") ?? "/tmp";
}

/**
 * Pids of the processes that point into `root`: its path is in their command line or their
 * environment (HOME, TMPDIR, CODEX_HOME…). One `ps` with BSD `e`, which appends each process's
 * environment to its arguments; reading `/proc` directly would need Deno's --allow-all.
 */
export async function runProcesses(root: string): Promise<number[]> {
  const out = await new Deno.Command("ps", {
    args: ["-e", "-ww", "-o", "pid=,args=", "e"],
    stdin: "null",
    stdout: "piped",
    stderr: "null",
    signal: AbortSignal.timeout(20_000),
  }).output();
  const pids: number[] = [];
  for (const line of new TextDecoder().decode(out.stdout).split("\n")) {
    const match = /^\s*(\d+)\s(.*)$/.exec(line);
    if (!match) continue;
    const pid = Number(match[1]);
    if (pid !== Deno.pid && match[2].includes(root)) pids.push(pid);
  }
  return pids;
}

function signal(pid: number, sig: Deno.Signal): void {
  try {
    Deno.kill(pid, sig);
  } catch {
    // already gone
  }
}

/** Ends every process of the run: SIGTERM, a grace period, then SIGKILL. Returns the pids. */
export async function killRunProcesses(root: string, graceMs = 2000): Promise<number[]> {
  const first = await runProcesses(root);
  for (const pid of first) signal(pid, "SIGTERM");
  const deadline = Date.now() + graceMs;
  while (Date.now() < deadline && (await runProcesses(root)).length > 0) await sleep(100);
  for (const pid of await runProcesses(root)) signal(pid, "SIGKILL");
  return first;
}

/** Which of the known leftovers exist now in the system temporary folder. */
export function tmpLeftoversPresent(): Set<string> {
  const present = new Set<string>();
  for (const name of KNOWN_TMP_LEFTOVERS) {
    try {
      Deno.statSync(`${systemTmp()}/${name}`);
      present.add(name);
    } catch {
      // absent
    }
  }
  return present;
}

/**
 * The known leftovers that appeared in the system temporary folder during the run (`before` is
 * {@link tmpLeftoversPresent} at its start). They are reported, never removed: every agent here
 * runs with TMPDIR inside the scratch root, so its own leftovers go away with that root, and a
 * folder that shows up in the shared one may belong to another process on the machine.
 */
export function newTmpLeftovers(before: Set<string>): string[] {
  return [...tmpLeftoversPresent()].filter((name) => !before.has(name));
}

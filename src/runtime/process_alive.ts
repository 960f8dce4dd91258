/**
 * Whether a process runs, for the files that record a pid (action locks,
 * the spool's writers, the drainer's claim).
 * @module
 */

/**
 * Whether process `pid` is alive, by `kill(pid, 0)`: a process we may not
 * signal (EPERM) is alive too.
 *
 * ```ts
 * processAlive(Deno.pid); // true
 * ```
 */
export function processAlive(pid: number): boolean {
  if (!Number.isSafeInteger(pid) || pid <= 0) return false;
  try {
    Deno.kill(pid, 0);
    return true;
  } catch (error) {
    return !(error instanceof Deno.errors.NotFound);
  }
}

/**
 * The daemon's lock (U3): an exclusive `flock` on `<key>.lock`, which the
 * kernel releases when the process dies however it dies, so a `kill -9`
 * never leaves a lock that blocks the next daemon. The file records the pid
 * and version for `reload` and doctor.
 * @module
 */

/** A held lock. */
export interface HeldLock {
  file: Deno.FsFile;
  path: string;
}

/** How long a lock attempt waits before concluding another daemon holds it. */
const LOCK_WAIT_MS = 300;

/**
 * Takes the lock, or returns null when another live process holds it. After
 * the flock is granted the path is checked to still name the locked file: a
 * daemon that was shutting down may have removed it in between.
 */
export async function takeLock(path: string, version: string): Promise<HeldLock | null> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const file = await Deno.open(path, { read: true, write: true, create: true, mode: 0o600 });
    const locked = file.lock(true).then(() => true, () => false);
    const timer = new Promise<boolean>((resolve) => {
      AbortSignal.timeout(LOCK_WAIT_MS).addEventListener("abort", () => resolve(false));
    });
    if (!(await Promise.race([locked, timer]))) {
      // The pending flock keeps a thread until this process exits; the
      // caller refuses and exits at once.
      return null;
    }
    const [held, named] = await Promise.all([file.stat(), Deno.stat(path).catch(() => null)]);
    if (named === null || named.ino !== held.ino || named.dev !== held.dev) {
      file.close();
      continue;
    }
    await file.truncate(0);
    await file.write(new TextEncoder().encode(`${Deno.pid} ${version}\n`));
    return { file, path };
  }
  return null;
}

/** Releases the lock on a clean exit: the file goes first, then the flock. */
export function releaseLock(lock: HeldLock): void {
  try {
    Deno.removeSync(lock.path);
  } catch {
    // Already gone.
  }
  try {
    lock.file.close();
  } catch {
    // Closed.
  }
}

/**
 * One install-hooks at a time per config directory: two runs at once (for
 * two agents) would each read `statusline-state.toml`, add their agent and
 * write it back, and one agent would be lost. The writes of a run happen
 * under an exclusive lock file; a second run waits for it.
 * @module
 */
import { InstallError } from "./errors.ts";

/** The lock's file name inside tma's config directory. */
export const LOCK_FILE = "install-hooks.lock";

/** How long a run waits for another; longer than any install takes. */
const WAIT_MS = 20_000;

/** A lock older than this was left by a run that died (no install takes so long). */
const STALE_MS = 120_000;

/**
 * Runs `fn` holding `<dir>/install-hooks.lock`, created exclusively, and
 * removes it however `fn` ends. Throws InstallError when another run holds
 * it past the wait.
 */
export async function withInstallLock<T>(dir: string, fn: () => Promise<T>): Promise<T> {
  const path = `${dir}/${LOCK_FILE}`;
  await Deno.mkdir(dir, { recursive: true });
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    try {
      const file = await Deno.open(path, { createNew: true, write: true });
      await file.write(new TextEncoder().encode(`${Deno.pid} ${Date.now()}\n`));
      file.close();
      break;
    } catch (error) {
      if (!(error instanceof Deno.errors.AlreadyExists)) throw error;
    }
    const age = await Deno.stat(path).then((s) => Date.now() - (s.mtime?.getTime() ?? 0))
      .catch(() => 0);
    if (age > STALE_MS) {
      await Deno.remove(path).catch(() => undefined);
      continue;
    }
    if (Date.now() > deadline) {
      const holder = (await Deno.readTextFile(path).catch(() => "")).split(" ")[0];
      throw new InstallError(
        `another tma install-hooks (pid ${holder || "?"}) holds ${path}; wait for it to end, ` +
          "or remove the file if no install-hooks is running",
        path,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 25 + Math.random() * 50));
  }
  try {
    return await fn();
  } finally {
    await Deno.remove(path).catch(() => undefined);
  }
}

/**
 * File changes of an install: what a file holds now, what it will hold, and
 * the atomic write that gets it there (I3). A change is shown as a unified
 * diff before anything is written; a write goes to a temporary file in the
 * same directory and is renamed over the target, so a reader never sees half
 * a file; the first time tma changes a file it already finds, the original
 * is kept as `<file>.tma-backup`.
 * @module
 */
import { unifiedDiff } from "./diff.ts";
import { InstallError } from "./errors.ts";
import { dirName } from "./shell.ts";

/** One planned change to one file. */
export interface FileChange {
  path: string;
  /** The current text, `null` when the file does not exist. */
  before: string | null;
  /** The new text, `null` to delete the file. */
  after: string | null;
  /** The mode of a newly created file (an existing file keeps its own). */
  mode?: number;
  /** Keep `<path>.tma-backup` of the original the first time (user configs). */
  backup: boolean;
}

/** The suffix of the first-time backup copy. */
export const BACKUP_SUFFIX = ".tma-backup";

/** Reads a file, or `null` when it does not exist. */
export async function readOrNull(path: string): Promise<string | null> {
  try {
    return await Deno.readTextFile(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return null;
    if (error instanceof Deno.errors.IsADirectory) {
      throw new InstallError(`${path} is a directory, not a file; pass another path`, path);
    }
    throw new InstallError(
      `cannot read ${path}: ${error instanceof Error ? error.message : error}`,
      path,
    );
  }
}

/** Whether a path exists. */
export async function exists(path: string): Promise<boolean> {
  try {
    await Deno.lstat(path);
    return true;
  } catch {
    return false;
  }
}

/** Whether a change changes anything. */
export function isChange(change: FileChange): boolean {
  return change.before !== change.after;
}

/** The diff shown for a change. */
export function describeChange(change: FileChange): string {
  return unifiedDiff(change.before, change.after, { path: change.path });
}

/** The file a write lands in: a symlinked config is written through its link. */
async function target(path: string): Promise<string> {
  try {
    if ((await Deno.lstat(path)).isSymlink) return await Deno.realPath(path);
  } catch {
    // Absent: write the path itself.
  }
  return path;
}

/** Writes `text` atomically: temp file in the same directory, then rename. */
export async function writeAtomic(path: string, text: string, mode?: number): Promise<void> {
  const real = await target(path);
  const dir = dirName(real);
  await Deno.mkdir(dir, { recursive: true });
  let keepMode = mode;
  try {
    keepMode = (await Deno.stat(real)).mode! & 0o7777;
  } catch {
    // New file: the requested mode (or the umask default).
  }
  const temp = `${dir}/.${real.slice(dir.length + 1)}.tma-${crypto.randomUUID().slice(0, 8)}`;
  try {
    await Deno.writeTextFile(temp, text, keepMode === undefined ? {} : { mode: keepMode });
    if (keepMode !== undefined) await Deno.chmod(temp, keepMode);
    await Deno.rename(temp, real);
  } catch (error) {
    await Deno.remove(temp).catch(() => undefined);
    throw new InstallError(
      `cannot write ${path}: ${error instanceof Error ? error.message : error}`,
      path,
    );
  }
}

/** Applies one change (backup first, then the atomic write or the removal). */
export async function applyChange(change: FileChange): Promise<void> {
  if (!isChange(change)) return;
  if (change.backup && change.before !== null && !(await exists(change.path + BACKUP_SUFFIX))) {
    await writeAtomic(change.path + BACKUP_SUFFIX, change.before);
  }
  if (change.after === null) {
    await Deno.remove(change.path).catch((error) => {
      if (!(error instanceof Deno.errors.NotFound)) throw error;
    });
    return;
  }
  await writeAtomic(change.path, change.after, change.mode);
}

/**
 * File changes of an install: what a file holds now, what it will hold, and
 * the atomic write that gets it there (I3). A change is shown as a unified
 * diff before anything is written; a write goes to a temporary file in the
 * same directory and is renamed over the target, so a reader never sees half
 * a file. A backup (`<file>.tma-backup`) is the user's original: the file as
 * tma first found it, taken when an install is about to write into a file
 * that holds no tma wiring yet, and never anything tma wrote itself.
 *
 * Files are edited as UTF-8 text: one that is not valid UTF-8 is refused
 * rather than decoded with replacement characters, so no byte outside tma's
 * own keys can change. A file its owner made read-only is refused too.
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

/** A strict UTF-8 decoder that keeps a byte-order mark, so text re-encodes to the same bytes. */
const UTF8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/**
 * Reads a file, or `null` when it does not exist. Throws InstallError for a
 * file that is not valid UTF-8 (naming the first bad byte's offset).
 */
export async function readOrNull(path: string): Promise<string | null> {
  let bytes: Uint8Array;
  try {
    bytes = await Deno.readFile(path);
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
  try {
    return UTF8.decode(bytes);
  } catch {
    throw new InstallError(
      `${path} is not valid UTF-8 (the first bad byte is at offset ${firstBadByte(bytes)}); ` +
        "tma edits settings files as UTF-8 and will not change a byte of this one. Convert it " +
        `(for example iconv -f latin1 -t utf-8 ${path}) and rerun`,
      path,
    );
  }
}

/** The offset of the first byte that does not decode as UTF-8. */
function firstBadByte(bytes: Uint8Array): number {
  let lo = 0;
  let hi = bytes.length;
  // The longest prefix that decodes (a cut inside a sequence is bad too).
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    try {
      new TextDecoder("utf-8", { fatal: true }).decode(bytes.subarray(0, mid), { stream: true });
      lo = mid;
    } catch {
      hi = mid - 1;
    }
  }
  return lo;
}

/** Whether a text already carries tma's wiring (the wrapper, or the statusline shim). */
export function carriesTma(text: string): boolean {
  return text.includes("tma-hook") || text.includes(": tma-statusline-shim");
}

/**
 * Refuses a planned change to a file its owner made read-only: replacing it
 * would silently undo that choice. Checked for every change before any is
 * written.
 */
export async function checkWritable(change: FileChange): Promise<void> {
  if (change.before === null) return;
  let mode: number | null;
  try {
    mode = (await Deno.stat(change.path)).mode;
  } catch {
    return;
  }
  if (mode !== null && (mode & 0o200) === 0) {
    throw new InstallError(
      `${change.path} is read-only (mode ${(mode & 0o777).toString(8).padStart(4, "0")}), so ` +
        "tma will not replace it; nothing was written. Make it writable (chmod u+w " +
        `${change.path}) and rerun, or make the change yourself`,
      change.path,
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

/**
 * Applies one change: the backup of the user's original first (only when
 * the file holds no tma wiring yet: an older backup is then stale, and is
 * replaced), then the atomic write or the removal.
 */
export async function applyChange(change: FileChange): Promise<void> {
  if (!isChange(change)) return;
  if (change.backup && change.before !== null && !carriesTma(change.before)) {
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

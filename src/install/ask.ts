/**
 * Diff first, then ask (I3): prints what a run would change and asks on a
 * terminal; `--yes` skips the question, and without a terminal the answer
 * is no and nothing is written.
 * @module
 */

/** Where the question goes. */
export interface AskIO {
  out(text: string): void;
  err(text: string): void;
  /** Asks yes/no on a terminal; absent when stdin is not a terminal. */
  confirm?: (question: string) => Promise<boolean>;
}

/** Prints `shown` (diffs, steps) and returns whether to apply. */
export async function askToApply(
  io: AskIO,
  shown: readonly string[],
  yes: boolean,
): Promise<boolean> {
  for (const text of shown) io.out(text);
  if (yes) return true;
  if (!io.confirm) {
    io.err(
      "tma: not a terminal, so nothing was written; rerun with --yes to apply the changes above\n",
    );
    return false;
  }
  const go = await io.confirm("Apply these changes? [y/N] ");
  if (!go) io.err("tma: declined; nothing was written\n");
  return go;
}

/**
 * The hook intake's only voice: one line appended to `TMA_DEBUG_LOG` when it
 * is set. A hook never prints (R10), so this file is where a user looks when
 * an event seems lost.
 * @module
 */
import type { EnvReader } from "../paths.ts";

/**
 * Appends one line (`<ISO time> <text>`) to `$TMA_DEBUG_LOG`; does nothing
 * when it is unset, and swallows its own errors.
 *
 * ```ts
 * await debugLog((n) => Deno.env.get(n), "tma event claude Stop: no pane");
 * ```
 */
export async function debugLog(env: EnvReader, text: string): Promise<void> {
  const path = env("TMA_DEBUG_LOG");
  if (!path) return;
  const line = `${new Date().toISOString()} ${text.replace(/\s*\n\s*/g, " ")}\n`;
  try {
    await Deno.writeTextFile(path, line, { append: true, create: true });
  } catch {
    // A log that cannot be written must not become the hook's failure.
  }
}

/**
 * Which hook events must be stamped in the hook's own process, never handed
 * to a daemon or a background run.
 *
 * ```ts
 * import { ownsItsProcess } from "./owns_process.ts";
 * ownsItsProcess({ agent: "claude", kind: "PermissionRequest" }); // true
 * ownsItsProcess({ agent: "gemini", kind: "AfterModel" }); // false
 * ```
 * @module
 */

/**
 * Events that stay in the hook's own process: Claude's hold answers on
 * stdout (A25), the context channel answers the statusline shim (I7), and
 * Codex's attribution walks the hook process's own ancestry (D34).
 */
export function ownsItsProcess(event: { agent: string; kind: string }): boolean {
  return (event.agent === "claude" && event.kind === "PermissionRequest") ||
    event.kind === "context" || event.agent === "codex";
}

/**
 * Which hook events must be stamped in the hook's own process, never queued
 * for the daemon or the server's drainer.
 *
 * ```ts
 * import { ownsItsProcess } from "./owns_process.ts";
 * ownsItsProcess({ agent: "claude", kind: "PermissionRequest" }); // true
 * ownsItsProcess({ agent: "gemini", kind: "AfterModel" }); // false
 * ```
 * @module
 */

/**
 * Events that stay in the hook's own process: Claude's `PermissionRequest`,
 * whose hold answers on stdout (A25, I11). (The statusline shim's own line,
 * `--kind context --print-status`, answers too, but never reaches a queue:
 * the wrapper runs it in the foreground.) Codex's events are queued like the
 * rest: they carry the pid of the process that fired them, whose ancestry
 * the attribution walks (X4).
 */
export function ownsItsProcess(event: { agent: string; kind: string }): boolean {
  return event.agent === "claude" && event.kind === "PermissionRequest";
}

/**
 * The argv a tmux command (a menu entry, a key binding's child) runs tma
 * with: this tma, pinned to the server it was started on and to the same
 * config and manifests (C9).
 * @module
 */
import { selfArgv } from "../actions/self.ts";
import type { CommandContext } from "./context.ts";

/**
 * This tma plus the server-, config- and manifest-selecting flags.
 *
 * ```ts
 * declare const ctx: import("./context.ts").CommandContext;
 * childArgv(ctx, "/tmp/tmux-0/default"); // [".../tma", "--socket-path", "/tmp/tmux-0/default"]
 * ```
 */
export function childArgv(ctx: CommandContext, socketPath: string): string[] {
  const g = ctx.globals;
  return [
    ...selfArgv(),
    "--socket-path",
    socketPath,
    ...(g.config ? ["--config", g.config] : []),
    ...(g.noConfig ? ["--no-config"] : []),
    ...(g.manifestDir ? ["--manifest-dir", g.manifestDir] : []),
  ];
}

/**
 * `tma clear-attention <PANE>`: run by the tmux focus hooks
 * (`after-select-pane`, `session-window-changed`) (C102, D57). Clears
 * `@agent_attention` on the arrival pane and, as `TMA_HOOK_KIND` says which
 * hook fired, on the pane just left. Silent, and always exit 0: a focus hook
 * must never make noise in the status line. Failures go to `TMA_DEBUG_LOG`.
 * @module
 */
import type { ParsedArgs } from "../args.ts";
import type { CommandContext } from "../context.ts";
import { debugLog } from "../../runtime/hook/debug_log.ts";
import { runClearAttention } from "../../runtime/attention.ts";

/** Runs `tma clear-attention`. */
export async function run(ctx: CommandContext, args: ParsedArgs): Promise<number> {
  const pane = args.positionals[0];
  const env = (name: string) => ctx.env(name);
  if (!pane) return 0;
  try {
    await runClearAttention({ pane, globals: ctx.globals, env });
  } catch (error) {
    await debugLog(env, `tma clear-attention ${pane}: ${error}`);
  }
  return 0;
}

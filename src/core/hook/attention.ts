/**
 * Attention cleared by navigation: which panes a tmux focus hook clears,
 * decided from `TMA_HOOK_KIND`, the name of the tmux hook that fired (D57,
 * C102).
 *
 * ```ts
 * import { departedScope } from "./attention.ts";
 * departedScope("after-select-pane"); // "window"
 * ```
 * @module
 */

/**
 * Where the pane just left is found:
 * - `window`: the window's last (previously active) pane, after `select-pane`;
 * - `session`: the active pane of the session's last window, after a window change;
 * - `none`: no departed pane (no hook kind given: arrival only);
 * - `skip`: clear nothing at all (a session switch, D57).
 */
export type DepartedScope = "window" | "session" | "none" | "skip";

/**
 * The departed-pane lookup for a hook kind.
 *
 * ```ts
 * departedScope("session-window-changed"); // "session"
 * departedScope("client-session-changed"); // "skip"
 * departedScope(undefined); // "none"
 * ```
 */
export function departedScope(kind: string | undefined): DepartedScope {
  switch (kind) {
    case "after-select-pane":
      return "window";
    case "session-window-changed":
    case "after-select-window":
      return "session";
    case "pane-focus-in":
      // The outer terminal regained focus: the arrival pane only (D59).
      return "none";
    case "client-session-changed":
    case "session-changed":
      // A session switch is not a look at any pane (D57).
      return "skip";
    default:
      return "none";
  }
}

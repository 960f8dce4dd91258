/**
 * Builds and shows a tmux `display-menu` (A38, C54). tmux expands formats
 * in a menu's item names and commands when it builds the menu, and parses
 * each command with its own quoting rules, so this module owns both
 * escapes; callers hand it plain strings.
 *
 * ```ts
 * displayMenuArgs({ pane: "%3", title: "Actions", items: [
 *   { label: "Approve", key: "a", command: "run-shell -b 'true'" },
 * ] });
 * ```
 * @module
 */
import { runTmux, type TmuxServer } from "./exec.ts";

/** One menu entry: what it says, its shortcut key, and the tmux command it runs. */
export interface MenuItem {
  label: string;
  key: string;
  /** A tmux command string, unescaped: `#` is doubled here. */
  command: string;
}

/** A menu: its target pane, optional client, title and entries. */
export interface MenuSpec {
  pane: string;
  /** The client to show it on (`-c`); tmux picks one when absent. */
  client?: string;
  title: string;
  items: readonly MenuItem[];
}

/**
 * Quotes a string as one argument for tmux's command parser: double
 * quotes, with `\`, `"` and `$` escaped.
 *
 * ```ts
 * tmuxQuote('say "hi" $HOME'); // "\"say \\\"hi\\\" \\$HOME\""
 * ```
 */
export function tmuxQuote(value: string): string {
  return `"${value.replace(/[\\"$]/g, (ch) => `\\${ch}`)}"`;
}

/**
 * Escapes `#` for a string that tmux expands as a format once (a menu
 * item's name or command), so it arrives literally.
 */
export function escapeHashes(value: string): string {
  return value.replaceAll("#", "##");
}

/** The `display-menu` argv of a menu; item names and commands are format-escaped. */
export function displayMenuArgs(spec: MenuSpec): string[] {
  const args = [
    "display-menu",
    "-T",
    escapeHashes(spec.title),
    "-t",
    spec.pane,
    "-x",
    "C",
    "-y",
    "C",
  ];
  if (spec.client) args.push("-c", spec.client);
  for (const item of spec.items) {
    args.push(escapeHashes(item.label), item.key, escapeHashes(item.command));
  }
  return args;
}

/**
 * The tmux command string of a nested menu, for an item that opens a
 * second menu (a confirm step): parsed by tmux when the outer item runs,
 * expanded again when the inner menu is built.
 */
export function nestedMenuCommand(spec: Omit<MenuSpec, "client">): string {
  return displayMenuArgs(spec).map(tmuxQuote).join(" ");
}

/**
 * Shows a menu. A `display-menu` sent by a command client holds that client
 * until the menu closes, so it goes through `run-shell -b -C` instead: the
 * server runs it as its own command and tma returns at once, while the
 * menu, and the command it runs, belong to tmux (A38). `run-shell` expands
 * formats once more, hence the second escape.
 */
export async function showMenu(server: TmuxServer, spec: MenuSpec): Promise<void> {
  if (!spec.client) throw new Error("showMenu needs the client to show the menu on");
  const command = escapeHashes(displayMenuArgs(spec).map(tmuxQuote).join(" "));
  await runTmux(server, ["run-shell", "-b", "-C", command]);
}

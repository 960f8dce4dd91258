/**
 * The action menu: a tmux `display-menu` of the actions fireable at one pane
 * right now, every entry a call of the same `tma act` verb a script would
 * make (A38, C54, A39). A confirm action's entry opens a nested confirm menu;
 * a text action's entry opens a `command-prompt` for the message.
 *
 * The message typed at the prompt never meets a shell as code: tmux stores
 * it in a global user option (its `%%%` substitution escapes it for tmux's
 * parser), `run-shell` hands it to `tma act --text` through the `#{q:}`
 * format, which escapes every shell-special character, and the option is
 * unset as soon as the command line is built.
 *
 * ```ts
 * import type { ParsedActionManifest } from "../core/manifest/parse.ts";
 * declare const approve: ParsedActionManifest;
 * const items = menuItems({ tma: ["tma"], pane: "%3", actions: [approve] });
 * ```
 * @module
 */
import type { ParsedActionManifest } from "../core/manifest/parse.ts";
import { type MenuItem, nestedMenuCommand, tmuxQuote } from "../tmux/menu.ts";

/**
 * Quotes one word for `sh`.
 *
 * ```ts
 * shQuote("it's"); // "'it'\\''s'"
 * ```
 */
export function shQuote(value: string): string {
  return `'${value.replaceAll("'", `'\\''`)}'`;
}

/**
 * A pane id as a shell word that a `command-prompt` template leaves alone:
 * the template replaces `%1` (and `%%`), so `%12` is written `%''12`, which
 * the shell reads back as `%12`.
 */
export function promptSafePane(pane: string): string {
  return pane.startsWith("%") ? `%''${shQuote(pane.slice(1))}` : shQuote(pane);
}

/** What the menu's commands are made of. */
export interface MenuContext {
  /** The argv that runs tma, global flags included (`["tma", "-S", "/tmp/x"]`). */
  tma: readonly string[];
  /** The target pane id. */
  pane: string;
  /** The actions fireable at the pane now, in menu order. */
  actions: readonly ParsedActionManifest[];
}

/**
 * The shell command of a menu entry. Its stdout is dropped (a successful
 * action says nothing), its stderr kept, so `run-shell` shows a refusal's
 * reason in the pane's view mode.
 */
function actCommand(context: MenuContext, words: readonly string[]): string {
  const argv = [...context.tma.map(shQuote), "act", ...words];
  return `${argv.join(" ")} 2>&1 >/dev/null`;
}

/** The global user option a text prompt parks its message in, per pane. */
export function promptOption(pane: string): string {
  return `@tma_prompt_${pane.replace(/[^0-9A-Za-z]/g, "")}`;
}

function textCommand(context: MenuContext, action: ParsedActionManifest, confirm: boolean): string {
  const option = promptOption(context.pane);
  const shell = actCommand(context, [
    shQuote(action.name),
    "--pane",
    promptSafePane(context.pane),
    ...(confirm ? ["--yes"] : []),
    "--text",
    `#{q:${option}}`,
  ]);
  const template = [
    `set-option -g ${option} "%%%"`,
    `run-shell -b ${tmuxQuote(shell)}`,
    `set-option -gu ${option}`,
  ].join(" ; ");
  return `command-prompt -p ${tmuxQuote(`${action.label} (${context.pane}):`)} ${
    tmuxQuote(template)
  }`;
}

function runCommand(context: MenuContext, action: ParsedActionManifest, confirm: boolean): string {
  const shell = actCommand(context, [
    shQuote(action.name),
    "--pane",
    shQuote(context.pane),
    ...(confirm ? ["--yes"] : []),
  ]);
  return `run-shell -b ${tmuxQuote(shell)}`;
}

/** Shortcut keys for up to 35 entries: 1-9, then a-z. */
export const MENU_KEYS = "123456789abcdefghijklmnopqrstuvwxyz".split("");

/** The entries of the menu, one per fireable action. */
export function menuItems(context: MenuContext): MenuItem[] {
  return context.actions.slice(0, MENU_KEYS.length).map((action, i) => {
    const fireCommand = action.text
      ? textCommand(context, action, action.confirm)
      : runCommand(context, action, action.confirm);
    if (!action.confirm) return { label: action.label, key: MENU_KEYS[i], command: fireCommand };
    const confirm = nestedMenuCommand({
      pane: context.pane,
      title: `${action.label} ${context.pane}?`,
      items: [
        { label: `Yes, ${action.label.toLowerCase()}`, key: "y", command: fireCommand },
        { label: "No", key: "n", command: "" },
      ],
    });
    return { label: `${action.label}…`, key: MENU_KEYS[i], command: confirm };
  });
}

/**
 * Terminal styling for the picker and watch: the `[picker]` class colours
 * (G10) are tmux colour strings, turned here into SGR sequences, plus the
 * few attributes the surfaces use.
 *
 * ```ts
 * import { fg } from "./style.ts";
 * fg("colour244"); // "\x1b[38;5;244m"
 * ```
 * @module
 */

const NAMED: Record<string, number> = {
  black: 30,
  red: 31,
  green: 32,
  yellow: 33,
  blue: 34,
  magenta: 35,
  cyan: 36,
  white: 37,
  brightblack: 90,
  darkgray: 90,
  darkgrey: 90,
  gray: 90,
  grey: 90,
  brightred: 91,
  brightgreen: 92,
  brightyellow: 93,
  brightblue: 94,
  brightmagenta: 95,
  brightcyan: 96,
  brightwhite: 97,
};

/**
 * The SGR sequence of a tmux colour string (`red`, `colour244`, `color9`,
 * `#ff8800`); `default` and anything unknown is the terminal's default.
 *
 * ```ts
 * fg("#ff8800"); // "\x1b[38;2;255;136;0m"
 * ```
 */
export function fg(colour: string): string {
  const name = colour.toLowerCase();
  if (NAMED[name] !== undefined) return `\x1b[${NAMED[name]}m`;
  const indexed = /^colou?r(\d{1,3})$/.exec(name);
  if (indexed && Number(indexed[1]) < 256) return `\x1b[38;5;${indexed[1]}m`;
  const rgb = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/.exec(name);
  if (rgb) return `\x1b[38;2;${rgb.slice(1).map((h) => parseInt(h, 16)).join(";")}m`;
  return "\x1b[39m";
}

/** Every attribute and colour back to the default. */
export const RESET = "\x1b[0m";
/** Dim (faint) text: branch labels, group headers, stale gauges. */
export const DIM = "\x1b[2m";
/** Bold. */
export const BOLD = "\x1b[1m";
/** Reverse video: the highlighted row. */
export const REVERSE = "\x1b[7m";
/** Underline: the hovered row (U31). */
export const UNDERLINE = "\x1b[4m";

/**
 * The input vocabulary of the picker and watch: keys and mouse events as
 * plain data, decoded by the terminal layer and read by the update
 * functions.
 * @module
 */

/** A named key, or a printable character (`char`). */
export type KeyName =
  | "up"
  | "down"
  | "left"
  | "right"
  | "pageup"
  | "pagedown"
  | "home"
  | "end"
  | "enter"
  | "tab"
  | "esc"
  | "backspace"
  | "ctrl-c"
  | "ctrl-s"
  | "ctrl-u"
  | "ctrl-n"
  | "ctrl-p"
  | "char";

/** One key press. */
export interface Key {
  name: KeyName;
  /** The character, for `char`. */
  char?: string;
}

/** One mouse event (SGR reporting), at 0-based cell `x`, `y`. */
export interface MouseEvent {
  kind: "press" | "release" | "move" | "wheel-up" | "wheel-down";
  /** 0 left, 1 middle, 2 right. */
  button: number;
  x: number;
  y: number;
}

/**
 * Decodes what a terminal in raw mode sends into keys and SGR mouse events
 * (`ESC [ < b ; x ; y M|m`, mode 1006), for the update functions.
 *
 * ```ts
 * import { decodeInput } from "./keys.ts";
 * decodeInput("\x1b[A", "").events; // [{ type: "key", key: { name: "up" } }]
 * ```
 * @module
 */
import type { Key, KeyName, MouseEvent } from "../ui_core/input.ts";

/** One decoded input. */
export type InputEvent = { type: "key"; key: Key } | { type: "mouse"; event: MouseEvent };

const CONTROL: Record<string, KeyName> = {
  "\r": "enter",
  "\n": "enter",
  "\t": "tab",
  "\x7f": "backspace",
  "\x08": "backspace",
  "\x03": "ctrl-c",
  "\x13": "ctrl-s",
  "\x15": "ctrl-u",
  "\x0e": "ctrl-n",
  "\x10": "ctrl-p",
};

const CSI_KEYS: Record<string, KeyName> = {
  A: "up",
  B: "down",
  C: "right",
  D: "left",
  H: "home",
  F: "end",
  "5~": "pageup",
  "6~": "pagedown",
  "1~": "home",
  "4~": "end",
  "7~": "home",
  "8~": "end",
};

/** A decoded SGR mouse report. */
function mouseOf(code: number, x: number, y: number, final: string): MouseEvent {
  const at = { x: x - 1, y: y - 1 };
  if (code & 64) return { kind: (code & 1) ? "wheel-down" : "wheel-up", button: 0, ...at };
  const button = code & 3;
  if (code & 32) return { kind: "move", button, ...at };
  return { kind: final === "m" ? "release" : "press", button, ...at };
}

// deno-lint-ignore no-control-regex -- an unfinished sequence, completed by the next chunk
const UNFINISHED = /^\x1b(\[[<0-9;]*|O)?$/;

// deno-lint-ignore no-control-regex -- terminal input is control sequences
const SEQUENCE = /^\x1b(?:\[<(\d+);(\d+);(\d+)([Mm])|\[([0-9;]*)([A-Za-z~])|O([A-Za-z]))/;

/**
 * Decodes `chunk` (after `rest`, an incomplete sequence left from the last
 * chunk). A lone ESC at the end of a chunk is the escape key.
 */
export function decodeInput(chunk: string, rest: string): { events: InputEvent[]; rest: string } {
  const text = rest + chunk;
  const events: InputEvent[] = [];
  let i = 0;
  while (i < text.length) {
    const ch = text[i];
    if (ch === "\x1b") {
      if (i + 1 >= text.length) {
        events.push({ type: "key", key: { name: "esc" } });
        i++;
        continue;
      }
      const m = SEQUENCE.exec(text.slice(i));
      if (m) {
        i += m[0].length;
        if (m[1] !== undefined) {
          events.push({
            type: "mouse",
            event: mouseOf(Number(m[1]), Number(m[2]), Number(m[3]), m[4]),
          });
          continue;
        }
        const name = m[7] !== undefined
          ? CSI_KEYS[m[7]]
          : CSI_KEYS[m[6] === "~" ? `${m[5].split(";")[0]}~` : m[6]];
        if (name) events.push({ type: "key", key: { name } });
        continue;
      }
      // An unfinished sequence waits for the next chunk; anything else is ESC.
      if (UNFINISHED.test(text.slice(i))) return { events, rest: text.slice(i) };
      if (text[i + 1] === "\x1b") {
        events.push({ type: "key", key: { name: "esc" } });
        i++;
        continue;
      }
      events.push({ type: "key", key: { name: "esc" } });
      i++;
      continue;
    }
    if (CONTROL[ch]) {
      events.push({ type: "key", key: { name: CONTROL[ch] } });
      i++;
      continue;
    }
    const cp = text.codePointAt(i)!;
    const char = String.fromCodePoint(cp);
    i += char.length;
    if (cp >= 0x20 && cp !== 0x7f) events.push({ type: "key", key: { name: "char", char } });
  }
  return { events, rest: "" };
}

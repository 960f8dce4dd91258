/**
 * Removes terminal escape sequences from a `capture-pane -e` capture, so a
 * screen rule sees only the text a human reads. Colour is never a signal
 * (D26): orange and gray are absent on no-colour terminals anyway.
 *
 * ```ts
 * import { stripAnsi } from "./ansi.ts";
 * stripAnsi("\x1b[38;5;174m· Working…\x1b[39m"); // "· Working…"
 * ```
 * @module
 */

// One alternation, applied once, so the hot path is a single regex pass:
// - OSC `ESC ]` … ended by BEL or ST (`ESC \`): titles, OSC 8 hyperlinks. The
//   hyperlink's visible text sits between two OSC 8 sequences and survives.
// - DCS, SOS, PM and APC (`ESC P`, `ESC X`, `ESC ^`, `ESC _`) … ST: strings
//   a terminal swallows whole.
// - CSI `ESC [` parameter bytes, intermediate bytes, one final byte: SGR
//   colours, cursor moves, erases.
// - nF escapes with intermediates (`ESC ( B` charset selection, `ESC # 8`).
// - Any other two-byte escape (`ESC =`, `ESC 7`, `ESC M`, …).
// - The 8-bit CSI (U+009B) form, for completeness.
const ESCAPES = new RegExp(
  [
    "\\x1b\\][^\\x07\\x1b]*(?:\\x07|\\x1b\\\\)?",
    "\\x1b[PX^_][^\\x1b]*(?:\\x1b\\\\)?",
    "\\x1b\\[[0-?]*[ -/]*[@-~]",
    "\\u009b[0-?]*[ -/]*[@-~]",
    "\\x1b[ -/]+[0-~]",
    "\\x1b[0-~]",
  ].join("|"),
  "g",
);

// Control characters left over after the escapes: a lone ESC, BEL, a
// carriage return, backspace and the like. Tab and newline are text.
// deno-lint-ignore no-control-regex -- matching control characters is the point
const CONTROLS = /[\x00-\x08\x0b-\x1f\x7f]/g;

// A non-global twin of CONTROLS for the fast path (a global regex's `test`
// is stateful through lastIndex).
// deno-lint-ignore no-control-regex -- as above
const CONTROLS_TEST = /[\x00-\x08\x0b-\x1f\x7f]/;

/**
 * Returns `text` with every ANSI escape (CSI, OSC including hyperlinks ended
 * by BEL or `ESC \`, DCS and other strings, charset and two-byte escapes)
 * and stray control characters removed. Newlines and tabs are kept.
 *
 * ```ts
 * stripAnsi("\x1b]8;id=1;https://x\x1b\\link\x1b]8;;\x1b\\"); // "link"
 * ```
 */
export function stripAnsi(text: string): string {
  // ESC is itself a control character, so one test covers the plain case.
  if (!CONTROLS_TEST.test(text) && !text.includes("\u009b")) return text;
  return text.replace(ESCAPES, "").replace(CONTROLS, "");
}

/**
 * Cuts a line of captured screen (with its colours) to a column width, for
 * the live preview: SGR sequences are kept, every other escape dropped, and
 * the cut line ends with a reset so its colours never bleed into the next
 * cell.
 *
 * ```ts
 * import { cutAnsi } from "./ansi_cut.ts";
 * cutAnsi("\x1b[31mred text\x1b[0m", 3); // "\x1b[31mred\x1b[0m"
 * ```
 * @module
 */
import { displayWidth } from "../core/width.ts";

// deno-lint-ignore no-control-regex -- escapes are what is being parsed
const ESCAPE = /\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?|\x1b[@-_]/y;

/**
 * `line` cut to at most `columns` display columns, SGR colours kept and a
 * reset appended.
 */
export function cutAnsi(line: string, columns: number): string {
  let out = "";
  let width = 0;
  let i = 0;
  while (i < line.length) {
    if (line[i] === "\x1b") {
      ESCAPE.lastIndex = i;
      const m = ESCAPE.exec(line);
      if (m) {
        if (m[0].startsWith("\x1b[") && m[0].endsWith("m")) out += m[0];
        i += m[0].length;
        continue;
      }
      i++;
      continue;
    }
    const cp = line.codePointAt(i)!;
    const ch = String.fromCodePoint(cp);
    i += ch.length;
    if (cp < 0x20 || cp === 0x7f) continue;
    const w = displayWidth(ch);
    if (width + w > columns) break;
    out += ch;
    width += w;
  }
  return `${out}\x1b[0m`;
}

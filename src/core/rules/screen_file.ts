/**
 * Reads a screen fixture file: `# key: value` header lines, a `---` line,
 * then the raw capture (escapes kept). The shared captures, our own
 * `fixtures/screens/` and recorded `fixtures/real/` screens share it.
 *
 * ```ts
 * import { parseScreenFile } from "./screen_file.ts";
 * const f = parseScreenFile("# agent: codex\n# state: idle\n# title: proj\n---\n› Ask\n");
 * f.agent; // "codex"
 * f.capture; // "› Ask\n"
 * ```
 *
 * Known headers: `agent`, `state`, `title`, `command`, `pid`, `captured_at`,
 * optional `height` (the viewport height; `visible` is the whole capture
 * without it). Our fixtures add `rule` and `not-rule` (a rule index, then
 * optional words for the reader such as `working@70`), which may repeat.
 * @module
 */

/** A parsed screen fixture. */
export interface ScreenFile {
  /** Every header, by key, in file order (a key may repeat). */
  headers: Record<string, string[]>;
  /** `# agent:`. */
  agent: string;
  /** `# state:`, the state the screen shows (`unknown`: it must not assert one). */
  state: string;
  /** `# title:`, the pane title (may be empty). */
  title: string;
  /** `# height:`, or null when absent. */
  height: number | null;
  /** Everything after the `---` line, byte for byte. */
  capture: string;
}

/** A fixture file that does not follow the format. */
export class ScreenFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ScreenFileError";
  }
}

/**
 * Parses a fixture file. Throws {@linkcode ScreenFileError} naming `path`
 * when the `---` line, the `agent` or the `state` header is missing, or a
 * header line is malformed.
 */
export function parseScreenFile(text: string, path = "<fixture>"): ScreenFile {
  const headers: Record<string, string[]> = {};
  let offset = 0;
  for (;;) {
    const end = text.indexOf("\n", offset);
    if (end < 0) throw new ScreenFileError(`${path}: no "---" line ends the header`);
    const line = text.slice(offset, end).replace(/\r$/, "");
    offset = end + 1;
    if (line === "---") break;
    const m = /^# ([a-z_-]+):(?: (.*))?$/.exec(line);
    if (!m) throw new ScreenFileError(`${path}: bad header line ${JSON.stringify(line)}`);
    (headers[m[1]] ??= []).push(m[1] === "title" ? m[2] ?? "" : (m[2] ?? "").trim());
  }
  const agent = headers.agent?.[0];
  const state = headers.state?.[0];
  if (!agent) throw new ScreenFileError(`${path}: missing "# agent:" header`);
  if (!state) throw new ScreenFileError(`${path}: missing "# state:" header`);
  const heightText = headers.height?.[0];
  const height = heightText === undefined ? null : Number(heightText);
  if (height !== null && !(Number.isInteger(height) && height > 0)) {
    throw new ScreenFileError(`${path}: "# height:" must be a positive integer`);
  }
  return {
    headers,
    agent,
    state,
    title: headers.title?.[0] ?? "",
    height,
    capture: text.slice(offset),
  };
}

/**
 * The one-line excerpt a notification carries of what is being asked (X5):
 * the tool and its command from a hook payload (`Bash: touch probe.txt`),
 * or a screen-detected dialog's question line. Redacted with the rules of
 * `tma debug redact` and cut to 120 characters; never the rest of the
 * screen (R8).
 *
 * ```ts
 * import { excerptFromPayload, finishExcerpt } from "./excerpt.ts";
 * const raw = excerptFromPayload({ tool_name: "Bash", tool_input: { command: "npm test" } });
 * finishExcerpt(raw!, {}); // "Bash: npm test"
 * ```
 * @module
 */
import { stripAnsi } from "../ansi.ts";
import { isObject } from "../object.ts";
import { redact } from "../redact.ts";

/** The longest excerpt, in characters (X5). */
export const EXCERPT_MAX = 120;

/** The `tool_input` fields that say what a tool call does, most telling first. */
const TOOL_INPUT_FIELDS = [
  "command",
  "file_path",
  "path",
  "url",
  "pattern",
  "query",
  "prompt",
  "description",
] as const;

/**
 * Where the agents' blocked-class hook payloads say what they ask, as
 * `[label path, value paths]`: Claude's and Codex's `PermissionRequest`
 * (`tool_name`, `tool_input.*`), Gemini's `ToolPermission` notification
 * (`details.title`, `details.command`). The first pattern with a label wins.
 */
const PAYLOAD_PATTERNS: readonly (readonly [string[], string[][]])[] = [
  [["tool_name"], TOOL_INPUT_FIELDS.map((field) => ["tool_input", field])],
  [["details", "title"], [["details", "command"], ["details", "filePath"], ["details", "url"]]],
];

function at(fields: unknown, path: readonly string[]): string | null {
  let value = fields;
  for (const key of path) {
    if (!isObject(value)) return null;
    value = value[key];
  }
  return typeof value === "string" && value.trim() !== "" ? value : null;
}

/**
 * The raw excerpt of a hook payload, or null when the payload does not say
 * what is asked (OpenCode's ids-only edges). Falls back to a top-level
 * `message` string.
 *
 * ```ts
 * excerptFromPayload({ details: { title: "Confirm Shell Command", command: "git diff" } });
 * // "Confirm Shell Command: git diff"
 * ```
 */
export function excerptFromPayload(fields: Readonly<Record<string, unknown>>): string | null {
  for (const [labelPath, valuePaths] of PAYLOAD_PATTERNS) {
    const label = at(fields, labelPath);
    if (label === null) continue;
    for (const path of valuePaths) {
      const value = at(fields, path);
      if (value !== null) return `${label}: ${value}`;
    }
    return label;
  }
  return at(fields, ["message"]);
}

/** Box-drawing borders and blanks a dialog line is framed with. */
const FRAME = /^[\s│┃║|╎┆▌▐]+|[\s│┃║|╎┆▌▐]+$/gu;

/** A composer or prompt echo (`❯ why…?`, `> …`, `› …`, `$ …`): the user's words, not a dialog's. */
const PROMPT_ECHO = /^[❯>›$]\s/u;

/** How far up from the bottom a dialog's question may sit, in non-blank lines. */
const DIALOG_LINES = 16;

/**
 * The question line of a screen-detected dialog: the bottommost line near
 * the bottom of the visible region (the last `height` lines) that asks
 * something, cut after its last `?`, without its frame. Dialogs draw at the
 * bottom, under the transcript, so the bottommost question is the dialog's
 * own; the user's prompt echo is never taken for it.
 *
 * ```ts
 * questionLine("⏺ Bash(ls)\n Do you want to proceed?\n ❯ 1. Yes", 3); // "Do you want to proceed?"
 * ```
 */
export function questionLine(capture: string, height: number | null): string | null {
  const lines = stripAnsi(capture).split("\n");
  const visible = (height !== null && height > 0 ? lines.slice(-height) : lines)
    .map((line) => line.replace(FRAME, ""))
    .filter((line) => line !== "")
    .slice(-DIALOG_LINES);
  for (let i = visible.length - 1; i >= 0; i--) {
    const line = visible[i];
    const last = line.lastIndexOf("?");
    // A `?` that only opens the line is a glyph (Gemini's "? Shell"), not a question.
    if (last <= 0 || PROMPT_ECHO.test(line)) continue;
    return line.slice(0, last + 1);
  }
  return null;
}

/** Control characters and line breaks, each turned into a space. */
// deno-lint-ignore no-control-regex -- removing control characters is the point
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/gu;

/**
 * Makes a raw excerpt safe to show and send: escapes stripped, one line,
 * redacted (paths, emails, the home folder), at most 120 characters.
 *
 * ```ts
 * finishExcerpt("Bash: cat /home/ana/notes.txt\nrm x", { home: "/home/ana" });
 * // "Bash: cat <path_______________> rm x"
 * ```
 */
export function finishExcerpt(raw: string, options: { home?: string }): string {
  const oneLine = stripAnsi(raw).replace(CONTROL, " ").replace(/\s+/gu, " ").trim();
  const redacted = redact(oneLine, { home: options.home });
  const chars = [...redacted];
  return chars.length <= EXCERPT_MAX ? redacted : `${chars.slice(0, EXCERPT_MAX - 1).join("")}…`;
}

/**
 * Redaction of captured screens: filesystem paths, email addresses, named strings and extra
 * regular expressions are replaced by placeholders of the same display width, so every line of a
 * capture keeps its layout and screen rules still see the chrome around the redacted text (C95).
 *
 * ANSI escapes are kept: matching runs over the printable text, and a placeholder is written
 * around any escapes inside a match. Paths inside OSC strings (hyperlink targets, titles) are
 * redacted too. URLs other than `file:` ones are left alone; their paths are not ours.
 *
 * ```ts
 * import { redact } from "./redact.ts";
 * redact("cwd: /home/ana/proj/x  mail ana@example.com");
 * // "cwd: <path____________>  mail <email__________>"
 * ```
 * @module
 */

/** Options of {@link redact}. */
export interface RedactOptions {
  /** Extra expressions to redact (any flags; they are applied globally). */
  patterns?: RegExp[];
  /** The home folder: redacted wherever it shows, even alone (`HOME=/root`). */
  home?: string;
  /** Further exact strings to redact where they stand as whole words (a host name, a user). */
  literals?: string[];
}

/** A span of the printable text to replace, and the label its placeholder shows. */
interface Span {
  start: number;
  end: number;
  label: string;
}

// An absolute path needs two segments (`/a/b`, `/a/`), so slash commands such as `/login`,
// `/model` or `/help` stay readable. A colon ends a path: `path:branch` keeps its branch.
const PATH_CHAR = String.raw`[\p{L}\p{N}_.+@%=,~-]`;
const ABSOLUTE_PATH = new RegExp(
  String.raw`(?<![\p{L}\p{N}_.~/\\-])/(?:${PATH_CHAR}+/)+${PATH_CHAR}*`,
  "gu",
);
const HOME_PATH = new RegExp(String.raw`(?<![\p{L}\p{N}_.~/\\-])~(?:/${PATH_CHAR}*)+`, "gu");
const EMAIL = /[\w.+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}/gu;
// deno-lint-ignore no-control-regex -- a URL ends at an escape
const FILE_URL = /\bfile:\/\/[^\s\x1b\x07'"<>()]*/gu;
// deno-lint-ignore no-control-regex -- a URL ends at an escape
const OTHER_URL = /\b(?!file:)[a-z][a-z0-9+.-]*:\/\/[^\s\x1b\x07'"<>()]*/giu;

// CSI, OSC (ended by BEL or ST) and two-byte escapes.
// deno-lint-ignore no-control-regex -- matching escapes is the point
const ESCAPE = /\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?|\x1b[@-Z\\-_]/gu;

/** The terminal column width of one code point: 0, 1 or 2. */
export function charWidth(char: string): number {
  const cp = char.codePointAt(0) ?? 0;
  if (cp === 0 || /\p{M}/u.test(char)) return 0;
  if ((cp >= 0x200b && cp <= 0x200f) || (cp >= 0xfe00 && cp <= 0xfe0f)) return 0;
  if (cp < 0x1100) return 1;
  const wide = (cp <= 0x115f) ||
    (cp >= 0x2e80 && cp <= 0xa4cf && cp !== 0x303f) ||
    (cp >= 0xac00 && cp <= 0xd7a3) ||
    (cp >= 0xf900 && cp <= 0xfaff) ||
    (cp >= 0xfe30 && cp <= 0xfe4f) ||
    (cp >= 0xff00 && cp <= 0xff60) ||
    (cp >= 0xffe0 && cp <= 0xffe6) ||
    (cp >= 0x1f300 && cp <= 0x1f64f) ||
    (cp >= 0x1f900 && cp <= 0x1f9ff) ||
    (cp >= 0x20000 && cp <= 0x3fffd);
  return wide ? 2 : 1;
}

/** The terminal column width of a string without escapes. */
export function displayWidth(text: string): number {
  let width = 0;
  for (const char of text) width += charWidth(char);
  return width;
}

/**
 * An ASCII placeholder exactly `width` columns wide: `<label___>` when it fits, else `*`s.
 *
 * ```ts
 * placeholder("path", 10); // "<path____>"
 * placeholder("path", 3); // "***"
 * ```
 */
export function placeholder(label: string, width: number): string {
  if (width <= 0) return "";
  if (width < label.length + 2) return "*".repeat(width);
  return `<${label}${"_".repeat(width - label.length - 2)}>`;
}

function globalCopy(pattern: RegExp): RegExp {
  const flags = pattern.flags.includes("g") ? pattern.flags : pattern.flags + "g";
  return new RegExp(pattern.source, flags);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

function collect(text: string, pattern: RegExp, label: string, into: Span[]): void {
  for (const match of text.matchAll(globalCopy(pattern))) {
    if (match[0].length === 0) continue;
    into.push({ start: match.index, end: match.index + match[0].length, label });
  }
}

/** The spans of printable text to replace, merged where they overlap. */
function findSpans(text: string, options: RedactOptions): Span[] {
  const spans: Span[] = [];
  const literals = [...(options.literals ?? [])].filter((l) => l.length > 0);
  if (options.home && options.home.length > 1) {
    collect(text, new RegExp(escapeRegExp(options.home), "gu"), "home", spans);
  }
  for (const literal of literals) {
    const whole = new RegExp(String.raw`(?<![\w-])${escapeRegExp(literal)}(?![\w-])`, "gu");
    collect(text, whole, "redacted", spans);
  }
  for (const pattern of options.patterns ?? []) collect(text, pattern, "redacted", spans);
  collect(text, EMAIL, "email", spans);
  collect(text, FILE_URL, "path", spans);

  // Paths, except inside URLs of other schemes.
  const urls: Span[] = [];
  collect(text, OTHER_URL, "url", urls);
  const pathSpans: Span[] = [];
  collect(text, ABSOLUTE_PATH, "path", pathSpans);
  collect(text, HOME_PATH, "path", pathSpans);
  for (const span of pathSpans) {
    if (!urls.some((url) => span.start >= url.start && span.start < url.end)) spans.push(span);
  }

  spans.sort((a, b) => a.start - b.start || b.end - a.end);
  const merged: Span[] = [];
  for (const span of spans) {
    const last = merged.at(-1);
    if (last && span.start < last.end) last.end = Math.max(last.end, span.end);
    else merged.push({ ...span });
  }
  return merged;
}

/** Redacts text that holds no escapes (each span replaced by a same-width placeholder). */
function redactPlain(text: string, options: RedactOptions): string {
  let out = "";
  let at = 0;
  for (const span of findSpans(text, options)) {
    const matched = text.slice(span.start, span.end);
    out += text.slice(at, span.start) + placeholder(span.label, displayWidth(matched));
    at = span.end;
  }
  return out + text.slice(at);
}

/**
 * Replaces paths, emails, `options.home`, `options.literals` and `options.patterns` in a
 * capture with placeholders of the same display width, keeping every ANSI escape.
 *
 * ```ts
 * redact("\x1b[1m/tmp/run-1/x\x1b[0m", { patterns: [/run-\d+/] });
 * // "\x1b[1m<path_______>\x1b[0m"
 * ```
 */
export function redact(text: string, options: RedactOptions = {}): string {
  // Split into printable runs and escapes; remember where each printable char came from.
  const pieces: { escape: boolean; text: string }[] = [];
  let at = 0;
  for (const match of text.matchAll(ESCAPE)) {
    if (match.index > at) pieces.push({ escape: false, text: text.slice(at, match.index) });
    pieces.push({ escape: true, text: match[0] });
    at = match.index + match[0].length;
  }
  if (at < text.length) pieces.push({ escape: false, text: text.slice(at) });

  const plain = pieces.filter((p) => !p.escape).map((p) => p.text).join("");
  const spans = findSpans(plain, options);
  if (spans.length === 0 && !pieces.some((p) => p.escape && p.text.startsWith("\x1b]"))) {
    return text;
  }

  // Each span's placeholder is handed out char by char, each char taking its own width, so
  // escapes inside a match stay where they were.
  const fill = spans.map((span) =>
    placeholder(span.label, displayWidth(plain.slice(span.start, span.end)))
  );
  let out = "";
  let index = 0; // position in `plain`, in UTF-16 units
  let spanIndex = 0;
  let used = 0; // chars of the current placeholder already written
  for (const piece of pieces) {
    if (piece.escape) {
      out += piece.text.startsWith("\x1b]") ? redactOsc(piece.text, options) : piece.text;
      continue;
    }
    for (const char of piece.text) {
      while (spanIndex < spans.length && index >= spans[spanIndex].end) {
        spanIndex += 1;
        used = 0;
      }
      const span = spans[spanIndex];
      if (span && index >= span.start) {
        const width = charWidth(char);
        out += fill[spanIndex].slice(used, used + width);
        used += width;
      } else {
        out += char;
      }
      index += char.length;
    }
  }
  return out;
}

/** Redacts the payload of an OSC string (hyperlink targets, titles). */
function redactOsc(sequence: string, options: RedactOptions): string {
  const end = sequence.endsWith("\x07") ? 1 : sequence.endsWith("\x1b\\") ? 2 : 0;
  const body = sequence.slice(2, sequence.length - end);
  return "\x1b]" + redactPlain(body, options) + sequence.slice(sequence.length - end);
}

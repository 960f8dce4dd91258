/**
 * Codex's top-level `notify` in `config.toml` (I23), edited line by line so
 * every comment and the layout of the rest of the file stay as they were.
 * Codex spawns `notify` as an argv with the JSON payload appended, so the
 * value is `["<wrapper>", "codex", "notify"]`. A `notify` that is not tma's
 * is never replaced: install refuses and says how to resolve it.
 * @module
 */
import { parseToml, TomlError } from "../deps/toml.ts";
import { InstallError, SettingsParseError } from "./errors.ts";
import { parseHookArgv } from "./hook_command.ts";

/** The `notify` line tma writes. */
export function notifyLine(wrapperRef: string): string {
  return `notify = ${JSON.stringify([wrapperRef, "codex", "notify"]).replaceAll('","', '", "')}`;
}

function parse(path: string, text: string): Record<string, unknown> {
  try {
    return parseToml(text) as Record<string, unknown>;
  } catch (error) {
    if (error instanceof TomlError) {
      const e = error as TomlError & { line?: number; column?: number };
      const reason = error.message.split("\n")[0];
      throw new SettingsParseError(path, e.line ?? 1, e.column ?? 1, `not valid TOML (${reason})`);
    }
    throw error;
  }
}

/** The line span `[start, end)` of the top-level `notify` assignment, if any. */
function notifySpan(lines: string[]): [number, number] | undefined {
  for (let i = 0; i < lines.length; i++) {
    if (/^\s*\[/.test(lines[i])) return undefined;
    if (!/^\s*notify\s*=/.test(lines[i])) continue;
    // The value may span lines (a multi-line array): grow until it parses.
    for (let end = i + 1; end <= lines.length; end++) {
      try {
        const probe = parseToml(lines.slice(i, end).join("\n")) as Record<string, unknown>;
        if ("notify" in probe) return [i, end];
      } catch {
        // Not complete yet.
      }
    }
    return [i, i + 1];
  }
  return undefined;
}

/** Where a new top-level key goes: after the last top-level line, before the first table. */
function insertionLine(lines: string[]): number {
  const header = lines.findIndex((line) => /^\s*\[/.test(line));
  if (header < 0) return lines.length;
  let at = header;
  while (at > 0 && /^\s*#/.test(lines[at - 1])) at--;
  while (at > 0 && lines[at - 1].trim() === "") at--;
  return at;
}

/** What the top-level `notify` is. */
export type NotifyState =
  | { kind: "absent" }
  | { kind: "tma"; wrapper: string; value: string[] }
  | { kind: "foreign"; value: unknown };

/** Reads the top-level `notify`. Throws `SettingsParseError` on a broken file. */
export function readNotify(text: string, path: string): NotifyState {
  const doc = parse(path, text);
  if (!("notify" in doc)) return { kind: "absent" };
  const value = doc.notify;
  const parsed = Array.isArray(value) ? parseHookArgv(value) : undefined;
  if (parsed && parsed.agent === "codex" && parsed.event === "notify") {
    return { kind: "tma", wrapper: parsed.wrapper, value: value as string[] };
  }
  return { kind: "foreign", value };
}

/** A text as lines without the final line break, and whether it had one. */
function splitLines(text: string): { lines: string[]; eol: string; final: boolean } {
  const eol = text.includes("\r\n") ? "\r\n" : "\n";
  const final = text.endsWith("\n");
  const body = final ? text.slice(0, text.endsWith("\r\n") ? -2 : -1) : text;
  return { lines: body === "" && text === "" ? [] : body.split(/\r?\n/), eol, final };
}

function joinLines(lines: string[], eol: string, final: boolean): string {
  return lines.length === 0 ? "" : lines.join(eol) + (final ? eol : "");
}

/**
 * Sets `notify` to tma's wrapper. Refuses (InstallError) when another
 * program is already there.
 */
export function installCodexNotify(text: string, path: string, wrapperRef: string): string {
  const state = readNotify(text, path);
  const line = notifyLine(wrapperRef);
  if (state.kind === "foreign") {
    throw new InstallError(
      `${path}: top-level notify is already set to ${JSON.stringify(state.value)}, which is not ` +
        `tma's; tma will not replace it. Remove that line (or make your notify program call ` +
        `"${wrapperRef} codex notify <payload>") and rerun tma install-hooks codex`,
      path,
    );
  }
  if (text === "") return `${line}\n`;
  const { lines, eol, final } = splitLines(text);
  if (state.kind === "tma") {
    const [start, end] = notifySpan(lines)!;
    if (end - start === 1 && lines[start] === line) return text;
    lines.splice(start, end - start, line);
  } else {
    lines.splice(insertionLine(lines), 0, line);
  }
  return joinLines(lines, eol, final);
}

/** Removes tma's `notify` (a foreign one is left alone). */
export function uninstallCodexNotify(text: string, path: string): string {
  if (readNotify(text, path).kind !== "tma") return text;
  const { lines, eol, final } = splitLines(text);
  const [start, end] = notifySpan(lines)!;
  lines.splice(start, end - start);
  return joinLines(lines, eol, final);
}

/**
 * The chaining statusline context shim (I7) for Claude Code's
 * `settings.json` and Cursor's `cli-config.json`. Both run one `statusLine`
 * command per turn with a JSON payload on stdin; the shim reads stdin once,
 * forwards a copy in the background to the `tma-hook` wrapper as the
 * agent's `context` event (which runs `tma event --agent <agent> --kind
 * context`, with tma found when it fires, I12) and pipes the same bytes to
 * the user's own command, whose output is still what renders. With no
 * command of the user's, tma itself answers with one line: the shim asks the
 * wrapper for the agent's `statusline` event (`--kind context
 * --print-status`, its stdout passed through). The shim names only the
 * wrapper, never a tma binary or a checkout, so moving or reinstalling tma
 * does not break it.
 *
 * The shim opens with the marker `: tma-statusline-shim <agent>;` (`:` is
 * the shell's no-op), and the user's command sits verbatim at its end inside
 * `{ … }`, so a later hand edit of the inner command survives and uninstall
 * gives the command back.
 * @module
 */
import { InstallError } from "./errors.ts";
import { insertValue, nodeAt, objectAt, parseDoc, removeValue, replaceValue } from "./json_doc.ts";
import { shellQuote } from "./shell.ts";

/** The marker the shim opens with. */
export const SHIM_MARKER = ": tma-statusline-shim";

const RENDER = `; printf %s "$p" | {\n`;

/**
 * The shim command for `agent`, wrapping `inner` (the user's own command).
 * `wrapperRef` names the wrapper as the agent's hooks do (an absolute path
 * or the bare `tma-hook`). With no command of the user's, tma runs in the
 * foreground through the wrapper and prints its own line (the model and the
 * context gauge it just read), so the agent's footer is not left blank; with
 * one, tma runs in the background and the user's command alone renders.
 */
export function buildShim(agent: string, wrapperRef: string, inner: string | undefined): string {
  const wrapper = shellQuote(wrapperRef);
  const forward = inner === undefined
    ? `(printf %s "$p" | ${wrapper} ${agent} statusline) </dev/null 2>/dev/null`
    : `(printf %s "$p" | ${wrapper} ${agent} context &) </dev/null >/dev/null 2>&1`;
  // `$(cat; printf x)` then `${p%x}` keeps trailing newlines the payload ends with.
  const head = `${SHIM_MARKER} ${agent}; p=$(cat; printf x); p=\${p%x}; ${forward}`;
  return inner === undefined ? head : `${head}${RENDER}${inner}\n}`;
}

/** A parsed shim: its agent and the user's command inside (if any). */
export interface ParsedShim {
  agent: string;
  inner: string | undefined;
}

/**
 * Reads a `statusLine` command as a tma shim, or `undefined` when it is the
 * user's own command.
 *
 * ```ts
 * parseShim(buildShim("claude", "/home/u/.local/bin/tma-hook", "~/bin/sl.sh"))?.inner;
 * // "~/bin/sl.sh"
 * ```
 */
export function parseShim(command: string): ParsedShim | undefined {
  if (!command.startsWith(`${SHIM_MARKER} `)) return undefined;
  const agent = /^[A-Za-z0-9_-]+/.exec(command.slice(SHIM_MARKER.length + 1))?.[0] ?? "";
  const at = command.indexOf(RENDER);
  if (at < 0) return { agent, inner: undefined };
  const rest = command.slice(at + RENDER.length);
  const inner = rest.endsWith("\n}") ? rest.slice(0, -2) : rest;
  return { agent, inner };
}

/** What `inspectShim` finds. */
export type ShimState = "present" | "stale" | "absent";

function statusLineOf(path: string, text: string): Record<string, unknown> | undefined {
  return objectAt(parseDoc(path, text), "statusLine");
}

/** Options of the shim editors. */
export interface ShimOptions {
  agent: string;
  /** How the agent's hooks name the `tma-hook` wrapper. */
  wrapperRef: string;
}

/**
 * Installs or refreshes the shim in a settings text: the user's command
 * becomes the inner command; a shim already there keeps its inner command
 * and only its tma part is rewritten. Sibling keys are not touched.
 */
export function installShim(text: string, path: string, options: ShimOptions): string {
  const doc = parseDoc(path, text);
  const statusLine = statusLineOf(path, doc.text);
  if (statusLine === undefined) {
    return insertValue(doc.text, ["statusLine"], {
      type: "command",
      command: buildShim(options.agent, options.wrapperRef, undefined),
    });
  }
  const command = statusLine.command;
  if (command === undefined) {
    return insertValue(
      doc.text,
      ["statusLine", "command"],
      buildShim(options.agent, options.wrapperRef, undefined),
    );
  }
  if (typeof command !== "string") {
    throw new InstallError(`${path}: "statusLine.command" is not a string; fix it by hand`, path);
  }
  const existing = parseShim(command);
  // A blank command renders nothing either way, and `{ }` is not valid sh.
  const inner = existing ? existing.inner : command.trim() === "" ? undefined : command;
  const desired = buildShim(options.agent, options.wrapperRef, inner);
  return desired === command ? text : replaceValue(doc.text, ["statusLine", "command"], desired);
}

/**
 * Unwinds the shim: the inner command goes back in its place; a shim with
 * no inner command takes the `statusLine` tma created (or just its
 * `command`, when the user added other keys) with it.
 */
export function uninstallShim(text: string, path: string): string {
  const doc = parseDoc(path, text);
  const statusLine = statusLineOf(path, doc.text);
  if (statusLine === undefined || typeof statusLine.command !== "string") return text;
  const shim = parseShim(statusLine.command);
  if (!shim) return text;
  if (shim.inner !== undefined) {
    return replaceValue(doc.text, ["statusLine", "command"], shim.inner);
  }
  const keys = Object.keys(statusLine);
  const onlyOurs = keys.every((k) =>
    k === "command" || (k === "type" && statusLine.type === "command")
  );
  return onlyOurs
    ? removeValue(doc.text, ["statusLine"])
    : removeValue(doc.text, ["statusLine", "command"]);
}

/** Whether the shim is there, current, or there but naming another wrapper (or a tma binary). */
export function inspectShim(text: string, path: string, options: ShimOptions): ShimState {
  const doc = parseDoc(path, text);
  const command = nodeAt(doc, ["statusLine", "command"])?.value;
  if (typeof command !== "string") return "absent";
  const shim = parseShim(command);
  if (!shim) return "absent";
  return buildShim(options.agent, options.wrapperRef, shim.inner) === command ? "present" : "stale";
}

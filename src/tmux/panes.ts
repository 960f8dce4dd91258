/**
 * The one `list-panes -a` of a cycle: every fact detection needs, and every
 * `@agent_*` option, for every pane of the server, in one call (D52).
 * @module
 */
import {
  PANE_OPTIONS,
  type PaneFacts,
  type PaneOptionName,
  type PaneOptions,
} from "../core/snapshot.ts";
import { runTmux, type TmuxServer } from "./exec.ts";

/**
 * Fields are joined by a printable separator rather than a control character,
 * because some tmux releases escape control characters in format output
 * (R25). The pane title goes last, so a title that happens to contain the
 * separator still parses: everything after the last fixed field is title.
 */
export const FIELD_SEPARATOR = "<~|~>";

const FIXED_FIELDS = [
  "pane_id",
  "session_name",
  "session_id",
  "window_id",
  "window_index",
  "pane_index",
  "pane_pid",
  "pane_current_command",
  "pane_width",
  "pane_height",
  "pane_tty",
  "pane_in_mode",
  "scroll_position",
  "window_activity",
  "pane_dead",
  "alternate_on",
  "pane_active",
  "window_active",
  "socket_path",
  "@tma_last_poll",
  "@tma_status_at",
  "@agent_summary",
  "@agent_session_summary",
  "pane_current_path",
] as const;

type FixedField = (typeof FIXED_FIELDS)[number];

/** Each fixed field's column. */
const FIELD_INDEX = Object.fromEntries(FIXED_FIELDS.map((name, i) => [name, i])) as Record<
  FixedField,
  number
>;

/** The `list-panes` format of a listing that reads `options`. */
export function formatOf(options: readonly PaneOptionName[]): string {
  return [
    ...FIXED_FIELDS.map((name) => `#{${name}}`),
    ...options.map((name) => `#{${name}}`),
    "#{pane_title}",
  ].join(FIELD_SEPARATOR);
}

const FORMAT = formatOf(PANE_OPTIONS);

/** Options of `listPanes`. */
export interface ListPanesOptions {
  /**
   * Record a poll at this time (epoch ms) in the server hint `@tma_last_poll`
   * (P35), in the same tmux call: tmux runs the listing first, so the panes
   * still carry the previous poll's time for the stampede guard (D53), and a
   * quiet cycle needs no second tmux call to leave its mark.
   */
  markPollMs?: number;
  /**
   * Read only these options (a surface's first frame needs fewer than a
   * cycle, and every field is work for the server); default all of them.
   */
  options?: readonly PaneOptionName[];
}

/**
 * Lists every pane of the server with its facts and tma options.
 *
 * ```ts
 * const panes = await listPanes({ bin: "tmux", socketName: "work" });
 * ```
 */
export async function listPanes(
  server: TmuxServer,
  options: ListPanesOptions = {},
): Promise<PaneFacts[]> {
  const mark = options.markPollMs === undefined
    ? []
    : [";", "set-option", "-s", "@tma_last_poll", String(options.markPollMs)];
  const format = options.options ? formatOf(options.options) : FORMAT;
  const { stdout } = await runTmux(server, ["list-panes", "-a", "-F", format, ...mark]);
  return parsePaneLines(stdout, options.options);
}

/** Lists the panes of one target (`-t`), for single-pane commands. */
export async function listPane(server: TmuxServer, pane: string): Promise<PaneFacts | null> {
  const { stdout, code } = await runTmux(
    server,
    ["display-message", "-p", "-t", pane, FORMAT],
    { allowFailure: true },
  );
  if (code !== 0) return null;
  // tmux 3.3a answers a target that no longer exists with exit 0 and empty fields.
  const facts = parsePaneLines(stdout)[0];
  return facts && facts.paneId !== "" ? facts : null;
}

/** Parses the output of the pane format; malformed lines are skipped. */
export function parsePaneLines(
  stdout: string,
  names: readonly PaneOptionName[] = PANE_OPTIONS,
): PaneFacts[] {
  const panes: PaneFacts[] = [];
  const optionsStart = FIXED_FIELDS.length;
  const fixedCount = optionsStart + names.length;
  for (const line of stdout.split("\n")) {
    if (line === "") continue;
    const parts = line.split(FIELD_SEPARATOR);
    if (parts.length < fixedCount + 1) continue;
    const field = (name: FixedField) => parts[FIELD_INDEX[name]];
    const options: PaneOptions = {};
    for (let i = 0; i < names.length; i++) {
      const value = parts[optionsStart + i];
      if (value !== "") options[names[i]] = value;
    }
    const sessionName = field("session_name");
    const windowIndex = Number(field("window_index"));
    const paneIndex = Number(field("pane_index"));
    panes.push({
      paneId: field("pane_id"),
      sessionName,
      sessionId: field("session_id"),
      windowId: field("window_id"),
      windowIndex,
      paneIndex,
      locator: `${sessionName}:${windowIndex}.${paneIndex}`,
      panePid: Number(field("pane_pid")) || 0,
      currentCommand: field("pane_current_command"),
      currentPath: field("pane_current_path"),
      width: Number(field("pane_width")) || 0,
      height: Number(field("pane_height")) || 0,
      tty: field("pane_tty"),
      inMode: field("pane_in_mode") === "1",
      scrollPosition: Number(field("scroll_position")) || 0,
      windowActivitySec: Number(field("window_activity")) || 0,
      dead: field("pane_dead") === "1",
      alternateOn: field("alternate_on") === "1",
      active: field("pane_active") === "1",
      windowActive: field("window_active") === "1",
      socketPath: field("socket_path"),
      lastPollMs: Number(field("@tma_last_poll")) || 0,
      statusAtMs: Number(field("@tma_status_at")) || 0,
      options,
      rollups: {
        "@agent_summary": field("@agent_summary") || undefined,
        "@agent_session_summary": field("@agent_session_summary") || undefined,
      },
      title: parts.slice(fixedCount).join(FIELD_SEPARATOR),
    });
  }
  return panes;
}

/**
 * The local windows a remote jump opens (X9): each runs the transport that
 * attaches to one remote session and carries the window option
 * `@tma_remote` naming it (host, server, session), so the next jump to that
 * session finds the window and reuses it instead of opening another.
 * @module
 */
import { runTmux, type TmuxServer } from "./exec.ts";
import { FIELD_SEPARATOR } from "./panes.ts";

/** A window a remote jump opened. */
export interface TaggedWindow {
  windowId: string;
  sessionName: string;
  /** Its (only) pane. */
  paneId: string;
  /** Its process ended (the window is kept by `remain-on-exit`). */
  dead: boolean;
}

/** The window option that names the remote session a window shows. */
export const REMOTE_OPTION = "@tma_remote";

/** The window tagged `tag`, or null. */
export async function findTaggedWindow(
  server: TmuxServer,
  tag: string,
): Promise<TaggedWindow | null> {
  const format = [
    "#{window_id}",
    "#{session_name}",
    "#{pane_id}",
    "#{pane_dead}",
    `#{${REMOTE_OPTION}}`,
  ]
    .join(FIELD_SEPARATOR);
  const { stdout } = await runTmux(server, ["list-panes", "-a", "-F", format]);
  for (const line of stdout.split("\n")) {
    const [windowId, sessionName, paneId, dead, ...rest] = line.split(FIELD_SEPARATOR);
    if (rest.join(FIELD_SEPARATOR) !== tag) continue;
    return { windowId, sessionName, paneId, dead: dead === "1" };
  }
  return null;
}

/**
 * Opens a window in `session` running `argv` (run directly, no shell),
 * named `name` and tagged `tag`, without selecting it; returns its ids.
 */
export async function openTaggedWindow(
  server: TmuxServer,
  options: { session: string; name: string; tag: string; argv: readonly string[] },
): Promise<{ windowId: string; paneId: string }> {
  const { stdout } = await runTmux(server, [
    "new-window",
    "-d",
    "-P",
    "-F",
    `#{window_id}${FIELD_SEPARATOR}#{pane_id}`,
    "-t",
    `=${options.session}:`,
    "-n",
    options.name,
    "--",
    ...options.argv,
  ]);
  const [windowId, paneId] = stdout.trim().split(FIELD_SEPARATOR);
  await runTmux(server, ["set-option", "-w", "-t", windowId, REMOTE_OPTION, options.tag]);
  return { windowId, paneId };
}

/** Starts `argv` again in a tagged window whose process ended. */
export async function respawnTaggedWindow(
  server: TmuxServer,
  paneId: string,
  argv: readonly string[],
): Promise<void> {
  await runTmux(server, ["respawn-pane", "-k", "-t", paneId, "--", ...argv]);
}

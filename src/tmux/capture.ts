/**
 * Captures the screens of several panes in one tmux invocation:
 * `capture-pane -p -e -S -50` per pane, separated by marker lines that a
 * screen cannot contain (a random nonce printed by `display-message`) (D26,
 * D52).
 * @module
 */
import { readMarkers, runTmux, runTmuxScript, type TmuxServer } from "./exec.ts";

/** Lines of scrollback captured above the viewport (D26). */
export const CAPTURE_HISTORY_LINES = 50;

/**
 * Captures each pane; a pane that vanished between the listing and the
 * capture is simply missing from the result.
 *
 * ```ts
 * const server = { bin: "tmux", socketName: "work" };
 * const screens = await capturePanes(server, ["%1", "%2"]);
 * screens.get("%1"); // the raw capture with ANSI
 * ```
 */
export async function capturePanes(
  server: TmuxServer,
  paneIds: readonly string[],
): Promise<Map<string, string>> {
  const screens = new Map<string, string>();
  if (paneIds.length === 0) return screens;
  const nonce = crypto.randomUUID();
  // One line per pane, in one tmux process: the capture, then an end marker.
  // A vanished pane fails its capture, which stops its line before the
  // marker (display-message itself would print even for a missing target).
  // Markers carry an index, not the pane id: display-message respaces text
  // after a `%`.
  const { stdout } = await runTmuxScript(
    server,
    paneIds.map((pane, i) => [
      ["capture-pane", "-p", "-e", "-S", `-${CAPTURE_HISTORY_LINES}`, "-t", pane],
      ["display-message", "-p", `${nonce}:${i}`],
    ]),
  );
  for (const marker of readMarkers(stdout, nonce)) {
    const pane = paneIds[marker.index];
    if (pane !== undefined) screens.set(pane, marker.body.join("\n"));
  }
  return screens;
}

/**
 * The visible screen of one pane with its colours, for a live preview
 * (U32); null when the pane is gone. Kept in memory only (R8).
 *
 * ```ts
 * const screen = await captureScreen({ bin: "tmux", socketName: "work" }, "%3");
 * ```
 */
export async function captureScreen(server: TmuxServer, pane: string): Promise<string | null> {
  const { stdout, code } = await runTmux(server, ["capture-pane", "-p", "-e", "-t", pane], {
    allowFailure: true,
  });
  return code === 0 ? stdout : null;
}

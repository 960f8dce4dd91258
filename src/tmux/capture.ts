/**
 * Captures the screens of several panes in one tmux invocation (D26, D52):
 * `capture-pane -p -e -S -50` per pane, separated by marker lines that a
 * screen cannot contain (a random nonce printed by `display-message`).
 * @module
 */
import { runTmux, type TmuxServer } from "./exec.ts";
import { batchesUnder } from "./writer.ts";

/** Lines of scrollback captured above the viewport (D26). */
export const CAPTURE_HISTORY_LINES = 50;

/**
 * Captures each pane; a pane that vanished between the listing and the
 * capture is simply missing from the result.
 *
 * ```ts
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
  const captureArgs = (pane: string) => [
    "capture-pane",
    "-p",
    "-e",
    "-S",
    `-${CAPTURE_HISTORY_LINES}`,
    "-t",
    pane,
  ];
  for (const batch of batchesUnder(paneIds, (pane) => [...captureArgs(pane), "display", "-p", "-t", pane, nonce])) {
    // Markers carry an index, not the pane id: display-message has been seen
    // to respace text after a `%`.
    const args = batch.flatMap((pane, i) => [
      ...(i === 0 ? [] : [";"]),
      "display-message",
      "-p",
      "-t",
      pane,
      `${nonce}:${i}`,
      ";",
      ...captureArgs(pane),
    ]);
    // One vanished pane fails the chain from that command on: capture the
    // rest again one by one rather than lose every screen.
    const { stdout, code } = await runTmux(server, args, { allowFailure: true });
    const last = parseMarked(stdout, nonce, batch, screens);
    if (code === 0) continue;
    // The command that failed may be the capture after the last marker.
    if (last !== null) screens.delete(last);
    for (const pane of batch) {
      if (screens.has(pane)) continue;
      const single = await runTmux(server, captureArgs(pane), { allowFailure: true });
      if (single.code === 0) screens.set(pane, trimFinalNewline(single.stdout));
    }
  }
  return screens;
}

function parseMarked(
  stdout: string,
  nonce: string,
  paneIds: readonly string[],
  into: Map<string, string>,
): string | null {
  const prefix = `${nonce}:`;
  let current: string | null = null;
  let lines: string[] = [];
  const flush = () => {
    if (current !== null) into.set(current, lines.join("\n"));
  };
  for (const line of trimFinalNewline(stdout).split("\n")) {
    if (line.startsWith(prefix)) {
      flush();
      current = paneIds[Number(line.slice(prefix.length).trim())] ?? null;
      lines = [];
    } else if (current !== null) {
      lines.push(line);
    }
  }
  flush();
  return current;
}

function trimFinalNewline(text: string): string {
  return text.endsWith("\n") ? text.slice(0, -1) : text;
}

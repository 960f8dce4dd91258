/**
 * The tmux side of a notification: what a fire needs to know about its pane
 * (the window's name, the dialog on screen) read in one tmux call, beside
 * the attached clients (who is looking), and the status-line message shown
 * on every attached client (U19, X5).
 *
 * ```ts
 * const server = { bin: "tmux", socketName: "work" };
 * const facts = await readFireFacts(server, { pane: "%3", capture: true });
 * await showMessage(server, { clients: facts.clients.map((c) => c.name), text: "tma: claude needs you" });
 * ```
 * @module
 */
import type { ClientFacts } from "../core/client.ts";
import { readMarkers, runTmuxScript, type TmuxCommand, type TmuxServer } from "./exec.ts";
import { CAPTURE_HISTORY_LINES } from "./capture.ts";
import { listClientFacts } from "./clients.ts";

/** What a fire reads about its pane. */
export interface FireFacts {
  /** `#{window_name}`, or "" when the pane is gone. */
  windowName: string;
  /** `#{pane_height}`, for the capture's visible region; null when unknown. */
  height: number | null;
  /** Every attached client and the pane it displays. */
  clients: ClientFacts[];
  /** The pane's capture (`capture-pane -p -e -S -50`), when asked for and the pane lives. */
  capture: string | null;
}

/**
 * Reads the window name and (when `capture` is set) the screen of one pane
 * in a single tmux call, and the attached clients beside it. Each item ends
 * with a marker line, so a vanished pane only leaves its own items empty.
 */
export async function readFireFacts(
  server: TmuxServer,
  options: { pane: string; capture: boolean },
): Promise<FireFacts> {
  const nonce = crypto.randomUUID();
  const clients = listClientFacts(server);
  const items: TmuxCommand[] = [
    ["display-message", "-p", "-t", options.pane, "#{pane_height} #{window_name}"],
  ];
  if (options.capture) {
    items.push([
      "capture-pane",
      "-p",
      "-e",
      "-S",
      `-${CAPTURE_HISTORY_LINES}`,
      "-t",
      options.pane,
    ]);
  }
  const [{ stdout }, attached] = await Promise.all([
    runTmuxScript(
      server,
      items.map((command, i) => [command, ["display-message", "-p", `${nonce}:${i}`]]),
    ),
    clients,
  ]);
  const bodies = new Map(readMarkers(stdout, nonce).map((m) => [m.index, m.body]));
  const head = (bodies.get(0) ?? []).join("\n");
  const space = head.indexOf(" ");
  const height = space > 0 ? Number(head.slice(0, space)) : NaN;
  return {
    windowName: space > 0 ? head.slice(space + 1) : "",
    height: Number.isFinite(height) && height > 0 ? height : null,
    clients: attached,
    capture: options.capture && bodies.has(1) ? bodies.get(1)!.join("\n") : null,
  };
}

/** How long the status-line message stays up, in ms (tmux's own default is 750). */
export const MESSAGE_MS = 5000;

/**
 * Shows `text` in the status line of each named client (U19). The text is
 * format-escaped (`#` doubled), so a title or excerpt reading `#(cmd)`
 * stays text; tmux's command parser gets it as one quoted argument.
 */
export async function showMessage(
  server: TmuxServer,
  options: { clients: readonly string[]; text: string },
): Promise<void> {
  if (options.clients.length === 0) return;
  const text = options.text.replaceAll("#", "##");
  await runTmuxScript(
    server,
    options.clients.map((client) => [
      ["display-message", "-c", client, "-d", String(MESSAGE_MS), text],
    ]),
  );
}

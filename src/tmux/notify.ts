/**
 * The tmux side of a notification: what a fire needs to know about its pane
 * (the window's name, who is looking, the dialog on screen), read in one
 * tmux call, and the status-line message shown on every attached client
 * (U19, X5).
 *
 * ```ts
 * const server = { bin: "tmux", socketName: "work" };
 * const facts = await readFireFacts(server, { pane: "%3", capture: true });
 * await showMessage(server, { clients: facts.clients.map((c) => c.name), text: "tma: claude needs you" });
 * ```
 * @module
 */
import type { ClientView } from "../core/notify/route.ts";
import { readMarkers, runTmuxScript, type TmuxCommand, type TmuxServer } from "./exec.ts";
import { CAPTURE_HISTORY_LINES } from "./capture.ts";
import { FIELD_SEPARATOR } from "./panes.ts";

/** What a fire reads about its pane. */
export interface FireFacts {
  /** `#{window_name}`, or "" when the pane is gone. */
  windowName: string;
  /** `#{pane_height}`, for the capture's visible region; null when unknown. */
  height: number | null;
  /** Every attached client and the pane it displays. */
  clients: ClientView[];
  /** The pane's capture (`capture-pane -p -e -S -50`), when asked for and the pane lives. */
  capture: string | null;
}

const CLIENT_FORMAT = [
  "#{client_name}",
  "#{pane_id}",
  "#{client_activity}",
  "#{client_control_mode}",
].join(FIELD_SEPARATOR);

/**
 * Reads the window name, the clients and (when `capture` is set) the screen
 * of one pane in a single tmux call. Each item ends with a marker line, so
 * a vanished pane only leaves its own items empty.
 */
export async function readFireFacts(
  server: TmuxServer,
  options: { pane: string; capture: boolean },
): Promise<FireFacts> {
  const nonce = crypto.randomUUID();
  const items: TmuxCommand[] = [
    ["display-message", "-p", "-t", options.pane, "#{pane_height} #{window_name}"],
    ["list-clients", "-F", CLIENT_FORMAT],
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
  const { stdout } = await runTmuxScript(
    server,
    items.map((command, i) => [command, ["display-message", "-p", `${nonce}:${i}`]]),
  );
  const bodies = new Map(readMarkers(stdout, nonce).map((m) => [m.index, m.body]));
  const head = (bodies.get(0) ?? []).join("\n");
  const space = head.indexOf(" ");
  const height = space > 0 ? Number(head.slice(0, space)) : NaN;
  return {
    windowName: space > 0 ? head.slice(space + 1) : "",
    height: Number.isFinite(height) && height > 0 ? height : null,
    clients: (bodies.get(1) ?? []).filter((line) => line !== "").map(parseClient),
    capture: options.capture && bodies.has(2) ? bodies.get(2)!.join("\n") : null,
  };
}

function parseClient(line: string): ClientView {
  const [name, pane, activity, control] = line.split(FIELD_SEPARATOR);
  return {
    name: name ?? "",
    pane: pane ?? "",
    activitySec: Number(activity) || 0,
    control: control === "1",
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

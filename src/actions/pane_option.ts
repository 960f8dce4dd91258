/**
 * Reads one pane option straight from the server, for the broker's
 * handshakes (the lock, the hook lane) that must see the value as it is now
 * rather than as the last listing saw it.
 * @module
 */
import { runTmux, type TmuxServer } from "../tmux/exec.ts";

/**
 * One pane option's value ("" when unset), or null when the pane is gone.
 *
 * ```ts
 * const server = { bin: "tmux", socketName: "work" };
 * await readPaneOption(server, { pane: "%3", name: "@agent_action" }); // ""
 * ```
 */
export async function readPaneOption(
  server: TmuxServer,
  options: { pane: string; name: string },
): Promise<string | null> {
  const { stdout, code } = await runTmux(
    server,
    ["show-options", "-pqv", "-t", options.pane, options.name],
    { allowFailure: true },
  );
  if (code !== 0) return null;
  return stdout.replace(/\n$/, "");
}

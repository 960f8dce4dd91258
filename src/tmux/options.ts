/**
 * Reads of single options: one pane's stamp, or a server option.
 * @module
 */
import { runTmux, type TmuxServer } from "./exec.ts";

/** Reads one server-scope user option (`@tma_last_poll`), or null when unset. */
export async function readServerOption(server: TmuxServer, name: string): Promise<string | null> {
  const { stdout, code } = await runTmux(server, ["show-options", "-sqv", name], {
    allowFailure: true,
  });
  if (code !== 0) return null;
  const value = stdout.replace(/\n$/, "");
  return value === "" ? null : value;
}

/** The version string of the tmux server (`3.3a`), from `#{version}`. */
export async function serverVersion(server: TmuxServer): Promise<string> {
  const { stdout } = await runTmux(server, ["display-message", "-p", "#{version}"]);
  return stdout.trim();
}

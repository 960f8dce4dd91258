/**
 * Reads of single options (one pane's stamp, a server option) and writes of server options.
 * @module
 */
import { runTmux, runTmuxScript, type TmuxServer } from "./exec.ts";

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

/**
 * Reads several server-scope user options in one tmux call; an unset one
 * reads null.
 *
 * ```ts
 * await readServerOptions({ bin: "tmux" }, ["@tma_status", "@tma_status_at"]);
 * ```
 */
export async function readServerOptions(
  server: TmuxServer,
  names: readonly string[],
): Promise<(string | null)[]> {
  const marker = "<~tma~>";
  const args = names.flatMap((name, i) => [
    ...(i > 0 ? [";"] : []),
    "display-message",
    "-p",
    `${marker}#{${name}}`,
  ]);
  const { stdout, code } = await runTmux(server, args, { allowFailure: true });
  if (code !== 0) return names.map(() => null);
  const values = stdout.split("\n").filter((l) => l.startsWith(marker)).map((l) =>
    l.slice(marker.length)
  );
  return names.map((_, i) => values[i] === undefined || values[i] === "" ? null : values[i]);
}

/** The server's start time (`#{start_time}`) in epoch ms, or null when it cannot be read. */
export async function serverStartMs(server: TmuxServer): Promise<number | null> {
  const { stdout, code } = await runTmux(server, ["display-message", "-p", "#{start_time}"], {
    allowFailure: true,
  });
  const seconds = Number(stdout.trim());
  return code === 0 && stdout.trim() !== "" && Number.isFinite(seconds) ? seconds * 1000 : null;
}

/**
 * Sets server-scope user options of any length (a fleet cache entry can be
 * tens of kilobytes): the commands go to `source-file -` on stdin, which has
 * no command-length limit. An empty value unsets. Returns false when tmux
 * refused.
 */
export async function writeServerOptions(
  server: TmuxServer,
  values: Readonly<Record<string, string>>,
): Promise<boolean> {
  const lines = Object.entries(values).map(([name, value]) => [
    value === "" ? ["set-option", "-su", name] : ["set-option", "-s", name, value],
  ]);
  if (lines.length === 0) return true;
  const result = await runTmuxScript(server, lines);
  return result.code === 0;
}

/**
 * tmux server hooks for `install-hooks`: list, append, set and unset global
 * hook entries, identify the server (so a restart can be told from a
 * removal), and clear every `@agent_*` pane option (I4, I6). Cold path: every
 * call goes through `runTmux`.
 * @module
 */
import { runTmux, type TmuxServer } from "./exec.ts";

/** One entry of a global hook array, as tmux prints it. */
export interface GlobalHookEntry {
  index: number;
  /** The command as `show-hooks` prints it (tmux's own quoting). */
  command: string;
}

/** Which server answered: its pid, start time and socket. */
export interface ServerIdentity {
  pid: number;
  /** `#{start_time}`, epoch seconds. */
  startTime: number;
  socketPath: string;
}

/**
 * Lists the entries of one global hook.
 *
 * ```ts
 * const server = { bin: "tmux", socketName: "work" };
 * await showGlobalHook(server, "after-select-pane"); // [{ index: 0, command: "run-shell ..." }]
 * ```
 */
export async function showGlobalHook(server: TmuxServer, name: string): Promise<GlobalHookEntry[]> {
  const { stdout } = await runTmux(server, ["show-hooks", "-g", name]);
  const entries: GlobalHookEntry[] = [];
  for (const line of stdout.split("\n")) {
    const match = /^(\S+)\[(\d+)\] (.*)$/.exec(line);
    if (match && match[1] === name) entries.push({ index: Number(match[2]), command: match[3] });
  }
  return entries;
}

/** Appends a command to a global hook (`set-hook -ga`). */
export async function appendGlobalHook(
  server: TmuxServer,
  name: string,
  command: string,
): Promise<void> {
  await runTmux(server, ["set-hook", "-ga", name, command]);
}

/** Sets one indexed entry of a global hook. */
export async function setGlobalHookAt(
  server: TmuxServer,
  entry: { name: string; index: number; command: string },
): Promise<void> {
  await runTmux(server, ["set-hook", "-g", `${entry.name}[${entry.index}]`, entry.command]);
}

/** Removes one indexed entry of a global hook. */
export async function unsetGlobalHookAt(
  server: TmuxServer,
  name: string,
  index: number,
): Promise<void> {
  await runTmux(server, ["set-hook", "-gu", `${name}[${index}]`]);
}

/** The server's identity. Throws the typed tmux errors (no server, no tmux). */
export async function serverIdentity(server: TmuxServer): Promise<ServerIdentity> {
  const { stdout } = await runTmux(server, [
    "display-message",
    "-p",
    "#{pid} #{start_time} #{socket_path}",
  ]);
  const [pid, start, ...socket] = stdout.trim().split(" ");
  return { pid: Number(pid), startTime: Number(start), socketPath: socket.join(" ") };
}

/**
 * Unsets every `@agent_*` pane option on every pane of the server (I6),
 * returning how many were cleared.
 */
export async function clearAgentOptions(server: TmuxServer): Promise<number> {
  const { stdout } = await runTmux(server, ["list-panes", "-a", "-F", "#{pane_id}"]);
  const args: string[] = [];
  for (const pane of stdout.split("\n").filter((p) => p !== "")) {
    const shown = await runTmux(server, ["show-options", "-p", "-t", pane], {
      allowFailure: true,
    });
    for (const line of shown.stdout.split("\n")) {
      const name = /^(@agent_[A-Za-z0-9_]+)\b/.exec(line)?.[1];
      if (name) args.push(...(args.length ? [";"] : []), "set-option", "-pu", "-t", pane, name);
    }
  }
  if (args.length > 0) await runTmux(server, args);
  return args.filter((a) => a === "set-option").length;
}

/** Loads a tmux config file into the running server (`source-file`); throws its errors. */
export async function sourceConfigFile(server: TmuxServer, path: string): Promise<void> {
  await runTmux(server, ["source-file", path]);
}

/**
 * Who dispatches notifications (U24, U25). A running daemon dispatches on
 * every detection path, and then nothing else does. Without one, nothing
 * dispatches unless opted in:
 *
 * - `[notify] from_event` (or `TMA_NOTIFY_FROM_EVENT=1`): `tma event` fires
 *   after its own stamp commits (G11, U24);
 * - `[notify] from_poll` (or `TMA_NOTIFY_FROM_POLL=1`): every polling
 *   producer (`status`, `ls`, `wait`, `subscribe`, ...) fires for the panes
 *   its cycle stamped.
 *
 * Both may be on at once: the marker makes the racers ring once (U23).
 *
 * The daemon is found the way U3 lays it out: its socket is
 * `<runtime dir>/tma/<key>.sock`, the key a hash of the server's
 * `#{socket_path}`; a socket that accepts a connection is a live daemon.
 * @module
 */
import type { EnvReader } from "../paths.ts";

/**
 * Whether an opt-in is on: its env override wins when set (exactly `1` turns
 * it on, any other value off), else the config key (G11).
 *
 * ```ts
 * optedIn({ config: false, envValue: "1" }); // true
 * optedIn({ config: true, envValue: "0" }); // false
 * ```
 */
export function optedIn(source: { config: boolean; envValue: string | undefined }): boolean {
  if (source.envValue !== undefined) return source.envValue === "1";
  return source.config;
}

/** `[notify] from_event` with `TMA_NOTIFY_FROM_EVENT` over it (G11). */
export function fromEventOn(config: boolean, env: EnvReader): boolean {
  return optedIn({ config, envValue: env("TMA_NOTIFY_FROM_EVENT") });
}

/** `[notify] from_poll` with `TMA_NOTIFY_FROM_POLL` over it. */
export function fromPollOn(config: boolean, env: EnvReader): boolean {
  return optedIn({ config, envValue: env("TMA_NOTIFY_FROM_POLL") });
}

/** The runtime directory of the daemon's socket and lock (U3). */
export function runtimeDir(env: EnvReader): string {
  const base = env("XDG_RUNTIME_DIR") || env("TMPDIR") || "/tmp";
  return `${base.replace(/\/+$/, "")}/tma`;
}

/**
 * The daemon socket of a tmux server (U3): `<runtime dir>/tma/<key>.sock`,
 * the key the first 16 hex digits of the SHA-256 of `#{socket_path}`.
 *
 * ```ts
 * await daemonSocketPath("/tmp/tmux-1000/default", (name) => name === "XDG_RUNTIME_DIR" ? "/run/user/1000" : undefined);
 * // "/run/user/1000/tma/<16 hex digits>.sock"
 * ```
 */
export async function daemonSocketPath(socketPath: string, env: EnvReader): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(socketPath));
  const key = [...new Uint8Array(digest)].slice(0, 8).map((b) => b.toString(16).padStart(2, "0"))
    .join("");
  return `${runtimeDir(env)}/${key}.sock`;
}

/**
 * Whether a live daemon serves the server at `socketPath`: its socket
 * accepts a connection. No socket, a stale one, or no permission to reach
 * it all read as no daemon.
 */
export async function daemonServes(socketPath: string, env: EnvReader): Promise<boolean> {
  if (socketPath === "") return false;
  const path = await daemonSocketPath(socketPath, env);
  try {
    Deno.statSync(path);
  } catch {
    return false;
  }
  try {
    const conn = await Deno.connect({ transport: "unix", path });
    conn.close();
    return true;
  } catch {
    return false;
  }
}

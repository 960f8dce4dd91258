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
 * The daemon is found the way U3 lays it out (`src/runtime/daemon_link.ts`):
 * an endpoint that accepts a connection is a live daemon, which then
 * dispatches itself (`byDaemon`).
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

/**
 * Whether a live daemon serves the server at `socketPath`: its endpoint
 * answers (`src/runtime/daemon_link.ts`, U3). No endpoint, a stale one, or
 * no permission to reach it all read as no daemon.
 */
export async function daemonServes(socketPath: string, env: EnvReader): Promise<boolean> {
  if (socketPath === "") return false;
  const { daemonPaths, liveDaemon } = await import("../daemon_link.ts");
  return (await liveDaemon(daemonPaths(env, socketPath))) !== null;
}

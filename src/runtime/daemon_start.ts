/**
 * What the CLI needs to find or start a server's daemon without loading the
 * daemon itself (R13): the server's identity, the daemon's files (created
 * with the modes of R2), and the flags every child tma gets so it lands on
 * the same server with the same config (C9).
 * @module
 */
import type { TmuxServer } from "../tmux/exec.ts";
import { serverIdentity } from "../tmux/control.ts";
import { type DaemonPaths, daemonPaths } from "./daemon_link.ts";
import type { EnvReader } from "./paths.ts";

/** The global flags a child tma is started with (C9). */
export interface ChildGlobals {
  socketPath: string;
  config?: string;
  noConfig?: boolean;
  manifestDir?: string;
}

/** The argv of those flags, server first. */
export function childFlags(globals: ChildGlobals): string[] {
  const flags = ["--socket-path", globals.socketPath];
  if (globals.noConfig) flags.push("--no-config");
  else if (globals.config) flags.push("--config", globals.config);
  if (globals.manifestDir) flags.push("--manifest-dir", globals.manifestDir);
  return flags;
}

/** A running server's daemon files, or null when the server is not running. */
export async function daemonOf(
  server: TmuxServer,
  env: EnvReader,
): Promise<{ paths: DaemonPaths; socketPath: string; serverPid: number } | null> {
  const identity = await serverIdentity(server);
  if (identity === null) return null;
  return {
    paths: daemonPaths(env, identity.socketPath),
    socketPath: identity.socketPath,
    serverPid: identity.pid,
  };
}

/** Creates the runtime folder and the spool 0700 (R2); an existing folder is tightened. */
export async function prepareDaemonDirs(paths: DaemonPaths): Promise<void> {
  for (const dir of [paths.dir, paths.spool]) {
    await Deno.mkdir(dir, { recursive: true, mode: 0o700 });
    await Deno.chmod(dir, 0o700).catch(() => undefined);
  }
}

/**
 * Joins a surface's or waiter's Waker to the daemon's wake hints (U11): a
 * push from a running daemon wakes it at once; with none, nothing changes
 * (the tick keeps running, R13). Returns the function that leaves.
 * @module
 */
import type { Waker } from "../runtime/wake.ts";
import type { CommandContext } from "./context.ts";

/** Subscribes `waker` to this server's daemon, retrying while none runs. */
export async function joinDaemonHints(ctx: CommandContext, waker: Waker): Promise<() => void> {
  const [{ daemonHintSource }, { serverIdentity }, server] = await Promise.all([
    import("../runtime/daemon_link.ts"),
    import("../tmux/control.ts"),
    ctx.server(),
  ]);
  const socketPath = serverIdentity(server).then((s) => s?.socketPath ?? null, () => null);
  return waker.onHints(daemonHintSource(socketPath, (name) => ctx.env(name)));
}

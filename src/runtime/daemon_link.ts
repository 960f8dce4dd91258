/**
 * The client side of the daemon (U3, U10-U12, C72): where a server's daemon
 * keeps its lock, socket and spool, whether one is live, and the frames a
 * Deno process sends it. Everything here works, and answers "no daemon",
 * when none runs: the daemon only ever adds (R13). The daemon itself lives in
 * `src/daemon/`, which only its command imports.
 * @module
 */
import {
  encodeFrame,
  eventBody,
  type FrameMagic,
  NAK,
  PUSH,
  type RawEvent,
  serverKey,
  SUB_ACK,
} from "../core/daemon_wire.ts";
import type { TmuxServer } from "../tmux/exec.ts";
import { type EnvReader, runtimeDir } from "./paths.ts";

/**
 * Why the daemon's endpoint is loopback TCP and not a unix socket: Deno 2.9
 * grants a unix socket only by its exact path (`--allow-net=unix:<path>`),
 * and tma runs under one fixed permission list (RUN_PERMISSIONS) that cannot
 * name a path that depends on `$XDG_RUNTIME_DIR` and the server key. So
 * `<key>.sock` is a 0600 file in the 0700 folder holding the daemon's
 * loopback port and a random token every frame must carry: only who can
 * read that file can talk to the daemon, the reach a 0600 socket has (R2).
 */
export interface Endpoint {
  port: number;
  token: string;
}

/** The files of one server's daemon. */
export interface DaemonPaths {
  /** `<runtime dir>/tma`, created 0700. */
  dir: string;
  /** The server key (cksum of its socket path). */
  key: string;
  /** The endpoint file (port and token), 0600. */
  sock: string;
  lock: string;
  /** The folder the `tma-hook` wrapper hands events into (X7). */
  spool: string;
  /**
   * `<escaped socket path>.key`, holding the key: the wrapper finds the key
   * with shell built-ins alone through it, where computing the cksum would
   * cost it two more processes per fire.
   */
  alias: string;
}

/**
 * The socket path as one file name: `%` as `%25`, `/` as `%2F` (what the
 * wrapper's built-in loop writes).
 *
 * ```ts
 * aliasName("/tmp/tmux-0/default"); // "%2Ftmp%2Ftmux-0%2Fdefault"
 * ```
 */
export function aliasName(socketPath: string): string {
  return socketPath.replace(/%/g, "%25").replace(/\//g, "%2F");
}

export { runtimeDir, runtimeOwner } from "./paths.ts";

/** The daemon files of the server whose `#{socket_path}` is `socketPath`. */
export function daemonPaths(env: EnvReader, socketPath: string): DaemonPaths {
  const dir = `${runtimeDir(env).replace(/\/+$/, "")}/tma`;
  const key = serverKey(socketPath);
  return {
    dir,
    key,
    sock: `${dir}/${key}.sock`,
    lock: `${dir}/${key}.lock`,
    spool: `${dir}/${key}.spool`,
    alias: `${dir}/${aliasName(socketPath)}.key`,
  };
}

/**
 * The socket path of a server without asking it: `-S` as given; a `-L` name
 * (or the default) under tmux's own folder (`$TMUX_TMPDIR` or `/tmp`,
 * resolved, then `tmux-<uid>`); inside tmux with no flag, `$TMUX`'s first
 * field. The daemon keys itself by `#{socket_path}`, which tmux builds the
 * same way. `uid` is the owner of the runtime folder (reading our own uid
 * would need a permission tma does not ask for), and null means no folder,
 * so no daemon: the answer is then null too.
 */
export function socketPathOf(
  server: TmuxServer,
  env: EnvReader,
  uid: number | null,
): string | null {
  if (server.socketPath) return server.socketPath;
  if (!server.socketName) {
    const inside = env("TMUX")?.split(",")[0];
    if (inside) return inside;
  }
  if (uid === null) return null;
  let base = env("TMUX_TMPDIR") || "/tmp";
  try {
    base = Deno.realPathSync(base);
  } catch {
    // tmux would fail to start there too; the key is then just unused.
  }
  return `${base.replace(/\/+$/, "")}/tmux-${uid}/${server.socketName ?? "default"}`;
}

/** What a daemon's lock file records (U3). */
export interface LockRecord {
  pid: number;
  version: string;
}

/** Reads a lock file (`<pid> <version>`), or null when absent or unreadable. */
export async function readLock(path: string): Promise<LockRecord | null> {
  let text: string;
  try {
    text = await Deno.readTextFile(path);
  } catch {
    return null;
  }
  const [pid, version] = text.trim().split(/\s+/);
  const n = Number(pid);
  return Number.isSafeInteger(n) && n > 0 ? { pid: n, version: version ?? "" } : null;
}

/** Reads the endpoint file, or null when there is none. */
export async function readEndpoint(path: string): Promise<Endpoint | null> {
  let text: string;
  try {
    text = await Deno.readTextFile(path);
  } catch {
    return null;
  }
  const [host, port, token] = text.trim().split(/\s+/);
  const n = Number(port);
  if (host !== "127.0.0.1" || !Number.isInteger(n) || n <= 0 || n > 65535 || !token) return null;
  return { port: n, token };
}

/** Connects to a daemon's endpoint, or null when nothing listens there. */
async function connect(
  sock: string,
  timeoutMs: number,
): Promise<{ conn: Deno.Conn; token: string } | null> {
  const endpoint = await readEndpoint(sock);
  if (endpoint === null) return null;
  try {
    const conn = Deno.connect({ hostname: "127.0.0.1", port: endpoint.port });
    const timedOut = new Promise<null>((resolve) => {
      AbortSignal.timeout(timeoutMs).addEventListener("abort", () => resolve(null));
    });
    const got = await Promise.race([conn, timedOut]);
    if (got === null) {
      conn.then((c) => c.close()).catch(() => undefined);
      return null;
    }
    return { conn: got, token: endpoint.token };
  } catch {
    return null;
  }
}

/** The live daemon of a server (its socket answers), or null. */
export async function liveDaemon(paths: DaemonPaths): Promise<LockRecord | null> {
  const lock = await readLock(paths.lock);
  if (lock === null) return null;
  const got = await connect(paths.sock, 300);
  if (got === null) return null;
  got.conn.close();
  return lock;
}

/** Reads at most `want` bytes (or until the peer closes), within `timeoutMs`. */
async function readSome(
  conn: Deno.Conn,
  want: number,
  timeoutMs: number,
): Promise<Uint8Array | null> {
  const chunks: Uint8Array[] = [];
  let total = 0;
  const deadline = AbortSignal.timeout(timeoutMs);
  const expired = new Promise<null>((resolve) => {
    deadline.addEventListener("abort", () => resolve(null), { once: true });
  });
  while (total < want) {
    const buffer = new Uint8Array(Math.min(64 * 1024, want - total));
    const n = await Promise.race([conn.read(buffer).catch(() => null), expired]);
    if (n === null) break;
    chunks.push(buffer.subarray(0, n));
    total += n;
  }
  if (total === 0) return null;
  const out = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.length;
  }
  return out;
}

/** Sends one frame and reads the reply (up to `replyBytes`), or null on any failure. */
async function request(
  paths: DaemonPaths,
  magic: FrameMagic,
  body: string,
  options: { replyBytes: number; timeoutMs: number },
): Promise<Uint8Array | null> {
  const got = await connect(paths.sock, options.timeoutMs);
  if (got === null) return null;
  const conn = got.conn;
  try {
    await conn.write(encodeFrame(magic, withToken(body, got.token)));
    return await readSome(conn, options.replyBytes, options.timeoutMs);
  } catch {
    return null;
  } finally {
    try {
      conn.close();
    } catch {
      // Already closed by the peer.
    }
  }
}

/**
 * Hands one event to the daemon (U10): true only on a positive ACK within
 * 500 ms; a NAK, silence or no daemon is false and the caller stamps
 * directly (D48).
 */
export async function handOffEvent(paths: DaemonPaths, event: RawEvent): Promise<boolean> {
  const reply = await request(paths, "TMA1", eventBody(event), {
    replyBytes: 1,
    timeoutMs: 500,
  });
  return reply !== null && reply.length === 1 && reply[0] !== NAK && reply[0] === 0x06;
}

/** The daemon's transition ring as JSON text (U12, P74), or null without a daemon. */
export async function readTransitions(paths: DaemonPaths): Promise<string | null> {
  const reply = await request(paths, "TMAH", "{}", {
    replyBytes: 4 * 1024 * 1024,
    timeoutMs: 2000,
  });
  return reply === null ? null : new TextDecoder().decode(reply);
}

/**
 * Subscribes to wake hints (U11): calls `onPush` at every `PUSH` byte until
 * the returned stop function runs or the daemon goes away. Resolves null
 * when no daemon accepts the subscription.
 */
export async function subscribeHints(
  paths: DaemonPaths,
  onPush: () => void,
  onEnd: () => void = () => {},
): Promise<(() => void) | null> {
  const got = await connect(paths.sock, 1000);
  if (got === null) return null;
  const conn = got.conn;
  let open = true;
  const stop = () => {
    if (!open) return;
    open = false;
    try {
      conn.close();
    } catch {
      // The daemon closed it first.
    }
  };
  try {
    await conn.write(encodeFrame("TMAS", withToken("{}", got.token)));
    const first = await readSome(conn, 1, 1000);
    if (first === null || first[0] !== SUB_ACK) {
      stop();
      return null;
    }
  } catch {
    stop();
    return null;
  }
  (async () => {
    const buffer = new Uint8Array(256);
    while (open) {
      const n = await conn.read(buffer).catch(() => null);
      if (n === null) break;
      if (buffer.subarray(0, n).includes(PUSH)) onPush();
    }
    const wasOpen = open;
    stop();
    if (wasOpen) onEnd();
  })();
  return stop;
}

/** Adds the endpoint's token to a JSON object body. */
function withToken(body: string, token: string): string {
  return JSON.stringify({ ...JSON.parse(body), token });
}

/**
 * The daemon's hints for `Waker.onHints`, for a server whose socket path is
 * asked once (null: no server, no hints ever).
 */
export function daemonHintSource(
  socketPath: Promise<string | null>,
  env: EnvReader,
): (onPush: () => void, onEnd: () => void) => Promise<(() => void) | null> {
  return async (onPush, onEnd) => {
    const path = await socketPath;
    return path === null ? null : await subscribeHints(daemonPaths(env, path), onPush, onEnd);
  };
}

/**
 * The daemon's socket (U10-U12): frames in, one reply byte (or the ring)
 * out, and wake-hint subscribers kept open. Every bad input (garbage, a frame
 * over 1 MiB, one that does not arrive whole within 2 s, a wrong token) is
 * refused with a NAK and the connection closed; nothing else is touched.
 *
 * It listens on loopback TCP, its port and token in the 0600 endpoint file
 * (why not a unix socket: `src/runtime/daemon_link.ts`).
 * @module
 */
import { ACK, type FrameMagic, NAK, PUSH, readFrame, SUB_ACK } from "../core/daemon_wire.ts";

/** How long a whole frame may take to arrive (U10). */
export const FRAME_DEADLINE_MS = 2000;

/** What the socket asks of the daemon. */
export interface SocketHandlers {
  /** A `TMA1` body: true to ACK (taken), false to NAK. */
  event(body: string): Promise<boolean>;
  /** The `TMAH` reply (the P74 document). */
  transitions(): string;
  /** A refused connection, for the log. */
  refused(reason: string): void;
}

/** A wake-hint subscriber. */
interface Subscriber {
  conn: Deno.Conn;
  writing: boolean;
}

/** The listening socket and its subscribers. */
export class DaemonSocket {
  #listener: Deno.TcpListener;
  #subscribers = new Set<Subscriber>();
  #handlers: SocketHandlers;
  #token: string;
  #path: string;

  /** Listens, then publishes the endpoint file atomically (written 0600, renamed into place). */
  constructor(path: string, handlers: SocketHandlers) {
    this.#handlers = handlers;
    this.#path = path;
    this.#token = [...crypto.getRandomValues(new Uint8Array(16))]
      .map((b) => b.toString(16).padStart(2, "0")).join("");
    this.#listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
    const port = (this.#listener.addr as Deno.NetAddr).port;
    const temp = `${path}.${Deno.pid}.tmp`;
    Deno.writeTextFileSync(temp, `127.0.0.1 ${port} ${this.#token}\n`, { mode: 0o600 });
    Deno.chmodSync(temp, 0o600);
    Deno.renameSync(temp, path);
    this.#accept();
  }

  #authentic(body: string): boolean {
    try {
      const value = JSON.parse(body);
      return typeof value === "object" && value !== null && value.token === this.#token;
    } catch {
      return false;
    }
  }

  async #accept(): Promise<void> {
    try {
      for await (const conn of this.#listener) this.#serve(conn).catch(() => close(conn));
    } catch {
      // The listener was closed.
    }
  }

  async #serve(conn: Deno.Conn): Promise<void> {
    let frame = await readWholeFrame(conn);
    if (frame.kind === "frame" && !this.#authentic(frame.body)) {
      frame = { kind: "bad", reason: "a frame without the endpoint's token" };
    }
    if (frame.kind === "bad") {
      if (frame.reason !== "") this.#handlers.refused(frame.reason);
      await conn.write(Uint8Array.of(NAK)).catch(() => undefined);
      close(conn);
      return;
    }
    switch (frame.magic) {
      case "TMA1": {
        const taken = await this.#handlers.event(frame.body).catch(() => false);
        await conn.write(Uint8Array.of(taken ? ACK : NAK)).catch(() => undefined);
        close(conn);
        return;
      }
      case "TMAH": {
        const bytes = new TextEncoder().encode(this.#handlers.transitions());
        await writeAll(conn, bytes).catch(() => undefined);
        close(conn);
        return;
      }
      case "TMAS": {
        await conn.write(Uint8Array.of(SUB_ACK));
        const subscriber = { conn, writing: false };
        this.#subscribers.add(subscriber);
        // The subscriber never speaks again: its end (or anything it sends) drops it.
        const buffer = new Uint8Array(16);
        await conn.read(buffer).catch(() => null);
        this.#subscribers.delete(subscriber);
        close(conn);
        return;
      }
    }
  }

  /** How many subscribers are listening. */
  get subscribers(): number {
    return this.#subscribers.size;
  }

  /**
   * One PUSH byte to every subscriber. A write never waits: a subscriber
   * whose last push is still unread is slow and is dropped (U11).
   */
  push(): void {
    for (const subscriber of this.#subscribers) {
      if (subscriber.writing) {
        this.#subscribers.delete(subscriber);
        close(subscriber.conn);
        continue;
      }
      subscriber.writing = true;
      subscriber.conn.write(Uint8Array.of(PUSH)).then(
        () => subscriber.writing = false,
        () => {
          this.#subscribers.delete(subscriber);
          close(subscriber.conn);
        },
      );
    }
  }

  /** Stops listening, removes the endpoint file and drops every subscriber. */
  close(): void {
    try {
      Deno.removeSync(this.#path);
    } catch {
      // Already gone.
    }
    try {
      this.#listener.close();
    } catch {
      // Closed.
    }
    for (const subscriber of this.#subscribers) close(subscriber.conn);
    this.#subscribers.clear();
  }
}

type WholeFrame = { kind: "frame"; magic: FrameMagic; body: string } | {
  kind: "bad";
  reason: string;
};

/** Reads one frame within the deadline. */
async function readWholeFrame(conn: Deno.Conn): Promise<WholeFrame> {
  const deadline = AbortSignal.timeout(FRAME_DEADLINE_MS);
  const expired = new Promise<"expired">((resolve) => {
    deadline.addEventListener("abort", () => resolve("expired"), { once: true });
  });
  let bytes = new Uint8Array(0);
  const buffer = new Uint8Array(64 * 1024);
  for (;;) {
    const read = readFrame(bytes);
    if (read.kind !== "more") return read;
    const n = await Promise.race([conn.read(buffer).catch(() => null), expired]);
    if (n === "expired") return { kind: "bad", reason: "a frame did not arrive whole within 2 s" };
    if (n === null) {
      // Nothing at all: a liveness probe (`liveDaemon`), not an error.
      if (bytes.length === 0) return { kind: "bad", reason: "" };
      return { kind: "bad", reason: "the connection closed mid-frame" };
    }
    const next = new Uint8Array(bytes.length + n);
    next.set(bytes);
    next.set(buffer.subarray(0, n), bytes.length);
    bytes = next;
  }
}

async function writeAll(conn: Deno.Conn, bytes: Uint8Array): Promise<void> {
  let offset = 0;
  while (offset < bytes.length) offset += await conn.write(bytes.subarray(offset));
}

function close(conn: Deno.Conn): void {
  try {
    conn.close();
  } catch {
    // Closed.
  }
}

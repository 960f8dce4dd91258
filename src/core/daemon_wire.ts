/**
 * The daemon's wire facts, pure: the server key (U3) and the frames of its
 * socket (U10-U12).
 *
 * The key is the POSIX `cksum` CRC of the server's `#{socket_path}`, so the
 * `tma-hook` wrapper computes the same name with a standard tool
 * (`printf %s "$path" | cksum`) and no Deno.
 *
 * A frame is a 4-byte magic (`TMA1` an event, `TMAS` a wake-hint
 * subscription, `TMAH` a transition-ring read), a 4-byte big-endian body
 * length, and the body (UTF-8 JSON), at most 1 MiB.
 * @module
 */

/** The magics of the three frames. */
export const FRAME_MAGICS = ["TMA1", "TMAS", "TMAH"] as const;
/** One frame's kind. */
export type FrameMagic = typeof FRAME_MAGICS[number];

/** The body cap of every frame (U10). */
export const FRAME_CAP = 1024 * 1024;
/** The reply bytes. */
export const ACK = 0x06;
/** The event was refused: the client stamps directly (D48). */
export const NAK = 0x15;
/** A subscription was accepted (U11). */
export const SUB_ACK = 0x07;
/** A wake hint (U11). */
export const PUSH = 0x2e;

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let i = 0; i < 256; i++) {
    let c = i << 24;
    for (let k = 0; k < 8; k++) c = c & 0x80000000 ? (c << 1) ^ 0x04c11db7 : c << 1;
    table[i] = c >>> 0;
  }
  return table;
})();

/**
 * The POSIX `cksum` CRC of `bytes` (the length is folded in, as cksum does).
 *
 * ```ts
 * cksum(new TextEncoder().encode("/tmp/tmux-0/default")); // 275946160
 * ```
 */
export function cksum(bytes: Uint8Array): number {
  let crc = 0;
  const step = (byte: number) => {
    crc = ((crc << 8) ^ CRC_TABLE[((crc >>> 24) ^ byte) & 0xff]) >>> 0;
  };
  for (const byte of bytes) step(byte);
  for (let n = bytes.length; n > 0; n = Math.floor(n / 256)) step(n & 0xff);
  return (~crc) >>> 0;
}

/** The key of a tmux server: the cksum of its socket path, in decimal (U3). */
export function serverKey(socketPath: string): string {
  return String(cksum(new TextEncoder().encode(socketPath)));
}

/**
 * One frame's bytes.
 *
 * ```ts
 * encodeFrame("TMAH", "{}").length; // 10
 * ```
 */
export function encodeFrame(magic: FrameMagic, body: string): Uint8Array {
  const data = new TextEncoder().encode(body);
  const out = new Uint8Array(8 + data.length);
  out.set(new TextEncoder().encode(magic), 0);
  new DataView(out.buffer).setUint32(4, data.length);
  out.set(data, 8);
  return out;
}

/** What the head of a buffer holds. */
export type FrameRead =
  | { kind: "more" }
  | { kind: "frame"; magic: FrameMagic; body: string }
  | { kind: "bad"; reason: string };

/**
 * Reads one frame from the bytes received so far: `more` until it is whole,
 * `bad` (garbage, over the cap, not UTF-8) as soon as that is certain.
 *
 * ```ts
 * readFrame(encodeFrame("TMAS", "{}")); // { kind: "frame", magic: "TMAS", body: "{}" }
 * readFrame(new TextEncoder().encode("GET / HTTP/1.1")).kind; // "bad"
 * ```
 */
export function readFrame(bytes: Uint8Array): FrameRead {
  const head = new TextDecoder().decode(bytes.subarray(0, Math.min(4, bytes.length)));
  if (!FRAME_MAGICS.some((m) => m.startsWith(head))) {
    return { kind: "bad", reason: "not a tma frame (bad magic)" };
  }
  if (bytes.length < 8) return { kind: "more" };
  const length = new DataView(bytes.buffer, bytes.byteOffset, bytes.length).getUint32(4);
  if (length > FRAME_CAP) return { kind: "bad", reason: `frame of ${length} bytes is over 1 MiB` };
  if (bytes.length < 8 + length) return { kind: "more" };
  try {
    const body = new TextDecoder("utf-8", { fatal: true }).decode(bytes.subarray(8, 8 + length));
    return { kind: "frame", magic: head as FrameMagic, body };
  } catch {
    return { kind: "bad", reason: "frame body is not UTF-8" };
  }
}

/** One hook event as the daemon takes it (a `TMA1` body or a spool entry). */
export interface RawEvent {
  agent: string;
  kind: string;
  pane: string | null;
  /** The hook's evidence time, epoch ms (D47). */
  firedAt: number;
  payload: string;
  /**
   * The process that fired the hook (the agent, or the shell it ran the hook
   * in), when known: the hand-over check (D46) and Codex's attribution (X4)
   * walk its ancestry, which the process that stamps does not share.
   */
  hookPid?: number;
}

/** A `TMA1` body, or null when it is not one. */
export function parseEventBody(body: string): RawEvent | null {
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    return null;
  }
  if (typeof value !== "object" || value === null) return null;
  const v = value as Record<string, unknown>;
  if (typeof v.agent !== "string" || v.agent === "") return null;
  if (typeof v.kind !== "string" || v.kind === "") return null;
  if (typeof v.payload !== "string") return null;
  if (typeof v.fired_at !== "number" || !Number.isSafeInteger(v.fired_at)) return null;
  const pane = typeof v.pane === "string" && v.pane !== "" ? v.pane : null;
  const event: RawEvent = {
    agent: v.agent,
    kind: v.kind,
    pane,
    firedAt: v.fired_at,
    payload: v.payload,
  };
  if (typeof v.hook_pid === "number" && Number.isSafeInteger(v.hook_pid) && v.hook_pid > 0) {
    event.hookPid = v.hook_pid;
  }
  return event;
}

/** The `TMA1` body of an event. */
export function eventBody(event: RawEvent): string {
  return JSON.stringify({
    agent: event.agent,
    kind: event.kind,
    pane: event.pane ?? "",
    fired_at: event.firedAt,
    payload: event.payload,
    ...(event.hookPid === undefined ? {} : { hook_pid: event.hookPid }),
  });
}

/**
 * A spool entry the `tma-hook` wrapper wrote: four header lines (agent,
 * event, pane, then the fired-at ms and, after a space, the pid of the
 * process that fired the hook) and the raw payload. A fired-at of 0 means
 * "when the entry was written" (the wrapper takes no clock of its own: the
 * file's modification time is that moment); the pid may be absent. Null
 * when the text is not an entry.
 *
 * ```ts
 * parseSpoolEntry("claude\nStop\n%3\n1700000000000 4242\n{}")?.hookPid; // 4242
 * parseSpoolEntry("claude\nStop\n%3\n1700000000000\n{}")?.kind; // "Stop"
 * ```
 */
export function parseSpoolEntry(text: string): RawEvent | null {
  const lines = text.split("\n");
  if (lines.length < 4) return null;
  const [agent, kind, pane, stamp] = lines;
  if (!/^[A-Za-z0-9_.-]+$/.test(agent) || !/^[A-Za-z0-9_.:-]+$/.test(kind)) return null;
  const [, fired, pid] = /^([0-9]+)(?: ([0-9]+))?$/.exec(stamp) ?? [];
  const firedAt = Number(fired);
  const hookPid = Number(pid);
  const event: RawEvent = {
    agent,
    kind,
    pane: pane === "" ? null : pane,
    firedAt: Number.isSafeInteger(firedAt) ? firedAt : 0,
    payload: lines.slice(4).join("\n"),
  };
  if (Number.isSafeInteger(hookPid) && hookPid > 1) event.hookPid = hookPid;
  return event;
}

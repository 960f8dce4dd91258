/**
 * The single-flight action lock: one pane option
 * `@agent_action = <expiry_ms>:<nonce>:<pid>:<name>` (A13-A16, P32).
 *
 * Acquire is one conditional `set-option -pF` through the guarded writer:
 * the guard holds, server side, only when the option is empty, corrupt, or
 * its expiry is past, so a live lock can never be overwritten. Because the
 * write always "succeeds" from tmux's point of view, the winner is whoever
 * reads back its own nonce. An expired lock is reclaimed only when its
 * holder's pid is dead (`kill(pid, 0)`), which guards against a suspended
 * laptop whose clock jumped past a live holder's expiry. Release empties the
 * option only while it still carries our nonce.
 *
 * ```ts
 * const server = { bin: "tmux", socketName: "work" };
 * const lock = await acquireLock(server, { pane: "%3", name: "approve", timeoutMs: 30000, nowMs: Date.now() });
 * if (lock.held) await releaseLock(server, lock);
 * ```
 * @module
 */
import { processAlive } from "../runtime/process_alive.ts";
import type { TmuxServer } from "../tmux/exec.ts";
import { writeChains } from "../tmux/writer.ts";
import { readPaneOption } from "./pane_option.ts";

/** The lock's pane option (P32). */
export const LOCK_OPTION = "@agent_action";

/** Slack added to an action's deadline, so a slow release is not reclaimed early (A13). */
export const LOCK_SLACK_MS = 5000;

/** A parsed lock value. */
export interface LockValue {
  expiryMs: number;
  nonce: string;
  pid: number;
  name: string;
}

/** A lock this process holds. */
export interface HeldLock {
  held: true;
  pane: string;
  value: LockValue;
  raw: string;
}

/** A lock someone else holds, or a pane that is gone. */
export interface LockRefused {
  held: false;
  /** The holder as read, or null when the pane vanished. */
  holder: LockValue | null;
  vanished: boolean;
}

const EXPIRY_DIGITS = 13;

/**
 * Parses a lock value; null for an empty or corrupt one (a corrupt value
 * counts as expired, A14).
 *
 * ```ts
 * parseLock("1700000005000:ab12:4242:approve")?.pid; // 4242
 * ```
 */
export function parseLock(raw: string | null | undefined): LockValue | null {
  if (!raw) return null;
  const m = /^(\d{13}):([^:]+):(\d+):(.*)$/s.exec(raw);
  if (!m) return null;
  return { expiryMs: Number(m[1]), nonce: m[2], pid: Number(m[3]), name: m[4] };
}

/** Formats a lock value. */
export function formatLock(value: LockValue): string {
  return `${value.expiryMs}:${value.nonce}:${value.pid}:${value.name}`;
}

/** A 128-bit random nonce as 32 hex digits (A13). */
export function newNonce(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * The acquire guard, a tmux format that holds when `@agent_action` is empty,
 * does not start with a 13-digit expiry and a colon (corrupt), or carries an
 * expiry before `nowMs`. Expiries compare as strings, which is numeric order
 * for equal-length digit strings; the corrupt test makes the length equal.
 */
export function acquireGuard(nowMs: number): string {
  const opt = `#{${LOCK_OPTION}}`;
  const digits = "[0-9]".repeat(EXPIRY_DIGITS);
  const now = String(Math.floor(nowMs)).padStart(EXPIRY_DIGITS, "0");
  const empty = `#{==:${opt},}`;
  const corrupt = `#{?#{m:${digits}:*,${opt}},0,1}`;
  const expired = `#{<:#{s/[^0-9].*//:${LOCK_OPTION}},${now}}`;
  return `#{||:${empty},#{||:${corrupt},${expired}}}`;
}

/** The release guard: the option still carries this nonce (tmux fnmatch, A16). */
export function releaseGuard(nonce: string): string {
  return `#{m:*:${nonce}:*,#{${LOCK_OPTION}}}`;
}

/** Reads a pane's lock option; null when the pane is gone. */
export function readLockOption(server: TmuxServer, pane: string): Promise<string | null> {
  return readPaneOption(server, { pane, name: LOCK_OPTION });
}

/** Options of `acquireLock`. */
export interface AcquireOptions {
  pane: string;
  /** The action name, stored for whoever finds the lock held. */
  name: string;
  /** The action's deadline (`timeout_ms`, M39); the expiry adds slack. */
  timeoutMs: number;
  nowMs: number;
  /** The pid stored in the lock; defaults to this process. */
  pid?: number;
  /** Liveness probe of a holder; defaults to `kill(pid, 0)`. */
  isAlive?: (pid: number) => boolean;
}

/** Takes the lock of one pane, or reports who holds it (A14, A15). */
export async function acquireLock(
  server: TmuxServer,
  options: AcquireOptions,
): Promise<HeldLock | LockRefused> {
  const isAlive = options.isAlive ?? processAlive;
  const current = await readLockOption(server, options.pane);
  if (current === null) return { held: false, holder: null, vanished: true };
  const holder = parseLock(current);
  if (holder) {
    if (holder.expiryMs >= options.nowMs) return { held: false, holder, vanished: false };
    // Expired: reclaim only from a dead holder (A15).
    if (isAlive(holder.pid)) return { held: false, holder, vanished: false };
  }
  const value: LockValue = {
    expiryMs: Math.floor(options.nowMs + options.timeoutMs + LOCK_SLACK_MS),
    nonce: newNonce(),
    pid: options.pid ?? Deno.pid,
    name: options.name,
  };
  const raw = formatLock(value);
  await writeChains(server, [{
    pane: options.pane,
    guard: acquireGuard(options.nowMs),
    writes: [{ name: LOCK_OPTION, value: raw }],
  }]);
  const after = await readLockOption(server, options.pane);
  if (after === null) return { held: false, holder: null, vanished: true };
  const winner = parseLock(after);
  if (winner?.nonce === value.nonce) return { held: true, pane: options.pane, value, raw };
  return { held: false, holder: winner, vanished: false };
}

/**
 * Releases a held lock: empties `@agent_action` only while it still carries
 * our nonce, so a slow former holder cannot wipe a new holder's lock (A16).
 * Returns whether it was ours to clear.
 */
export async function releaseLock(server: TmuxServer, lock: HeldLock): Promise<boolean> {
  const committed = await writeChains(server, [{
    pane: lock.pane,
    guard: releaseGuard(lock.value.nonce),
    writes: [{ name: LOCK_OPTION, value: null }],
  }]);
  return committed.get(lock.pane) ?? false;
}

/** Options of `adoptLock`. */
export interface AdoptOptions {
  pane: string;
  /** The nonce of the lock handed over. */
  nonce: string;
  /** The adopter's pid, stored in the lock; defaults to this process. */
  pid?: number;
  /** The adopter's own expiry; the lock keeps the later of it and the one it had. */
  expiryMs: number;
}

/**
 * Takes over a lock another process took and handed over (the detached-exec
 * supervisor, A23): rewrites `@agent_action` with this pid only while it
 * still carries `nonce`, so a lock that expired and was reclaimed meanwhile
 * is never overwritten. Returns the lock now held, or null when it is no
 * longer that nonce's (or the pane is gone).
 *
 * ```ts
 * const server = { bin: "tmux", socketName: "work" };
 * const held = await adoptLock(server, { pane: "%3", nonce: "ab12", expiryMs: Date.now() + 60000 });
 * if (held) await releaseLock(server, held);
 * ```
 */
export async function adoptLock(
  server: TmuxServer,
  options: AdoptOptions,
): Promise<HeldLock | null> {
  const current = parseLock(await readLockOption(server, options.pane));
  if (current === null || current.nonce !== options.nonce) return null;
  const value: LockValue = {
    ...current,
    expiryMs: Math.max(current.expiryMs, Math.floor(options.expiryMs)),
    pid: options.pid ?? Deno.pid,
  };
  const raw = formatLock(value);
  const committed = await writeChains(server, [{
    pane: options.pane,
    guard: releaseGuard(options.nonce),
    writes: [{ name: LOCK_OPTION, value: raw }],
  }]);
  if (!(committed.get(options.pane) ?? false)) return null;
  return { held: true, pane: options.pane, value, raw };
}

/**
 * Whether the pane's lock still carries `nonce`: a release that did not
 * commit on a live pane failed (P70 `lock_release_failed`).
 */
export async function lockCarries(
  server: TmuxServer,
  options: { pane: string; nonce: string },
): Promise<boolean> {
  const current = parseLock(await readLockOption(server, options.pane).catch(() => null));
  return current?.nonce === options.nonce;
}

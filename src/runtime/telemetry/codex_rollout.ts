/**
 * Codex's pull-shaped telemetry channel: find a session's rollout file under
 * `CODEX_HOME`, read only its tail, and hand the text to the pure
 * `codex-rollout-jsonl` parser (I29). No shim and no persisted offset: each
 * call reads at most 1 MiB from the end, and an in-memory memo skips a file
 * whose size and mtime have not moved.
 *
 * ```ts
 * import { readCodexTelemetry } from "./codex_rollout.ts";
 * const got = await readCodexTelemetry("019f99c3-7c57-7963-98e9-f496a7978257", {
 *   home: "/home/me",
 *   nowMs: Date.now(),
 * });
 * got?.reading.contextPct; // e.g. 57, stamped with evidence time got.evidenceMs
 * ```
 * @module
 */
import {
  mergeRolloutScans,
  rolloutReading,
  type RolloutScan,
  scanRolloutTail,
} from "../../core/telemetry/codex_rollout.ts";
import type { TelemetryReading } from "../../core/telemetry/reading.ts";

/** Bytes read per step from the end of a rollout file (I29). */
export const TAIL_CHUNK_BYTES = 64 * 1024;

/** The most a scan reads from the end of a rollout file before it gives up (I29). */
export const TAIL_LIMIT_BYTES = 1024 * 1024;

/** How long a located rollout path is trusted before the sessions tree is walked again. */
export const RELOCATE_AFTER_MS = 60_000;

const NEWLINE = 0x0a;

/** Where Codex keeps its files. `codexHome` (the caller's `CODEX_HOME`) wins over `home`. */
export interface CodexLocation {
  /** The value of `CODEX_HOME`, when the user set one. */
  codexHome?: string;
  /** The user's home directory, for the default `<home>/.codex`. */
  home?: string;
}

/** Options of a tail read. */
export interface ReadRolloutOptions {
  /** The current time in epoch ms: a quota window whose reset passed is dropped. */
  nowMs: number;
  /** The memo to consult and fill; defaults to the process-wide `defaultRolloutMemo`. */
  memo?: RolloutMemo;
}

/** Options of `readCodexTelemetry`: where Codex lives, plus the tail-read options. */
export interface CodexTelemetryOptions extends CodexLocation, ReadRolloutOptions {
  /** Re-walk the sessions tree after this many ms (default `RELOCATE_AFTER_MS`). */
  relocateAfterMs?: number;
}

/** What one tail read found. */
export interface CodexRolloutReading {
  /** The rollout file that was read. */
  path: string;
  /** The parsed reading (never a token count, I30); may be empty on a miss. */
  reading: TelemetryReading;
  /** The file's mtime in epoch ms: the evidence time of the reading. */
  evidenceMs: number;
  /** The file's size when read. */
  sizeBytes: number;
  /** Bytes read from the file by this call (0 on a memo hit). */
  bytesRead: number;
  /** Whether the memo answered because size and mtime were unchanged. */
  memoHit: boolean;
}

interface MemoEntry {
  sizeBytes: number;
  mtimeMs: number;
  scan: RolloutScan;
}

interface Located {
  path: string;
  atMs: number;
}

/**
 * The in-memory memo of tail scans, keyed by (path, size, mtime), plus the
 * located path of each session. It holds the scan rather than the reading, so
 * a quota window that resets while the file sits still is still dropped.
 *
 * ```ts
 * const memo = new RolloutMemo();
 * await readRolloutTail("/tmp/rollout.jsonl", { nowMs: Date.now(), memo });
 * ```
 */
export class RolloutMemo {
  readonly #scans = new Map<string, MemoEntry>();
  readonly #located = new Map<string, Located>();
  readonly #maxEntries: number;

  /** `maxEntries` bounds each map; the oldest entry goes first. */
  constructor(opts: { maxEntries?: number } = {}) {
    this.#maxEntries = opts.maxEntries ?? 256;
  }

  /** The scan kept for `path`, when its size and mtime still match. */
  scan(path: string, sizeBytes: number, mtimeMs: number): RolloutScan | undefined {
    const entry = this.#scans.get(path);
    if (entry === undefined || entry.sizeBytes !== sizeBytes || entry.mtimeMs !== mtimeMs) {
      return undefined;
    }
    return entry.scan;
  }

  /** Keeps the scan of `path` at this size and mtime. */
  keepScan(path: string, entry: MemoEntry): void {
    remember(this.#scans, path, entry, this.#maxEntries);
  }

  /** The path located for a session key, if any. */
  located(key: string): Located | undefined {
    return this.#located.get(key);
  }

  /** Keeps the path located for a session key. */
  keepLocated(key: string, located: Located): void {
    remember(this.#located, key, located, this.#maxEntries);
  }

  /** Forgets everything. */
  clear(): void {
    this.#scans.clear();
    this.#located.clear();
  }
}

function remember<V>(map: Map<string, V>, key: string, value: V, max: number): void {
  map.delete(key);
  map.set(key, value);
  while (map.size > max) {
    const oldest = map.keys().next();
    if (oldest.done) break;
    map.delete(oldest.value);
  }
}

/** The memo shared by every caller in this process that passes none. */
export const defaultRolloutMemo: RolloutMemo = new RolloutMemo();

/**
 * The Codex home directory: `codexHome` when given, else `<home>/.codex`.
 *
 * ```ts
 * resolveCodexHome({ home: "/home/me" }); // "/home/me/.codex"
 * ```
 */
export function resolveCodexHome(location: CodexLocation): string {
  if (location.codexHome !== undefined && location.codexHome !== "") {
    return location.codexHome.replace(/\/+$/, "");
  }
  if (location.home !== undefined && location.home !== "") {
    return `${location.home.replace(/\/+$/, "")}/.codex`;
  }
  throw new Error("resolveCodexHome: pass codexHome (CODEX_HOME) or home");
}

/**
 * Session ids are UUIDs; anything else is refused rather than globbed, so an
 * odd `@agent_session` can neither escape the sessions tree nor match a
 * stranger's file by a short substring.
 */
const SESSION_ID = /^[A-Za-z0-9._-]{8,128}$/;

/**
 * Finds a session's rollout file: the newest-mtime match of
 * `<CODEX_HOME>/sessions/YYYY/MM/DD/rollout-*<session>*.jsonl`, or null.
 *
 * ```ts
 * await findRolloutFile("019f99c3-7c57-7963-98e9-f496a7978257", { home: "/home/me" });
 * ```
 */
export async function findRolloutFile(
  session: string,
  location: CodexLocation,
): Promise<string | null> {
  if (!SESSION_ID.test(session)) return null;
  const sessions = `${resolveCodexHome(location)}/sessions`;
  let best: { path: string; mtimeMs: number } | null = null;
  for (const year of await listDirs(sessions, /^\d{4}$/)) {
    for (const month of await listDirs(`${sessions}/${year}`, /^\d{2}$/)) {
      for (const day of await listDirs(`${sessions}/${year}/${month}`, /^\d{2}$/)) {
        const dir = `${sessions}/${year}/${month}/${day}`;
        for (const name of await listFiles(dir)) {
          if (!name.startsWith("rollout-") || !name.endsWith(".jsonl")) continue;
          if (!name.includes(session)) continue;
          const mtimeMs = await mtimeOf(`${dir}/${name}`);
          if (mtimeMs === null) continue;
          if (best === null || mtimeMs > best.mtimeMs) best = { path: `${dir}/${name}`, mtimeMs };
        }
      }
    }
  }
  return best?.path ?? null;
}

async function listDirs(dir: string, pattern: RegExp): Promise<string[]> {
  const names: string[] = [];
  try {
    for await (const entry of Deno.readDir(dir)) {
      if (entry.isDirectory && pattern.test(entry.name)) names.push(entry.name);
    }
  } catch (err) {
    if (err instanceof Deno.errors.NotFound || err instanceof Deno.errors.NotADirectory) return [];
    throw err;
  }
  return names;
}

async function listFiles(dir: string): Promise<string[]> {
  const names: string[] = [];
  try {
    for await (const entry of Deno.readDir(dir)) {
      if (entry.isFile) names.push(entry.name);
    }
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) return [];
    throw err;
  }
  return names;
}

async function mtimeOf(path: string): Promise<number | null> {
  return (await statOrNull(path))?.mtimeMs ?? null;
}

/**
 * Reads the telemetry of one rollout file from its tail: the last 64 KiB
 * first, then further back in 64 KiB steps, up to 1 MiB, until the newest
 * `token_count` record is found. Partial lines at either edge are dropped.
 * Returns null when the file is gone or has no mtime; a file with no
 * `token_count` in its last 1 MiB yields a reading without a gauge.
 *
 * ```ts
 * const got = await readRolloutTail("/home/me/.codex/sessions/2026/07/25/rollout-x.jsonl", {
 *   nowMs: Date.now(),
 * });
 * ```
 */
export async function readRolloutTail(
  path: string,
  opts: ReadRolloutOptions,
): Promise<CodexRolloutReading | null> {
  const memo = opts.memo ?? defaultRolloutMemo;
  // A stat alone answers the common case: the file has not moved since the last cycle.
  const before = await statOrNull(path);
  if (before === null) return null;
  if (before.mtimeMs !== null) {
    const kept = memo.scan(path, before.sizeBytes, before.mtimeMs);
    if (kept !== undefined) {
      const reading = rolloutReading(kept, { nowMs: opts.nowMs });
      const { sizeBytes, mtimeMs: evidenceMs } = before;
      return { path, reading, evidenceMs, sizeBytes, bytesRead: 0, memoHit: true };
    }
  }

  let file: Deno.FsFile;
  try {
    file = await Deno.open(path, { read: true });
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) return null;
    throw err;
  }
  try {
    // Size and mtime again from the open file: the one that is actually read.
    const info = await file.stat();
    const mtimeMs = info.mtime?.getTime();
    if (mtimeMs === undefined) return null;
    const sizeBytes = info.size;
    const { scan, bytesRead } = await scanTail(file, sizeBytes);
    memo.keepScan(path, { sizeBytes, mtimeMs, scan });
    const reading = rolloutReading(scan, { nowMs: opts.nowMs });
    return { path, reading, evidenceMs: mtimeMs, sizeBytes, bytesRead, memoHit: false };
  } finally {
    file.close();
  }
}

async function statOrNull(
  path: string,
): Promise<{ sizeBytes: number; mtimeMs: number | null } | null> {
  try {
    const info = await Deno.stat(path);
    return { sizeBytes: info.size, mtimeMs: info.mtime?.getTime() ?? null };
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) return null;
    throw err;
  }
}

/**
 * Walks back from the end of the file. `carry` holds the start of the region
 * already read up to its first newline: the end of a line that began further
 * back, completed by the next chunk.
 */
async function scanTail(
  file: Deno.FsFile,
  sizeBytes: number,
): Promise<{ scan: RolloutScan; bytesRead: number }> {
  const decoder = new TextDecoder();
  let scan: RolloutScan = {};
  let carry: Uint8Array = new Uint8Array(0);
  let end = sizeBytes;
  let bytesRead = 0;
  while (end > 0 && bytesRead < TAIL_LIMIT_BYTES) {
    const start = Math.max(0, end - TAIL_CHUNK_BYTES);
    const chunk = await readAt(file, start, end - start);
    bytesRead += chunk.length;
    const joined = concat(chunk, carry);
    let from = 0;
    if (start > 0) {
      const newline = joined.indexOf(NEWLINE);
      if (newline === -1) {
        carry = joined;
        end = start;
        continue;
      }
      carry = joined.slice(0, newline);
      from = newline + 1;
    }
    scan = mergeRolloutScans(scan, scanRolloutTail(decoder.decode(joined.subarray(from))));
    if (scan.gauge !== undefined) break;
    end = start;
  }
  return { scan, bytesRead };
}

async function readAt(file: Deno.FsFile, offset: number, length: number): Promise<Uint8Array> {
  const buf = new Uint8Array(length);
  await file.seek(offset, Deno.SeekMode.Start);
  let filled = 0;
  while (filled < length) {
    const n = await file.read(buf.subarray(filled));
    // The file shrank under us: keep what was there.
    if (n === null) break;
    filled += n;
  }
  return filled === length ? buf : buf.subarray(0, filled);
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  if (b.length === 0) return a;
  const out = new Uint8Array(a.length + b.length);
  out.set(a, 0);
  out.set(b, a.length);
  return out;
}

/**
 * The Codex channel end to end: locate the session's rollout file (the
 * located path is reused for `relocateAfterMs`, and re-walked at once if it
 * vanished), then read its tail (I29). Null when no file matches: a miss
 * stamps nothing.
 *
 * ```ts
 * const got = await readCodexTelemetry("019f99c3-7c57-7963-98e9-f496a7978257", {
 *   codexHome: Deno.env.get("CODEX_HOME"),
 *   home: Deno.env.get("HOME"),
 *   nowMs: Date.now(),
 * });
 * ```
 */
export async function readCodexTelemetry(
  session: string,
  opts: CodexTelemetryOptions,
): Promise<CodexRolloutReading | null> {
  const memo = opts.memo ?? defaultRolloutMemo;
  const relocateAfterMs = opts.relocateAfterMs ?? RELOCATE_AFTER_MS;
  const key = `${resolveCodexHome(opts)}\n${session}`;
  const known = memo.located(key);
  const fresh = known !== undefined && opts.nowMs >= known.atMs &&
    opts.nowMs - known.atMs < relocateAfterMs;
  if (fresh) {
    const got = await readRolloutTail(known.path, { nowMs: opts.nowMs, memo });
    if (got !== null) return got;
  }
  const path = await findRolloutFile(session, opts);
  if (path === null) return null;
  memo.keepLocated(key, { path, atMs: opts.nowMs });
  return await readRolloutTail(path, { nowMs: opts.nowMs, memo });
}

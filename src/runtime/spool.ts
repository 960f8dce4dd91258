/**
 * The spool: the per-server folder the `tma-hook` wrapper queues raw events
 * into, one file per event (X7, X10). The wrapper creates each entry
 * exclusively as `<writer pid>[-n].ev` and appends to it, with shell
 * built-ins and one `cat`: an entry whose writer still runs may be half
 * written, so it is left for a moment, and one whose writer is gone is
 * whole (or as whole as it will ever be). Whoever drains the spool (the
 * daemon, the server's drainer `tma event --drain`, or after a daemon's
 * death the next direct `tma event`) claims each entry by renaming it
 * first, so an entry is taken once even when two drain at the same moment
 * (R13).
 * @module
 */
import { processAlive } from "./process_alive.ts";
import { parseSpoolEntry, type RawEvent } from "../core/daemon_wire.ts";

/** One claimed entry: its event, or why it was refused. */
export type SpoolItem =
  | { name: string; event: RawEvent; claimed: string }
  | { name: string; event: null; problem: string };

/** What one claim pass took, and how many entries were left because their writer still writes. */
export interface SpoolClaim {
  /** Claimed entries, oldest event first. */
  items: SpoolItem[];
  /** Entries still being written: claim again in a moment. */
  busy: number;
  /** Entries this drainer could not take (another took them, or the folder refuses a rename). */
  untaken: string[];
}

/** A claim older than this belongs to a drainer that died mid-entry: it is taken again (R13). */
export const ORPHAN_CLAIM_MS = 10_000;

/**
 * An entry whose writer looks alive this long after it was written is
 * taken anyway: the pid in its name was reused, since a wrapper writes an
 * entry in milliseconds.
 */
export const WRITER_GRACE_MS = 5_000;

/** The cap of one entry: the frame cap (U10). */
const ENTRY_CAP = 1024 * 1024;

/** The names of the entries waiting, in name order. */
export async function pendingEntries(spool: string): Promise<string[]> {
  const names: string[] = [];
  try {
    for await (const entry of Deno.readDir(spool)) {
      if (!entry.isFile) continue;
      if (entry.name.endsWith(".ev") && !entry.name.startsWith(".")) names.push(entry.name);
      else if (entry.name.endsWith(".claimed")) await reviveOrphan(spool, entry.name);
    }
  } catch {
    return [];
  }
  return names.sort();
}

/** Puts back an entry whose drainer died holding it, so this drain takes it. */
async function reviveOrphan(spool: string, claimed: string): Promise<void> {
  const path = `${spool}/${claimed}`;
  const info = await Deno.stat(path).catch(() => null);
  const age = Date.now() - (info?.mtime?.getTime() ?? Date.now());
  if (info === null || age < ORPHAN_CLAIM_MS) return;
  const name = claimed.replace(/^\./, "").replace(/\.[0-9]+\.claimed$/, "");
  await Deno.rename(path, `${spool}/${name}`).catch(() => undefined);
}

/**
 * The pid that writes an entry, from its name (`<pid>.ev`, `<pid>-<n>.ev`);
 * null for a name of another shape (an older wrapper's
 * `<fired>-<pid>.ev`, always renamed into place whole).
 *
 * ```ts
 * writerOf("4242.ev"); // 4242
 * writerOf("4242-1.ev"); // 4242
 * writerOf("1700000000000-4242.ev"); // null
 * ```
 */
export function writerOf(name: string): number | null {
  const match = /^([0-9]{1,10})(?:-[0-9]{1,3})?\.ev$/.exec(name);
  // No wrapper runs as pid 1 (init): such a name is not a writer's.
  return match && Number(match[1]) > 1 ? Number(match[1]) : null;
}

/**
 * Claims and reads every waiting entry whose writer is done, oldest event
 * first. A taken entry's file stays (renamed) until `release` after its
 * stamp, so a drainer killed in between leaves it for the next (R13); a
 * refused one is removed at once. An entry another drainer claimed first
 * is left to it.
 */
export async function claimEntries(spool: string): Promise<SpoolClaim> {
  const items: SpoolItem[] = [];
  const untaken: string[] = [];
  let busy = 0;
  for (const name of await pendingEntries(spool)) {
    const path = `${spool}/${name}`;
    const writer = writerOf(name);
    if (writer !== null && writer !== Deno.pid && processAlive(writer)) {
      const info = await Deno.stat(path).catch(() => null);
      if (info === null) continue;
      if (Date.now() - mtimeOf(info) < WRITER_GRACE_MS) {
        busy++;
        continue;
      }
    }
    const claimed = `${spool}/.${name}.${Deno.pid}.claimed`;
    try {
      await Deno.rename(path, claimed);
    } catch {
      untaken.push(name);
      continue;
    }
    items.push(await readClaimed(name, claimed));
  }
  items.sort(olderFirst);
  return { items, busy, untaken };
}

/**
 * The drain order: by fire time, then (a clock tick holds several entries)
 * by writer pid, which the system hands out in the order the hooks started.
 */
function olderFirst(a: SpoolItem, b: SpoolItem): number {
  const byTime = (a.event?.firedAt ?? 0) - (b.event?.firedAt ?? 0);
  if (byTime !== 0) return byTime;
  const byPid = (writerOf(a.name) ?? 0) - (writerOf(b.name) ?? 0);
  if (byPid !== 0) return byPid;
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

/** Reads one claimed entry; a refused one is removed. */
async function readClaimed(name: string, claimed: string): Promise<SpoolItem> {
  const refuse = async (problem: string): Promise<SpoolItem> => {
    await release(claimed);
    return { name, event: null, problem };
  };
  try {
    const info = await Deno.stat(claimed);
    if (info.size > ENTRY_CAP) return await refuse(`${info.size} bytes is over the 1 MiB cap`);
    const event = parseSpoolEntry(await Deno.readTextFile(claimed));
    if (event === null) return await refuse("not a spool entry (agent, event, pane, time)");
    // Fired-at 0: the wrapper took no clock, and the entry's creation is the moment it fired.
    return {
      name,
      event: event.firedAt > 0 ? event : { ...event, firedAt: createdOf(info) },
      claimed,
    };
  } catch (error) {
    return await refuse(String(error));
  }
}

/** Removes a claimed entry once its event is stamped (or refused for good). */
export async function release(claimed: string): Promise<void> {
  await Deno.remove(claimed).catch(() => undefined);
}

function mtimeOf(info: Deno.FileInfo): number {
  return info.mtime?.getTime() ?? Date.now();
}

/**
 * When an entry was created: its birth time where the file system keeps one
 * (statx), else its last write, a few milliseconds later at most.
 */
function createdOf(info: Deno.FileInfo): number {
  return info.birthtime?.getTime() ?? mtimeOf(info);
}

/**
 * Folds bursts: a run of entries with the same agent, event and pane keeps
 * only its last (Gemini sends `AfterModel` once per streamed chunk; each
 * would decide the same stamp). Lifecycle events and turn ends are never
 * folded into a different event, so none is lost.
 *
 * ```ts
 * const e = (kind: string, firedAt: number) => ({ agent: "gemini", kind, pane: "%1", firedAt, payload: "{}" });
 * coalesce([e("AfterModel", 1), e("AfterModel", 2), e("AfterTool", 3)]).map((x) => x.firedAt); // [2, 3]
 * ```
 */
export function coalesce(events: readonly RawEvent[]): RawEvent[] {
  const out: RawEvent[] = [];
  for (const event of events) {
    const last = out[out.length - 1];
    if (
      last && last.agent === event.agent && last.kind === event.kind && last.pane === event.pane
    ) {
      out[out.length - 1] = event;
    } else {
      out.push(event);
    }
  }
  return out;
}

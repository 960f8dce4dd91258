/**
 * The spool: the folder the `tma-hook` wrapper hands raw events into when a
 * daemon is live (X7), one file per event, written under a dot-name and
 * renamed into place (`<fired-ms>-<pid>.ev`), so a reader never sees half
 * of one. Whoever drains it (the daemon, or after a daemon's death the next
 * direct `tma event`) claims each entry by renaming it first, so an entry is
 * taken once even when two drain at the same moment (R13).
 * @module
 */
import { parseSpoolEntry, type RawEvent } from "../core/daemon_wire.ts";

/** One claimed entry: its event, or why it was refused. */
export type SpoolItem =
  | { name: string; event: RawEvent; claimed: string }
  | { name: string; event: null; problem: string };

/** A claim older than this belongs to a drainer that died mid-entry: it is taken again (R13). */
export const ORPHAN_CLAIM_MS = 10_000;

/** The cap of one entry: the frame cap (U10). */
const ENTRY_CAP = 1024 * 1024;

/** The names of the entries waiting, oldest first (the name starts with the fired time). */
export async function pendingEntries(spool: string): Promise<string[]> {
  const names: string[] = [];
  try {
    for await (const entry of Deno.readDir(spool)) {
      if (!entry.isFile) continue;
      if (entry.name.endsWith(".ev")) names.push(entry.name);
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
 * Claims and reads every waiting entry, oldest first. A taken entry's file
 * stays (renamed) until `release` after its stamp, so a drainer killed in
 * between leaves it for the next (R13); a refused one is removed at once.
 * An entry another drainer claimed first is left to it.
 */
export async function claimEntries(spool: string): Promise<SpoolItem[]> {
  const items: SpoolItem[] = [];
  for (const name of await pendingEntries(spool)) {
    const claimed = `${spool}/.${name}.${Deno.pid}.claimed`;
    try {
      await Deno.rename(`${spool}/${name}`, claimed);
    } catch {
      continue;
    }
    try {
      const info = await Deno.stat(claimed);
      if (info.size > ENTRY_CAP) {
        items.push({ name, event: null, problem: `${info.size} bytes is over the 1 MiB cap` });
        await release(claimed);
        continue;
      }
      const event = parseSpoolEntry(await Deno.readTextFile(claimed));
      if (event === null) {
        items.push({ name, event: null, problem: "not a spool entry (agent, event, pane, time)" });
        await release(claimed);
        continue;
      }
      items.push({
        name,
        event: event.firedAt > 0 ? event : { ...event, firedAt: mtimeOf(info) },
        claimed,
      });
    } catch (error) {
      items.push({ name, event: null, problem: String(error) });
      await release(claimed);
    }
  }
  return items;
}

/** Removes a claimed entry once its event is stamped (or refused for good). */
export async function release(claimed: string): Promise<void> {
  await Deno.remove(claimed).catch(() => undefined);
}

function mtimeOf(info: Deno.FileInfo): number {
  return info.mtime?.getTime() ?? Date.now();
}

/**
 * Folds bursts: a run of entries with the same agent, event and pane keeps
 * only its last (Gemini sends `AfterModel` once per streamed chunk; each
 * would decide the same stamp).
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

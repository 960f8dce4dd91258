/**
 * The action audit log: one JSON line per broker run at a target, appended to
 * `$XDG_STATE_HOME/tma/actions.jsonl` (else
 * `~/.local/state/tma/actions.jsonl`) (X. Beyond). It records who was acted
 * on, how and with what outcome, and the prompt fingerprint, never screen
 * text, a `--text` message or `--arg` values. `tma act --log` prints the
 * tail.
 *
 * ```ts
 * const path = auditPath((name) => Deno.env.get(name));
 * await appendAudit(path, {
 *   time: Date.now(), pane: "%3", agent: "claude", action: "approve", transport: "keys",
 *   outcome: "sent", reason: null, exit_code: 0, fingerprint: null, pid: Deno.pid,
 * });
 * const recent = await readAudit(path, 20);
 * ```
 * @module
 */
import { z } from "../deps/zod.ts";
import { type EnvReader, stateDir } from "../runtime/paths.ts";
import { OUTCOMES, REASONS } from "../core/action/outcome.ts";

/** One audit line. */
export const auditEntrySchema = z.strictObject({
  /** Epoch ms of the outcome. */
  time: z.number(),
  pane: z.string(),
  agent: z.string().nullable(),
  action: z.string(),
  /** `keys`, `text`, `hook-lane`, `api`, `exec`, or null when refused before one was chosen. */
  transport: z.string().nullable(),
  outcome: z.enum(OUTCOMES),
  reason: z.enum(REASONS).nullable(),
  exit_code: z.int(),
  /** The prompt fingerprint the gate passed on, when the pane was blocked. */
  fingerprint: z.string().nullable(),
  /** The broker's pid, to tell concurrent runs apart. */
  pid: z.int(),
});

/** One audit line. */
export type AuditEntry = z.infer<typeof auditEntrySchema>;

/** Past this size the log is rotated once to `actions.jsonl.1`. */
export const AUDIT_ROTATE_BYTES = 1_000_000;

/** The log's path: `$XDG_STATE_HOME/tma/actions.jsonl`, else under `~/.local/state`. */
export function auditPath(env: EnvReader): string {
  return `${stateDir(env)}/actions.jsonl`;
}

/**
 * Appends one entry. A single `write` of one short line to a file opened
 * for append, so concurrent brokers never interleave inside a line.
 */
export async function appendAudit(path: string, entry: AuditEntry): Promise<void> {
  const dir = path.slice(0, path.lastIndexOf("/"));
  if (dir) await Deno.mkdir(dir, { recursive: true });
  try {
    const info = await Deno.stat(path);
    if (info.size > AUDIT_ROTATE_BYTES) await Deno.rename(path, `${path}.1`);
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
  const line = `${JSON.stringify(auditEntrySchema.parse(entry))}\n`;
  await Deno.writeTextFile(path, line, { append: true, create: true, mode: 0o600 });
}

/**
 * The last `limit` readable entries, oldest first. A line that does not
 * parse (a hand edit, a torn write) is skipped.
 */
export async function readAudit(path: string, limit: number): Promise<AuditEntry[]> {
  let text: string;
  try {
    text = await Deno.readTextFile(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return [];
    throw error;
  }
  const entries: AuditEntry[] = [];
  for (const line of text.split("\n")) {
    if (line.trim() === "") continue;
    try {
      const parsed = auditEntrySchema.safeParse(JSON.parse(line));
      if (parsed.success) entries.push(parsed.data);
    } catch {
      // Not JSON: skipped.
    }
  }
  return entries.slice(-limit);
}

/** One entry as a tab-separated line for `tma act --log`. */
export function auditLine(entry: AuditEntry): string {
  return [
    new Date(entry.time).toISOString(),
    entry.pane,
    entry.agent ?? "-",
    entry.action,
    entry.transport ?? "-",
    entry.outcome,
    entry.reason ?? "-",
    entry.fingerprint ?? "-",
  ].join("\t");
}

/**
 * One host's reading: the schema-1 document its `tma ls --json --identity`
 * printed, checked key by key, so a host that answers garbage (a login
 * banner, a shell error, a truncated stream) is an unreachable host with a
 * clear error and never a row. The identity keys (X9) are the row keys a
 * fleet view adds to the schema-1 row, additively: `server_started_ms`,
 * `pane_pid` and `command`. Pure.
 *
 * ```ts
 * const reading = parseReading('{"schema":1,"agents":[],"panes":["%0"]}');
 * reading.panes; // ["%0"]
 * ```
 * @module
 */
import { TmaError } from "../errors.ts";
import type { AgentRow } from "../rows.ts";
import { isState } from "../state.ts";

/** What tells one agent from the next in the same pane (X9). */
export interface RowIdentity {
  /** The tmux server's start (`#{start_time}`, in ms). */
  server_started_ms: number | null;
  /** The pane's first process (`#{pane_pid}`). */
  pane_pid: number | null;
  /** The pane's foreground command (`#{pane_current_command}`). */
  command: string | null;
}

/** A row of a fleet view: the schema-1 row plus its identity keys. */
export type FleetRow = AgentRow & RowIdentity;

/** The identity keys, in the order a fleet document prints them after the row keys. */
export const IDENTITY_KEYS: readonly (keyof RowIdentity)[] = [
  "server_started_ms",
  "pane_pid",
  "command",
];

/** A checked reading of one host. */
export interface Reading {
  rows: FleetRow[];
  /** Every live pane id of the host's server (a vanished pane is exit 3 to `wait`, C42). */
  panes: string[];
}

/** What a host printed was not a schema-1 document. */
export class ReadingError extends TmaError {
  constructor(detail: string) {
    super(`the remote tma printed ${detail}`);
    this.name = "ReadingError";
  }
}

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json =>
  v !== null && typeof v === "object" && !Array.isArray(v);
const str = (v: unknown): string | null => typeof v === "string" ? v : null;
const num = (v: unknown): number | null => typeof v === "number" && Number.isFinite(v) ? v : null;
const bool = (v: unknown): boolean => v === true;
const boolOrNull = (v: unknown): boolean | null => typeof v === "boolean" ? v : null;

/** A short, printable excerpt of what came back, for the error line. */
export function excerptOf(text: string): string {
  const flat = [...text].map((c) => c.charCodeAt(0) < 32 || c === "\x7f" ? " " : c).join("")
    .replace(/ +/g, " ").trim();
  if (flat === "") return "nothing";
  return JSON.stringify(flat.length > 60 ? `${flat.slice(0, 60)}…` : flat);
}

/** Checks one row; the keys a row must have are named in the error. */
export function checkRow(raw: unknown, index: number): FleetRow {
  if (!isObject(raw)) throw new ReadingError(`a row that is not an object (agents[${index}])`);
  const pane = str(raw.pane);
  const agent = str(raw.agent);
  const locator = str(raw.locator);
  const server = str(raw.server);
  if (pane === null || !/^%\d+$/.test(pane)) {
    throw new ReadingError(`a row without a pane id (agents[${index}].pane)`);
  }
  if (agent === null || locator === null || server === null || !isState(raw.state)) {
    throw new ReadingError(`a row missing agent, state, locator or server (agents[${index}])`);
  }
  const since = num(raw.since_ms) ?? num(raw.since);
  const row: FleetRow = {
    pane,
    agent,
    state: raw.state,
    detail: str(raw.detail),
    since,
    since_ms: since,
    episode_ms: num(raw.episode_ms),
    locator,
    title: str(raw.title) ?? "",
    attention: bool(raw.attention),
    done: raw.state === "idle" && bool(raw.attention),
    session: str(raw.session),
    context: num(raw.context),
    context_at_ms: num(raw.context_at_ms),
    muted: bool(raw.muted),
    tokens: num(raw.tokens),
    quota: num(raw.quota),
    quota_window: str(raw.quota_window),
    quota_resets_at_ms: num(raw.quota_resets_at_ms),
    quota_at_ms: num(raw.quota_at_ms),
    cost_usd: num(raw.cost_usd),
    model: str(raw.model),
    repo: str(raw.repo),
    branch: str(raw.branch),
    worktree: boolOrNull(raw.worktree),
    server,
    host: str(raw.host) ?? "",
    server_started_ms: num(raw.server_started_ms),
    pane_pid: num(raw.pane_pid),
    command: str(raw.command),
  };
  return row;
}

/**
 * Parses what a host's `tma ls --json --identity` printed: the last
 * non-blank line must be a schema-1 document (a login banner or a motd
 * line before it is ignored). Throws `ReadingError` otherwise.
 */
export function parseReading(stdout: string): Reading {
  const lines = stdout.split("\n").map((l) => l.trim()).filter((l) => l !== "");
  const last = lines[lines.length - 1];
  if (last === undefined) throw new ReadingError("nothing");
  let doc: unknown;
  try {
    doc = JSON.parse(last);
  } catch {
    throw new ReadingError(`no JSON document: ${excerptOf(last)}`);
  }
  if (!isObject(doc) || doc.schema !== 1 || !Array.isArray(doc.agents)) {
    throw new ReadingError(`JSON that is not a schema-1 document: ${excerptOf(last)}`);
  }
  const rows = doc.agents.map(checkRow);
  if (rows.some((r) => r.pane_pid === null || r.server_started_ms === null)) {
    throw new ReadingError(
      "rows without identity keys (pane_pid, server_started_ms): update tma on that host",
    );
  }
  const panes = Array.isArray(doc.panes)
    ? doc.panes.filter((p): p is string => typeof p === "string")
    : rows.map((r) => r.pane);
  return { rows, panes };
}

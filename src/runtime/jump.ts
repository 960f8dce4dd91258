/**
 * `tma jump` over a tmux server (C24-C33, D60): resolve the acting client
 * (C6), pick the destination by mode, update that client's return trail,
 * clear the destination's attention, and move the client. The picker's and
 * the watch's Enter come through here too.
 * @module
 */
import { type ClientFacts, type ClientHints, resolveClient } from "../core/client.ts";
import { TmaError, UsageError } from "../core/errors.ts";
import {
  attentionOrder,
  blockedOrder,
  focusPlan,
  type JumpRow,
  nextAfter,
  nextInSurfaceOrder,
  parseTrail,
  pushTrail,
  renderTrail,
  trailBack,
  trailHome,
  trailOption,
} from "../core/jump.ts";
import type { PaneFacts } from "../core/snapshot.ts";
import { listClientFacts } from "../tmux/clients.ts";
import type { TmuxServer } from "../tmux/exec.ts";
import { focusClient } from "../tmux/focus.ts";
import { readServerOption } from "../tmux/options.ts";
import { type WriteChain, writeChains } from "../tmux/writer.ts";

/** The modes of C24-C29. */
export type JumpMode = "attention" | "blocked" | "next" | "back" | "home" | "pane";

/** Exit code of "no attached client to act for" (the same as `act --menu`'s). */
export const NO_CLIENT_EXIT = 2;

/** Exit code of a `--pane` that names no pane of the server. */
export const NO_PANE_EXIT = 3;

/** No person's client is attached, or `-c` names one that is not. */
export class NoClientError extends TmaError {
  constructor(explicit?: string) {
    super(
      explicit
        ? `no attached client is named "${explicit}" (tmux list-clients shows them)`
        : "no tmux client is attached to act for: attach one, or pass -c CLIENT",
      NO_CLIENT_EXIT,
    );
    this.name = "NoClientError";
  }
}

/** What a jump is asked to do. */
export interface JumpRequest {
  mode: JumpMode;
  /** The destination of `--pane`. */
  pane?: string;
  /** Every agent row of the cycle (`--pane`, `--back` and `--home` ignore the selector). */
  rows: readonly JumpRow[];
  /** The rows the selector keeps (forward candidates, C32). */
  scoped: readonly JumpRow[];
  /** Every pane of the server, from the same cycle. */
  panes: readonly PaneFacts[];
  hints: ClientHints;
}

/** What a jump did. */
export interface JumpResult {
  /** The pane the client was moved to, or null when it stayed. */
  target: string | null;
  client: string;
  /** Why nothing moved, for one stderr line. */
  note?: string;
}

/** The acting client, or null when none is attached (C6). */
export async function findActingClient(
  server: TmuxServer,
  hints: ClientHints,
): Promise<ClientFacts | null> {
  return resolveClient(await listClientFacts(server).catch(() => []), hints);
}

/** The acting client, or a `NoClientError`. */
export async function actingClient(server: TmuxServer, hints: ClientHints): Promise<ClientFacts> {
  const client = resolveClient(await listClientFacts(server), hints);
  if (!client) throw new NoClientError(hints.explicit);
  return client;
}

/** The session holding a pane, from a listing (C6's `$TMUX_PANE` hint). */
export function sessionOfPane(panes: readonly PaneFacts[], pane?: string): string | undefined {
  return pane ? panes.find((p) => p.paneId === pane)?.sessionName : undefined;
}

/** The listing's facts of `pane`, preferring its place in the client's session. */
function placeOf(
  panes: readonly PaneFacts[],
  pane: string,
  session: string,
): PaneFacts | undefined {
  const all = panes.filter((p) => p.paneId === pane);
  return all.find((p) => p.sessionName === session) ?? all[0];
}

/** The destination of a mode, and the trail the jump leaves. */
function destination(
  request: JumpRequest,
  client: ClientFacts,
  trail: string[],
): { target: string | null; trail: string[]; note?: string } {
  const live = (pane: string) => request.panes.some((p) => p.paneId === pane);
  const current = client.pane;
  const forward = (target: JumpRow | null, empty: string) =>
    target
      ? { target: target.pane, trail: target.pane === current ? trail : pushTrail(trail, current) }
      : { target: null, trail, note: empty };
  switch (request.mode) {
    case "attention":
      return forward(
        nextAfter(attentionOrder(request.scoped), current),
        "nothing in scope is waiting",
      );
    case "blocked":
      return forward(blockedOrder(request.scoped)[0] ?? null, "nothing in scope is blocked");
    case "next": {
      const here = request.panes.find((p) => p.paneId === current);
      return forward(
        nextInSurfaceOrder(
          request.scoped,
          here ? { pane: here.paneId, locator: here.locator } : null,
        ),
        "no agent in scope",
      );
    }
    case "pane": {
      const pane = request.pane!;
      if (!live(pane)) {
        throw new TmaError(`no pane ${pane} on this tmux server`, NO_PANE_EXIT);
      }
      const row = request.rows.find((r) => r.pane === pane);
      if (!row) return { target: null, trail, note: `${pane} runs no agent; not jumping` };
      return forward(row, "");
    }
    case "back": {
      const step = trailBack(trail, live, current);
      return step.target ? step : { ...step, note: "the return trail is empty" };
    }
    case "home": {
      const step = trailHome(trail, live);
      return step.target ? step : { ...step, note: "the return trail is empty" };
    }
  }
}

/** Modes whose destination loses its attention flag (D60). */
const CLEARS: ReadonlySet<JumpMode> = new Set(["attention", "blocked", "pane"]);

/**
 * Runs one jump: at most one `list-clients`, one trail read, one batched
 * write (trail and attention) and one focus move.
 *
 * ```ts
 * const server = { bin: "tmux", socketName: "work" };
 * await jump(server, { mode: "attention", rows: [], scoped: [], panes: [], hints: {} });
 * // { target: null, client: "/dev/pts/1", note: "nothing in scope is waiting" }
 * ```
 */
export async function jump(server: TmuxServer, request: JumpRequest): Promise<JumpResult> {
  if (request.mode === "pane" && !request.pane) throw new UsageError("--pane needs a pane id");
  const client = await actingClient(server, request.hints);
  const option = trailOption(client.name);
  const before = parseTrail(await readServerOption(server, option));
  const step = destination(request, client, before);
  const chains: WriteChain[] = [];
  const anchor = step.target ?? client.pane;
  if (renderTrail(step.trail) !== renderTrail(before)) {
    chains.push({
      pane: anchor,
      writes: [{
        name: option,
        value: step.trail.length ? renderTrail(step.trail) : null,
        scope: "server",
      }],
    });
  }
  const row = request.rows.find((r) => r.pane === step.target);
  if (step.target && row?.attention && CLEARS.has(request.mode)) {
    chains.push({ pane: step.target, writes: [{ name: "@agent_attention", value: null }] });
  }
  if (chains.length > 0) await writeChains(server, chains);
  if (!step.target) return { target: null, client: client.name, note: step.note };
  const place = placeOf(request.panes, step.target, client.sessionName)!;
  await focusClient(
    server,
    focusPlan(client.name, client.sessionName, {
      pane: place.paneId,
      sessionName: place.sessionName,
      windowId: place.windowId,
      windowActive: place.windowActive,
      active: place.active,
    }),
  );
  return { target: step.target, client: client.name };
}

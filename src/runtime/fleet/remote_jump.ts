/**
 * A jump to a remote row (X9): find the local window that shows the row's
 * remote session (tagged by `src/core/fleet/reach.ts`) and move that session
 * to the pane over the transport, or open the window, attached at the pane;
 * then move the acting client there as any jump does, its return trail
 * included (`--back` comes home).
 * @module
 */
import type { ClientHints } from "../../core/client.ts";
import type { HostSpec } from "../../core/fleet/hosts.ts";
import {
  attachArgv,
  type Reachable,
  remoteTag,
  remoteWindowName,
  selectArgv,
} from "../../core/fleet/reach.ts";
import type { State } from "../../core/state.ts";
import type { TmuxServer } from "../../tmux/exec.ts";
import { listPanes } from "../../tmux/panes.ts";
import {
  findTaggedWindow,
  openTaggedWindow,
  respawnTaggedWindow,
} from "../../tmux/remote_window.ts";
import { actingClient, jump, type JumpResult } from "../jump.ts";
import { runTransport } from "./ssh.ts";

/** What a remote jump needs of its row. */
export interface RemoteRow extends Reachable {
  state: State;
  since_ms: number | null;
  episode_ms: number | null;
}

/** What a remote jump did: the local pane the client went to, and whether its window was reused. */
export interface RemoteJumpResult extends JumpResult {
  reused: boolean;
  /** Why moving the remote session failed, when the window was reused (it is shown anyway). */
  selectError?: string;
}

/** Jumps the acting client to the remote row's pane, in a window of its own. */
export async function remoteJump(
  server: TmuxServer,
  request: { spec: HostSpec; row: RemoteRow; hints: ClientHints },
): Promise<RemoteJumpResult> {
  const { spec, row } = request;
  const client = await actingClient(server, request.hints);
  const tag = remoteTag(spec, row);
  const found = await findTaggedWindow(server, tag);
  let pane: string;
  let selectError: string | undefined;
  if (found && !found.dead) {
    pane = found.paneId;
    const run = await runTransport(selectArgv(spec, row), { timeoutMs: spec.timeoutMs });
    if (run.kind !== "exited" || run.code !== 0) {
      selectError = run.kind === "failed"
        ? run.message
        : run.kind === "timeout"
        ? "no answer within the deadline"
        : run.stderr.trim().split("\n").pop() || `exit ${run.code}`;
    }
  } else if (found) {
    pane = found.paneId;
    await respawnTaggedWindow(server, pane, attachArgv(spec, row));
  } else {
    pane = (await openTaggedWindow(server, {
      session: client.sessionName,
      name: remoteWindowName(spec, row),
      tag,
      argv: attachArgv(spec, row),
    })).paneId;
  }
  const panes = await listPanes(server);
  const place = panes.find((p) => p.paneId === pane);
  const result = await jump(server, {
    mode: "pane",
    pane,
    rows: [{
      pane,
      state: row.state,
      attention: false,
      since_ms: row.since_ms,
      episode_ms: row.episode_ms,
      locator: place?.locator ?? "",
    }],
    scoped: [],
    panes,
    hints: { ...request.hints, explicit: client.name },
  });
  return { ...result, reused: found !== null, selectError };
}

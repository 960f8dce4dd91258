/**
 * Resolves `tma act`'s targets: `--pane`, else a selector that must match
 * exactly one agent pane (or any number under `--all`), else the pane tma
 * runs in (`$TMUX_PANE`) (C44-C46).
 * @module
 */
import { EXIT, TmaError, UsageError } from "../core/errors.ts";
import { needsGit, type Selector } from "../core/selector.ts";
import { listAgents } from "../runtime/cycle/listing.ts";
import type { BrokerEnv } from "./observe.ts";

/** What the targets are chosen from. */
export interface TargetRequest {
  /** `--pane`. */
  pane?: string;
  selector: Selector;
  /** Whether any selector flag was given. */
  hasSelector: boolean;
  /** `--all`. */
  all: boolean;
  /** `$TMUX_PANE`. */
  envPane?: string;
}

/**
 * The panes to fire at, in fire order. Usage errors (exit 2): `--pane` with
 * selector flags or `--all`, no way to pick a pane, an empty `--all`. A
 * selector without `--all` matching nothing is exit 3, several exit 1
 * naming the candidates.
 */
export async function resolveTargets(env: BrokerEnv, request: TargetRequest): Promise<string[]> {
  if (request.pane !== undefined) {
    if (request.hasSelector) {
      throw new UsageError("--pane picks one pane; drop the selector flags or drop --pane");
    }
    if (request.all) throw new UsageError("--all fans out over a selector; drop --pane");
    return [request.pane];
  }
  if (!request.hasSelector && !request.all) {
    if (request.envPane) return [request.envPane];
    throw new UsageError(
      "no target pane: pass --pane ID or selector flags, or run tma act inside tmux",
    );
  }
  const { rows } = await listAgents({
    server: env.server,
    models: env.models,
    config: env.config,
    now: env.now,
    selector: request.selector,
    git: needsGit(request.selector),
  });
  if (request.all) {
    if (rows.length === 0) throw new UsageError("--all matched no agent pane");
    return rows.map((row) => row.pane);
  }
  if (rows.length === 0) {
    throw new TmaError("the selector matched no agent pane", EXIT.vanished);
  }
  if (rows.length > 1) {
    const names = rows.map((row) => `${row.pane} (${row.locator}, ${row.agent}, ${row.state})`);
    throw new TmaError(
      `the selector matched ${rows.length} panes: ${names.join(", ")}; narrow it, ` +
        "pass --pane, or add --all",
      EXIT.runtime,
    );
  }
  return [rows[0].pane];
}

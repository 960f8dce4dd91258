/**
 * The action menu (A38, C54), shared by `act --menu`, the picker's `tab`
 * and the watch's `a`: a tmux `display-menu` of the actions fireable at one
 * pane right now, shown on the acting client.
 * @module
 */
import type { ParsedActionManifest } from "../core/manifest/parse.ts";
import { sessionOfLocator } from "../core/jump.ts";
import { fireability, freshView } from "../actions/explain.ts";
import { menuItems } from "../actions/menu.ts";
import type { BrokerEnv } from "../actions/observe.ts";
import { auditPath } from "../actions/audit.ts";
import { actingClient } from "../runtime/jump.ts";
import { showMenu } from "../tmux/menu.ts";
import { childArgv } from "./child_argv.ts";
import type { CommandContext } from "./context.ts";

/** The broker's environment for a command. */
export async function brokerEnv(ctx: CommandContext): Promise<BrokerEnv> {
  const [server, config, manifests] = await Promise.all([
    ctx.server(),
    ctx.config(),
    ctx.manifests(),
  ]);
  return {
    server,
    config,
    agents: manifests.agents,
    models: manifests.models,
    now: ctx.now,
    auditPath: auditPath(ctx.env),
    warn: (line) => ctx.err(`${line}\n`),
    // A detached exec's supervisor gets the same config and manifests (C9).
    childGlobals: {
      config: ctx.globals.config,
      noConfig: ctx.globals.noConfig,
      manifestDir: ctx.globals.manifestDir,
    },
  };
}

/** Which pane, for which client, with which actions. */
export interface ActionMenuRequest {
  pane: string;
  actions: ReadonlyMap<string, ParsedActionManifest>;
  /** The client to show it on; else `-c`, else the client showing the pane (C6). */
  client?: string;
}

/**
 * Shows the menu; returns the exit code (3 when the pane is gone, 0 when
 * nothing is fireable and no menu opened).
 */
export async function showActionMenu(
  ctx: CommandContext,
  env: BrokerEnv,
  request: ActionMenuRequest,
): Promise<number> {
  const view = await freshView(env, request.pane);
  if (view === null) {
    ctx.err(`tma: pane ${request.pane} is gone\n`);
    return 3;
  }
  const fireable = [...request.actions.values()]
    .sort((a, b) => a.name.localeCompare(b.name))
    .filter((action) => fireability(env, { action, view }).fireable);
  if (fireable.length === 0) {
    ctx.err(`tma: no action is fireable at ${view.pane} now; no menu opened\n`);
    return 0;
  }
  const client = request.client ?? (await actingClient(env.server, {
    explicit: ctx.globals.client,
    pane: view.pane,
    paneSession: sessionOfLocator(view.locator),
    tmux: ctx.env("TMUX"),
  })).name;
  await showMenu(env.server, {
    pane: view.pane,
    client,
    title: `tma: ${view.agent ?? "pane"} ${view.pane}`,
    items: menuItems({ tma: childArgv(ctx, view.socketPath), pane: view.pane, actions: fireable }),
  });
  return 0;
}

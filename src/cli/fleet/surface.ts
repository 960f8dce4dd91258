/**
 * The watch across hosts (X9): the ordinary surface host for this
 * machine's rows (with `--all-hosts`), plus every selected host's live rows,
 * keyed `%3@host` and shown with the host before their locator. A refresh
 * never waits on the network: it starts a fetch of each host that has none
 * under way and merges what the tracks hold now; a fetch that ends wakes
 * the surface, which refreshes again. Unreachable hosts are lines under the
 * header with their error and the age of their last good reading. Enter on
 * a remote row opens or reuses a local window attached to it, `a` opens a
 * menu whose entries run `tma act --host`, and the preview is a capture
 * taken over the host's transport when it has none in flight.
 * @module
 */
import type { ClientHints } from "../../core/client.ts";
import { checkGate } from "../../core/action/gate.ts";
import type { PaneView } from "../../core/action/view.ts";
import type { HostSpec } from "../../core/fleet/hosts.ts";
import { keyedRow, parseFleetKey } from "../../core/fleet/keys.ts";
import type { FleetRow } from "../../core/fleet/reading.ts";
import { remoteWords, transportArgv } from "../../core/fleet/transport.ts";
import { fleetView, hostNote } from "../../core/fleet/view.ts";
import { sessionOfLocator } from "../../core/jump.ts";
import type { AgentRow } from "../../core/rows.ts";
import type { Selector } from "../../core/selector.ts";
import { menuItems } from "../../actions/menu.ts";
import { selfArgv } from "../../actions/self.ts";
import { runTransport } from "../../runtime/fleet/ssh.ts";
import { actingClient } from "../../runtime/jump.ts";
import { showMenu } from "../../tmux/menu.ts";
import type { SurfaceHost } from "../../ui/run.ts";
import type { CommandContext } from "../context.ts";
import { cachedPoller, hostNames, livePolicy } from "./common.ts";
import { jumpToRemote } from "./jump.ts";

/** What a fleet surface is built from. */
export interface FleetSurfaceOptions {
  specs: HostSpec[];
  /** Show this machine's rows too (`--all-hosts`). */
  withLocal: boolean;
  selector?: Selector;
  /** How often the surface refreshes, for the freshness bound. */
  refreshMs: number;
}

/** A remote row as the broker's gate reads it (for the menu's fireable actions). */
function viewOf(row: FleetRow): PaneView {
  return {
    pane: row.pane,
    locator: row.locator,
    agent: row.agent,
    state: row.state,
    detail: row.detail,
    stampedAt: null,
    contextPct: row.context,
    contextAt: row.context_at_ms,
    tokens: row.tokens,
    tokensAt: null,
    session: row.session,
    cwd: null,
    pid: row.pane_pid,
    title: row.title,
    permissionRequest: null,
    questionRequest: null,
    apiEndpoint: null,
    lock: null,
    height: 0,
    socketPath: row.server,
  };
}

/** Wraps `base` (this machine's host) into a fleet host. */
export async function fleetSurfaceHost(
  ctx: CommandContext,
  base: SurfaceHost,
  options: FleetSurfaceOptions,
): Promise<SurfaceHost> {
  const names = hostNames(options.specs);
  const specByName = new Map(options.specs.map((s) => [s.name, s]));
  const { poller } = await cachedPoller(ctx, options.specs, () => base.waker.wake("fleet"));
  let notes: string[] = [];
  /** The remote rows of the last merge, by key. */
  let remote = new Map<string, FleetRow>();

  const merge = (local: AgentRow[]): AgentRow[] => {
    const view = fleetView({
      local: null,
      tracks: poller.tracks(),
      policy: livePolicy(options.specs, { nowMs: ctx.now(), cadenceMs: options.refreshMs }),
      selector: options.selector,
    });
    notes = view.hosts.map(hostNote).filter((n): n is string => n !== null);
    remote = new Map();
    const rows = view.rows.map((row) => {
      const keyed = keyedRow(row, names);
      remote.set(keyed.pane, row);
      return keyed;
    });
    return [...local, ...rows];
  };

  const hints = (): ClientHints => ({
    explicit: ctx.globals.client,
    pane: ctx.env("TMUX_PANE") || undefined,
    tmux: ctx.env("TMUX") || undefined,
  });

  const remoteRow = (key: string) => {
    const parsed = parseFleetKey(key);
    const row = parsed ? remote.get(key) : undefined;
    const spec = parsed ? specByName.get(parsed.host) : undefined;
    return row && spec ? { row, spec } : null;
  };

  return {
    ...base,
    stamped: async () => merge(options.withLocal ? await base.stamped() : []),
    refresh: async () => {
      poller.kick();
      return merge(options.withLocal ? await base.refresh() : []);
    },
    notes: () => notes,
    capture: async (key) => {
      const found = remoteRow(key);
      if (!found) return await base.capture(key);
      const { row, spec } = found;
      const argv = transportArgv(
        spec,
        remoteWords(["tmux", "-S", row.server, "capture-pane", "-p", "-e", "-t", row.pane]),
        { tty: false },
      );
      // One transport process per host at a time: after the fetch under way, before the next.
      const run = await poller.exclusive(
        spec.name,
        () => runTransport(argv, { timeoutMs: spec.timeoutMs }),
      );
      return run.kind === "exited" && run.code === 0 ? run.stdout : null;
    },
    jump: async (key) => {
      const found = remoteRow(key);
      if (!found) return await base.jump(key);
      const note = await jumpToRemote(ctx, { ...found, hints: hints() });
      if (note) base.report(`tma: ${note}`);
    },
    menu: async (key) => {
      const found = remoteRow(key);
      if (!found) return await base.menu(key);
      const { row, spec } = found;
      const actions = [...(await ctx.manifests()).actions.values()]
        .sort((a, b) => a.name.localeCompare(b.name))
        .filter((action) =>
          checkGate(action, { view: viewOf(row), force: false, hasContext: true, endpoint: null })
            .ok
        );
      if (actions.length === 0) {
        base.report(`tma: no action is fireable at ${row.pane} on ${spec.name} now`);
        return;
      }
      const server = await ctx.server();
      const client = await actingClient(server, hints());
      const g = ctx.globals;
      const tma = [
        ...selfArgv(),
        ...(g.socketPath ? ["--socket-path", g.socketPath] : []),
        ...(g.socketName ? ["--socket-name", g.socketName] : []),
        ...(g.noConfig ? ["--no-config"] : g.config ? ["--config", g.config] : []),
        // `--host=NAME` in one word, so the command word after it is still found (C3).
        `--host=${spec.name}`,
      ];
      await showMenu(server, {
        pane: client.pane,
        client: client.name,
        title: `tma: ${row.agent} ${row.pane} on ${spec.name} (${sessionOfLocator(row.locator)})`,
        items: menuItems({ tma, pane: row.pane, actions }),
      });
    },
  };
}

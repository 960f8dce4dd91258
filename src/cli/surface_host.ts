/**
 * The host the picker and watch run on: what each effect of the update
 * function does, in terms of runtime helpers (R14). Only what the first
 * frame needs is imported here; the cycle, the broker and the fuzzy ranker
 * load after it is painted (D64).
 * @module
 */
import type { ClientFacts } from "../core/client.ts";
import type { AgentRow } from "../core/rows.ts";
import type { PaneFacts } from "../core/snapshot.ts";
import type { Selector } from "../core/selector.ts";
import { matches } from "../core/selector.ts";
import { sessionOfLocator } from "../core/jump.ts";
import { captureScreen, stampedRows, type SurfaceRead } from "../runtime/surface.ts";
import { Waker } from "../runtime/wake.ts";
import type { Refresher } from "../runtime/surface_refresh.ts";
import type { SurfaceHost } from "../ui/run.ts";
import type { CommandContext } from "./context.ts";

/** What a host is built from. */
export interface HostOptions {
  /** Leave this pane out (the picker's invoking pane, U29). */
  exclude?: string | null;
  /** Keep only these rows (the watch's selector, C68); the cycle still stamps every pane. */
  selector?: Selector;
  /** The acting client, when already known. */
  client?: ClientFacts | null;
  /** Where lines for after the surface closes go. */
  report(line: string): void;
  /** The first read, when the caller started it early (the picker, D64). */
  firstRead?: Promise<SurfaceRead>;
}

/** A host over the real server, with the rows and panes of its last read. */
export async function surfaceHost(
  ctx: CommandContext,
  options: HostOptions,
): Promise<SurfaceHost & { last: SurfaceRead }> {
  const server = await ctx.server();
  let refresher: Refresher | null = null;
  const keep = (read: SurfaceRead): AgentRow[] => {
    host.last = read;
    return read.rows.filter((r) =>
      r.pane !== options.exclude &&
      (!options.selector || matches(r, options.selector, sessionOfLocator(r.locator)))
    );
  };
  const hints = (panes: readonly PaneFacts[]) => {
    const pane = ctx.env("TMUX_PANE") || undefined;
    return {
      explicit: ctx.globals.client ?? options.client?.name,
      pane,
      paneSession: pane ? panes.find((p) => p.paneId === pane)?.sessionName : undefined,
      tmux: ctx.env("TMUX") || undefined,
    };
  };
  const host: SurfaceHost & { last: SurfaceRead } = {
    last: { rows: [], panes: [] },
    waker: new Waker(),
    now: ctx.now,
    report: options.report,
    stamped: async () => keep(await (options.firstRead ?? stampedRows(server, ctx.now()))),
    refresh: async () => {
      if (!refresher) {
        const { Refresher } = await import("../runtime/surface_refresh.ts");
        refresher = new Refresher({
          server,
          env: ctx.env,
          configFlag: ctx.globals.config,
          noConfig: ctx.globals.noConfig,
          manifestDir: ctx.globals.manifestDir,
          now: ctx.now,
          warn: options.report,
        });
      }
      return keep(await refresher.refresh());
    },
    invokingSession: () => {
      if (options.client) return options.client.sessionName;
      const pane = ctx.env("TMUX_PANE");
      return host.last.panes.find((p) => p.paneId === pane)?.sessionName ?? null;
    },
    capture: (pane) => captureScreen(server, pane),
    jump: async (pane) => {
      const { jump } = await import("../runtime/jump.ts");
      const { rows, panes } = host.last;
      const result = await jump(server, {
        mode: "pane",
        pane,
        rows,
        scoped: rows,
        panes,
        hints: hints(panes),
      });
      if (result.note) options.report(`tma: ${result.note}`);
    },
    menu: async (pane) => {
      const [{ brokerEnv, showActionMenu }, { actingClient }] = await Promise.all([
        import("./action_menu.ts"),
        import("../runtime/jump.ts"),
      ]);
      const env = await brokerEnv(ctx);
      const client = await actingClient(server, hints(host.last.panes));
      await showActionMenu(ctx, env, {
        pane,
        actions: (await ctx.manifests()).actions,
        client: client.name,
      });
    },
    ranker: async () => (await import("../core/fuzzy.ts")).fzfRanker(),
  };
  return host;
}

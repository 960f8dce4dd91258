/**
 * One tick of a waiting surface (`wait`, `subscribe`): the config and
 * manifests re-read (G4, M26), one listing cycle (its process table reused
 * while the panes show no change, `waiter_snapshot.ts`), a tmux stall turned
 * into a skipped tick with one stderr note, and a vanished server into the
 * end of the wait (C40).
 * @module
 */
import type { Selector } from "../core/selector.ts";
import { listAgents, type Listing } from "../runtime/cycle/listing.ts";
import { LiveSettings } from "../runtime/live_settings.ts";
import { WaiterSnapshots } from "../runtime/waiter_snapshot.ts";
import { TmuxNoServerError, TmuxTimeoutError } from "../tmux/errors.ts";
import type { CommandContext } from "./context.ts";

/** What one tick gave: a listing, a skipped tick, or the end (no server). */
export type TickResult = Listing | "stalled" | "no-server";

/** The cycles of one waiting command. */
export class WaiterCycles {
  readonly #ctx: CommandContext;
  readonly #name: string;
  readonly #live: LiveSettings;
  readonly #options: { selector?: Selector; git: boolean };
  #snapshots: WaiterSnapshots | null = null;
  #first = true;
  #stallNoted = false;

  constructor(
    ctx: CommandContext,
    name: string,
    options: { selector?: Selector; git: boolean },
  ) {
    this.#ctx = ctx;
    this.#name = name;
    this.#options = options;
    this.#live = new LiveSettings({
      globals: ctx.globals,
      env: ctx.env,
      warn: (line) => ctx.err(`${line}\n`),
    });
  }

  /** Runs this tick's cycle. A vanished server is reported on stderr here. */
  async next(): Promise<TickResult> {
    const ctx = this.#ctx;
    const first = this.#first;
    this.#first = false;
    try {
      const server = await ctx.server();
      this.#snapshots ??= new WaiterSnapshots(server, { now: ctx.now });
      const { config, models } = await this.#live.load();
      // The first cycle's snapshot was started before the command loaded (D64);
      // later ones reuse the process table while nothing in the panes moved.
      const snapshot = first
        ? await this.#snapshots.adopt(await ctx.snapshot())
        : await this.#snapshots.next();
      return await listAgents({
        server,
        config,
        models,
        now: ctx.now,
        selector: this.#options.selector,
        git: this.#options.git,
        // Later ticks skip a cycle another producer ran this second (D53).
        stampedeGuard: !first,
        snapshot,
        notify: { env: ctx.env },
      });
    } catch (error) {
      if (error instanceof TmuxNoServerError) {
        ctx.err(`tma: ${this.#name}: ${error.message}\n`);
        return "no-server";
      }
      if (!(error instanceof TmuxTimeoutError)) throw error;
      if (!this.#stallNoted) ctx.err(`tma: ${this.#name}: ${error.message}; skipping a cycle\n`);
      this.#stallNoted = true;
      return "stalled";
    }
  }
}

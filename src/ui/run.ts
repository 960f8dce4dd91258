/**
 * Runs a surface on the terminal: paints the first frame from the rows the
 * host reads off the stamps, then feeds the pure update function keys,
 * mouse events, resizes, ticks and nudges, and carries out its effects
 * through the host (which reaches tmux only through runtime helpers, R14).
 * @module
 */
import type { Ranker } from "../core/fuzzy.ts";
import type { AgentRow } from "../core/rows.ts";
import type { Waker } from "../runtime/wake.ts";
import {
  type Effect,
  initSurface,
  type SurfaceInit,
  type SurfaceModel,
  type SurfaceMsg,
  update,
} from "../ui_core/surface.ts";
import { view } from "../ui_core/view.ts";
import { decodeInput } from "./keys.ts";
import { Terminal } from "./terminal.ts";

/** What a surface asks of the world. */
export interface SurfaceHost {
  /** The rows the stamps on the server show now (the first frame, U32). */
  stamped(): Promise<AgentRow[]>;
  /** A full refresh: one guarded cycle, then the rows. */
  refresh(): Promise<AgentRow[]>;
  /** The visible screen of a pane with its colours, or null. */
  capture(pane: string): Promise<string | null>;
  /** Moves the acting client to the pane and clears its attention (D60). */
  jump(pane: string): Promise<void>;
  /** Opens the action menu for the pane (A38). */
  menu(pane: string): Promise<void>;
  /** The fuzzy ranker, loaded on demand. */
  ranker(): Promise<Ranker>;
  /** The sleeper the refresh ticks wait on; nudges cut a sleep short. */
  waker: Waker;
  now(): number;
  /** The invoking pane's session, once the first read is in (for `ctrl-s`). */
  invokingSession?(): string | null;
  /** Called once the first frame is on screen (the watch advertises its pid then). */
  started?(): Promise<void>;
  /** Receives a line to print after the surface closes (C73). */
  report(line: string): void;
  /** The fleet's unreachable hosts, one line each, after each read (X9). */
  notes?(): string[];
}

/** How often a surface refreshes (U32, U35). */
export const REFRESH_MS = 1000;

/** Runs until the surface quits; returns the exit code. */
export async function runSurface(
  host: SurfaceHost,
  init: Omit<SurfaceInit, "width" | "height" | "nowMs"> & { refreshMs?: number },
): Promise<number> {
  const term = new Terminal();
  term.open();
  let { width, height } = term.size();
  let model: SurfaceModel = initSurface({ ...init, width, height, nowMs: host.now() });
  let quit: () => void = () => {};
  const finished = new Promise<void>((resolve) => (quit = resolve));
  let done = false;
  let rankerLoad: Promise<void> | null = null;

  const paint = () => {
    if (!done) term.paint(view(model));
  };
  const dispatch = async (msg: SurfaceMsg): Promise<void> => {
    if (done) return;
    let effects: Effect[];
    [model, effects] = update(model, msg);
    paint();
    for (const effect of effects) await perform(effect);
  };
  const perform = async (effect: Effect): Promise<void> => {
    switch (effect.type) {
      case "refresh":
        host.refresh().then(
          (rows) =>
            dispatch({ type: "rows", rows, nowMs: host.now(), fresh: true, notes: host.notes?.() }),
          (error) => {
            host.report(`tma: refresh failed: ${error instanceof Error ? error.message : error}`);
            return dispatch({ type: "rows", rows: model.rows, nowMs: host.now(), fresh: true });
          },
        );
        return;
      case "capture":
        host.capture(effect.pane).then((text) =>
          text === null ? undefined : dispatch({ type: "preview", pane: effect.pane, text })
        ).catch(() => undefined);
        return;
      case "jump":
        await host.jump(effect.pane).catch((error) =>
          host.report(`tma: ${error instanceof Error ? error.message : error}`)
        );
        return;
      case "menu":
        await host.menu(effect.pane).catch((error) =>
          host.report(`tma: ${error instanceof Error ? error.message : error}`)
        );
        return;
      case "quit":
        done = true;
        quit();
        return;
    }
  };
  const loadRanker = () => {
    rankerLoad ??= host.ranker().then((rank) => dispatch({ type: "ranker", rank }));
    return rankerLoad;
  };

  const signals: [Deno.Signal, () => void][] = [
    ["SIGWINCH", () => {
      ({ width, height } = term.size());
      term.invalidate();
      dispatch({ type: "resize", width, height });
    }],
    ["SIGTERM", () => void perform({ type: "quit" })],
    ["SIGHUP", () => void perform({ type: "quit" })],
    ["SIGINT", () => void perform({ type: "quit" })],
  ];
  try {
    // The first frame: the stamps as they stand, before any detection (U32).
    const stamped = await host.stamped().catch(() => [] as AgentRow[]);
    await dispatch({
      type: "rows",
      rows: stamped,
      nowMs: host.now(),
      fresh: false,
      invokingSession: host.invokingSession?.(),
      notes: host.notes?.(),
    });
    for (const [signal, handler] of signals) Deno.addSignalListener(signal, handler);
    await host.started?.();
    readInput(
      async (event) => {
        if (event.type === "key" && event.key.name === "char" && !model.rank) await loadRanker();
        await dispatch(event.type === "key" ? event : { type: "mouse", event: event.event });
      },
      () => void perform({ type: "quit" }),
    );
    void dispatch({ type: "tick", nowMs: host.now() });
    void loadRanker();
    void (async () => {
      while (!done) {
        const reason = await Promise.race([
          host.waker.sleep(init.refreshMs ?? REFRESH_MS),
          finished,
        ]);
        if (done) break;
        await dispatch(
          reason === "tick"
            ? { type: "tick", nowMs: host.now() }
            : { type: "nudge", nowMs: host.now() },
        );
      }
    })();
    await finished;
  } finally {
    done = true;
    for (const [signal, handler] of signals) {
      try {
        Deno.removeSignalListener(signal, handler);
      } catch {
        // Not added (the first frame failed).
      }
    }
    term.close();
  }
  return 0;
}

/** Reads the terminal until it closes, decoding each chunk. */
function readInput(
  onEvent: (event: ReturnType<typeof decodeInput>["events"][number]) => Promise<void>,
  onClose: () => void,
): void {
  void (async () => {
    const buffer = new Uint8Array(4096);
    const decoder = new TextDecoder();
    let rest = "";
    try {
      while (true) {
        const n = await Deno.stdin.read(buffer);
        if (n === null) break;
        const decoded = decodeInput(decoder.decode(buffer.subarray(0, n), { stream: true }), rest);
        rest = decoded.rest;
        for (const event of decoded.events) await onEvent(event);
      }
    } catch {
      // The terminal went away.
    }
    onClose();
  })();
}

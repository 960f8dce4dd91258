/**
 * Attention cleared by navigation (C102, D57), the tmux side: find the pane
 * just left from the hook kind, then unset `@agent_attention` on it and on
 * the arrival pane. One listing and at most one write.
 * @module
 */
import { type DepartedScope, departedScope } from "../core/hook/attention.ts";
import { runTmux, type TmuxServer } from "../tmux/exec.ts";
import { serverFromGlobals } from "../tmux/server.ts";
import { writeChains } from "../tmux/writer.ts";
import { commandLines } from "../tmux/ps.ts";
import { loadHookSettings } from "./hook/load.ts";
import type { EnvReader } from "./paths.ts";

/** Options of `clearAttention`. */
export interface ClearAttentionOptions {
  /** The arrival pane (`#{pane_id}` as the tmux hook expanded it). */
  pane: string;
  /** `TMA_HOOK_KIND`: which tmux hook fired, when known (G34). */
  kind?: string;
}

/**
 * Clears attention on the arrival pane and the departed one. Returns the
 * panes whose flag it cleared.
 *
 * ```ts
 * const server = { bin: "tmux", socketName: "work" };
 * await clearAttention(server, { pane: "%4", kind: "after-select-pane" }); // ["%4", "%2"]
 * ```
 */
export async function clearAttention(
  server: TmuxServer,
  options: ClearAttentionOptions,
): Promise<string[]> {
  const scope = departedScope(options.kind);
  if (scope === "skip") return [];
  const { flagged, watchers } = await flaggedPanes(server, { pane: options.pane, scope });
  if (flagged.length > 0) {
    await writeChains(
      server,
      flagged.map((pane) => ({ pane, writes: [{ name: "@agent_attention", value: null }] })),
    );
  }
  await nudgeWatchers(watchers);
  return flagged;
}

/** The marker of the watcher lines in the listing's output. */
const WATCH_MARK = "tma-watch";

/**
 * Sends SIGUSR1 to every advertised watcher (U17), so it refreshes within
 * about 200 ms. A pid whose process is not a `tma watch` (a watcher killed
 * without withdrawing, its pid since reused) is left alone: SIGUSR1 would
 * end an unrelated process. One `ps`, only when some pane advertises one.
 */
export async function nudgeWatchers(pids: readonly number[]): Promise<void> {
  const live = [...new Set(pids)].filter((pid) => Number.isSafeInteger(pid) && pid > 0);
  if (live.length === 0) return;
  const lines = await commandLines(live);
  for (const pid of live) {
    if (!(lines.get(pid) ?? "").split(/\s+/).includes("watch")) continue;
    try {
      Deno.kill(pid, "SIGUSR1");
    } catch {
      // Gone since the listing.
    }
  }
}

/** The arrival and departed panes that carry the flag now. */
async function flaggedPanes(
  server: TmuxServer,
  options: { pane: string; scope: DepartedScope },
): Promise<{ flagged: string[]; watchers: number[] }> {
  // `pane_last` marks the window's previously active pane; `window_last_flag`
  // the session's previous window, whose active pane is the one left.
  const listing = options.scope === "none"
    ? ["display-message", "-p", "-t", options.pane, "#{pane_id} 1 1 #{@agent_attention}"]
    : options.scope === "window"
    ? ["list-panes", "-t", options.pane, "-F", "#{pane_id} #{pane_last} 1 #{@agent_attention}"]
    : [
      "list-panes",
      "-s",
      "-t",
      options.pane,
      "-F",
      "#{pane_id} #{window_last_flag} #{pane_active} #{@agent_attention}",
    ];
  // The watchers' pids come in the same call, listed first so a vanished
  // arrival pane cannot stop them (U17).
  const { stdout: all, code } = await runTmux(
    server,
    ["list-panes", "-a", "-F", `${WATCH_MARK} #{@tma_watch_pid}`, ";", ...listing],
    { allowFailure: true },
  );
  const lines = all.split("\n");
  const watchers = lines.filter((l) => l.startsWith(`${WATCH_MARK} `)).map((l) =>
    Number(l.slice(WATCH_MARK.length + 1))
  ).filter((pid) => pid > 0);
  const stdout = lines.filter((l) => !l.startsWith(`${WATCH_MARK} `)).join("\n");
  if (code !== 0) return { flagged: [], watchers };
  const arrival = options.scope === "none" ? null : await paneId(server, options.pane);
  const out: string[] = [];
  for (const line of stdout.split("\n")) {
    const [id, last, active, attention] = line.split(" ");
    if (!id || attention !== "1") continue;
    const isArrival = options.scope === "none" || id === arrival;
    const isDeparted = last === "1" && active === "1";
    if (isArrival || isDeparted) out.push(id);
  }
  return { flagged: out, watchers };
}

/** The id of a pane named by id or target. */
async function paneId(server: TmuxServer, pane: string): Promise<string | null> {
  if (/^%\d+$/.test(pane)) return pane;
  const { stdout, code } = await runTmux(server, [
    "display-message",
    "-p",
    "-t",
    pane,
    "#{pane_id}",
  ], {
    allowFailure: true,
  });
  return code === 0 ? stdout.trim() : null;
}

/** One `tma clear-attention` invocation. */
export interface ClearAttentionRequest {
  pane: string;
  globals: { socketName?: string; socketPath?: string; config?: string; noConfig?: boolean };
  env: EnvReader;
}

/**
 * Resolves the server from the flags, env and the config's `[tmux] bin`
 * (read without the full schema, as the hook intake does), then clears.
 */
export async function runClearAttention(request: ClearAttentionRequest): Promise<void> {
  const settings = await loadHookSettings({
    flag: request.globals.config,
    disabled: request.globals.noConfig,
    env: request.env,
  });
  const server = serverFromGlobals(request.globals, {
    env: request.env,
    configBin: settings.tmuxBin,
  });
  await clearAttention(server, {
    pane: request.pane,
    kind: request.env("TMA_HOOK_KIND") || undefined,
  });
}

/**
 * The read-only server facts `tma doctor` and `tma init` look at: version,
 * the global `status`, `mouse` and `status-right` options, tma's root-table
 * mouse bindings, attached clients and running watchers. One tmux call;
 * nothing is written (no poll mark, no option).
 * @module
 */
import { readMarkers, runTmux, type TmuxServer } from "./exec.ts";

/** What `readServerFacts` returns. */
export interface ServerFacts {
  version: string;
  statusOn: boolean;
  mouseOn: boolean;
  statusRight: string;
  /** Root-table bindings that run tma (the `--mouse` group, U38). */
  tmaRootBindings: number;
  clients: number;
  /** `@tma_watch_pid` values advertised by watch panes (P36). */
  watchPids: number[];
}

/**
 * Reads the facts in one batch of tmux commands, each output delimited by a
 * marker line; never starts a server. Throws the typed tmux errors (no server, no tmux, timeout).
 *
 * ```ts
 * const facts = await readServerFacts({ bin: "tmux", socketName: "work" });
 * facts.statusOn; // true unless `status off`
 * ```
 */
export async function readServerFacts(server: TmuxServer): Promise<ServerFacts> {
  const nonce = `tma-facts-${crypto.randomUUID().slice(0, 8)}`;
  const mark = (i: number) => ["display-message", "-p", `${nonce}:${i}`];
  const parts: string[][] = [
    ["display-message", "-p", "#{version}"],
    ["show-options", "-gv", "status"],
    ["show-options", "-gv", "mouse"],
    ["show-options", "-gv", "status-right"],
    ["list-keys", "-T", "root"],
    ["list-clients", "-F", "#{client_name}"],
    ["list-panes", "-a", "-F", "#{@tma_watch_pid}"],
  ];
  // -N: show-options and list-keys would start a server where none runs.
  const args = ["-N", ...parts.flatMap((part, i) => [...part, ";", ...mark(i), ";"]).slice(0, -1)];
  const { stdout } = await runTmux(server, args);
  const markers = readMarkers(stdout, nonce);
  const section = (i: number) => markers.find((m) => m.index === i)?.body ?? [];
  const first = (i: number) => section(i)[0] ?? "";
  return {
    version: first(0).trim(),
    statusOn: first(1).trim() !== "off",
    mouseOn: first(2).trim() === "on",
    statusRight: section(3).join("\n"),
    tmaRootBindings: section(4).filter((line) => /\btma\b/.test(line)).length,
    clients: section(5).filter((line) => line.trim() !== "").length,
    watchPids: section(6).map(Number).filter((pid) => Number.isSafeInteger(pid) && pid > 0),
  };
}

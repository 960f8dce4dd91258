/**
 * How a remote row is told apart from a local one where a surface keys
 * rows by pane id (the picker's and the watch's selection, `wait`'s pins,
 * `subscribe`'s edges, `ls`'s plain pane column): `%3@build` is pane `%3` of
 * host `build`. A tmux pane id never holds `@`, so a local row keeps its
 * plain id and every local behaviour stays as it was. Pure.
 *
 * ```ts
 * fleetKey("build", "%3"); // "%3@build"
 * parseFleetKey("%3@build"); // { pane: "%3", host: "build" }
 * parseFleetKey("%3"); // null
 * ```
 * @module
 */
import type { AgentRow } from "../rows.ts";

/** The key of pane `pane` on host `host`. */
export function fleetKey(host: string, pane: string): string {
  return `${pane}@${host}`;
}

/** The pane and host of a remote key, or null for a local pane id. */
export function parseFleetKey(key: string): { pane: string; host: string } | null {
  const at = key.indexOf("@");
  if (at < 0) return null;
  return { pane: key.slice(0, at), host: key.slice(at + 1) };
}

/** Whether a row came from a `[[host]]` (its `host` is one of the configured names). */
export function isRemote(row: Pick<AgentRow, "host">, hosts: ReadonlySet<string>): boolean {
  return hosts.has(row.host);
}

/**
 * A remote row as a surface keys and shows it: its pane id becomes its
 * fleet key and its locator names the host (`build:main:1.0`). Local rows
 * pass unchanged.
 */
export function keyedRow<T extends AgentRow>(row: T, hosts: ReadonlySet<string>): T {
  if (!isRemote(row, hosts)) return row;
  return { ...row, pane: fleetKey(row.host, row.pane), locator: `${row.host}:${row.locator}` };
}

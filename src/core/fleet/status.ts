/**
 * `tma status --all-hosts` and `--host` (X9): the counts of every live row
 * of the fleet in the formats of C20-C23, followed by a mark for each host
 * that is not live: `✗build` for one that failed or went silent, `…build`
 * for one not read yet. Pure.
 *
 * ```ts
 * import { defaultConfig } from "../config/schema.ts";
 * const view = { rows: [], hosts: [{ name: "build", reachable: false, error: "refused", last_ok_ms: null, age_ms: null, agents: 0 }] };
 * renderFleetStatus(view, { format: "plain", styles: defaultConfig().status, nowMs: 0 }); // "✗build"
 * ```
 * @module
 */
import type { Config } from "../config/schema.ts";
import { classOf } from "../state.ts";
import { countClasses, renderJson, renderPlain, renderProm, renderTmux } from "../status_render.ts";
import { type FleetView, type HostLine, pendingHost } from "./view.ts";

/** The status formats (C20-C23). */
export type StatusFormat = "tmux" | "plain" | "json" | "prom";

/** How a fleet status is drawn. */
export interface FleetStatusOptions {
  format: StatusFormat;
  styles: Config["status"];
  nowMs: number;
}

/** The glyph of a host that is not live: failed or silent, or not read yet. */
function markOf(line: HostLine): string {
  return `${pendingHost(line) ? "…" : "✗"}${line.name}`;
}

function promLabel(value: string): string {
  return value.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\n");
}

/** The status text of a fleet view in one format. */
export function renderFleetStatus(view: FleetView, options: FleetStatusOptions): string {
  const counts = countClasses(view.rows);
  const down = view.hosts.filter((h) => !h.reachable);
  switch (options.format) {
    case "json": {
      const body = JSON.parse(renderJson(counts));
      return `${JSON.stringify({ ...body, hosts: view.hosts })}\n`;
    }
    case "plain":
      return [renderPlain(counts, options.styles), ...down.map(markOf)].filter((s) => s !== "")
        .join(" ");
    case "prom": {
      const lines = renderProm([], options.nowMs).split("\n").slice(0, 2);
      const classes = Object.entries(counts).map(([c, n]) => `tma_agents{state="${c}"} ${n}`);
      return [
        ...lines,
        ...classes,
        "# HELP tma_agent_state_seconds Seconds each agent pane has been in its state.",
        "# TYPE tma_agent_state_seconds gauge",
        ...view.rows.map((row) => {
          const seconds = row.since_ms === null
            ? 0
            : Math.max(0, (options.nowMs - row.since_ms) / 1000);
          const labels = `host="${promLabel(row.host)}",pane="${promLabel(row.pane)}",agent="${
            promLabel(row.agent)
          }",state="${classOf(row.state, row.attention)}"`;
          return `tma_agent_state_seconds{${labels}} ${seconds.toFixed(3)}`;
        }),
        "# HELP tma_host_up Whether a host answered within its deadline (1) or not (0).",
        "# TYPE tma_host_up gauge",
        ...view.hosts.map((h) => `tma_host_up{host="${promLabel(h.name)}"} ${h.reachable ? 1 : 0}`),
        "",
      ].join("\n");
    }
    default: {
      const color = options.styles.unknown.color;
      return [
        renderTmux(counts, options.styles),
        ...down.map((h) => `#[fg=${color}]${markOf(h)}#[fg=default]`),
      ].filter((s) => s !== "").join(" ");
    }
  }
}

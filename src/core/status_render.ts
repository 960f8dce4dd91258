/**
 * `tma status` output: counts per class in the fixed order blocked, working,
 * done, idle, unknown (C20-C23).
 * @module
 */
import type { Config } from "./config/schema.ts";
import type { AgentRow } from "./rows.ts";
import { CLASSES, classOf, type StateClass } from "./state.ts";

/** Counts per class; `done` and `idle` are disjoint, so they sum to the rows. */
export type ClassCounts = Record<StateClass, number>;

/** Counts the rows per class. */
export function countClasses(rows: readonly AgentRow[]): ClassCounts {
  const counts = Object.fromEntries(CLASSES.map((c) => [c, 0])) as ClassCounts;
  for (const row of rows) counts[classOf(row.state, row.attention)]++;
  return counts;
}

/**
 * The tmux format: each non-zero class as glyph plus count in its colour,
 * wrapped in a `range=user|tma:<class>` so a click can resolve it; nothing
 * for no agents; no trailing newline.
 */
export function renderTmux(counts: ClassCounts, styles: Config["status"]): string {
  return CLASSES.filter((c) => counts[c] > 0).map((c) =>
    `#[range=user|tma:${c}]#[fg=${styles[c].color}]${styles[c].glyph}${
      counts[c]
    }#[fg=default]#[norange]`
  ).join(" ");
}

/** The same glyphs and counts without colour or ranges (C21). */
export function renderPlain(counts: ClassCounts, styles: Config["status"]): string {
  return CLASSES.filter((c) => counts[c] > 0).map((c) => `${styles[c].glyph}${counts[c]}`).join(
    " ",
  );
}

/** `{"schema":1,"counts":{...}}` with every class present (C22, P60). */
export function renderJson(counts: ClassCounts): string {
  return JSON.stringify({ schema: 1, counts });
}

function promLabel(value: string): string {
  return value.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\n");
}

/** Prometheus text exposition with two gauge families (C23). */
export function renderProm(rows: readonly AgentRow[], nowMs: number): string {
  const counts = countClasses(rows);
  const lines = [
    "# HELP tma_agents Agent panes per state class.",
    "# TYPE tma_agents gauge",
    ...CLASSES.map((c) => `tma_agents{state="${c}"} ${counts[c]}`),
    "# HELP tma_agent_state_seconds Seconds each agent pane has been in its state.",
    "# TYPE tma_agent_state_seconds gauge",
    ...rows.map((row) => {
      const seconds = row.since_ms === null ? 0 : Math.max(0, (nowMs - row.since_ms) / 1000);
      const labels = `pane="${promLabel(row.pane)}",agent="${promLabel(row.agent)}",state="${
        classOf(row.state, row.attention)
      }"`;
      return `tma_agent_state_seconds{${labels}} ${seconds.toFixed(3)}`;
    }),
  ];
  return `${lines.join("\n")}\n`;
}

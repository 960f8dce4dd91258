/**
 * The push half of context telemetry: one payload forwarded by an agent's
 * statusline shim or extension (`tma event --kind context`) becomes guarded
 * option writes on its pane (I8, I18-I21, I56, I57, I64, I65).
 *
 * This runs inside an agent's hook, so it stays small: one parse, one
 * `display-message` to read the pane, one write. No dax, no manifest loading
 * (the caller passes the one manifest it already has), no other agents.
 *
 * ```ts
 * import { intakeContext } from "./intake.ts";
 * import { bundledManifests } from "../manifest/load.ts";
 * await intakeContext({
 *   server: { bin: "tmux" },
 *   pane: "%3",
 *   manifest: bundledManifests().agents.get("claude")!, // the caller's one manifest
 *   payload: '{"session_id":"s1","context_window":{"used_percentage":78}}',
 *   nowMs: Date.now(),
 * });
 * ```
 * @module
 */
import type { ParsedAgentManifest } from "../../core/manifest/parse.ts";
import type { TelemetryReading } from "../../core/telemetry/reading.ts";
import { parseTelemetry } from "../../core/telemetry/registry.ts";
import { acceptsAgent, acceptsSession } from "../../core/telemetry/session.ts";
import { formatCarriesTokens, planTelemetryWrites } from "../../core/telemetry/stamp_plan.ts";
import type { TmuxServer } from "../../tmux/exec.ts";
import { listPane } from "../../tmux/panes.ts";
import { writeChains } from "../../tmux/writer.ts";

/** Options of `intakeContext`. */
export interface IntakeContextOptions {
  /** The tmux server the pane lives on. */
  server: TmuxServer;
  /** The pane id (`$TMUX_PANE`, `%12`) or a locator; null reads the payload and stamps nothing. */
  pane: string | null;
  /** The manifest of the agent the payload came from; its `[telemetry.context]` picks the parser. */
  manifest: ParsedAgentManifest;
  /** The payload text as the shim forwarded it. */
  payload: string;
  /** Intake time in epoch ms: the evidence time of a pushed payload. */
  nowMs: number;
  /** Called with the parsed reading before any tmux call (the shim's own line, I7). */
  onReading?: (reading: TelemetryReading) => void;
}

/**
 * Stamps one pushed context payload onto its pane.
 *
 * Does nothing when the manifest has no `[telemetry.context]` block, when the
 * block's channel is not `event` (a `file-tail` channel is pulled by the
 * cycle, a `screen` channel has no payload), when the pane is gone, or when
 * the payload names a session other than the pane's `@agent_session` (a
 * subagent or background session, D44), or when the pane is registered to
 * another agent than the payload's (one run as a tool, D46). Writes go through the evidence-time
 * guards of `planTelemetryWrites`, so a payload older than the stored reading
 * is refused by the server.
 *
 * Throws `UnknownFormatError` for a format no parser is compiled in for and
 * `MalformedPayloadError` for a payload that is not its format's document;
 * nothing is written in either case, and logging it is the caller's business.
 * tmux errors (no server) propagate the same way.
 *
 * ```ts
 * import { bundledManifests } from "../manifest/load.ts";
 * const manifest = bundledManifests().agents.get("claude")!;
 * const payload = '{"session_id":"s1","context_window":{"used_percentage":78}}';
 * await intakeContext({ server: { bin: "tmux" }, pane: "%3", manifest, payload, nowMs: Date.now() });
 * ```
 */
export async function intakeContext(options: IntakeContextOptions): Promise<void> {
  const block = options.manifest.telemetry?.context;
  if (block === undefined || block.channel !== "event") return;
  // Parse before touching tmux: a refused payload costs no tmux call.
  const reading = parseTelemetry(block.format, options.payload, { nowMs: options.nowMs });
  options.onReading?.(reading);
  if (options.pane === null) return;
  const facts = await listPane(options.server, options.pane);
  if (facts === null) return;
  if (!acceptsSession(facts.options["@agent_session"], reading.sessionId)) return;
  if (!acceptsAgent(facts.options["@agent_name"], options.manifest.name)) return;
  const chains = planTelemetryWrites(facts.options, reading, {
    evidenceMs: options.nowMs,
    channelCarriesTokens: formatCarriesTokens(block.format),
  });
  if (chains.length === 0) return;
  // Target the pane by id: the listing resolved a locator once.
  const pane = facts.paneId;
  await writeChains(
    options.server,
    chains.map((chain) => ({ pane, guard: chain.guard, writes: chain.writes })),
  );
}

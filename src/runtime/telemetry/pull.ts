/**
 * The pull half of context telemetry: for a pane whose manifest declares
 * `[telemetry.context] channel = "file-tail"` with the `codex-rollout-jsonl`
 * format and that carries `@agent_session`, read the session's rollout tail
 * and plan guarded writes dated by the file's mtime (I29-I31).
 *
 * The cycle calls `pullTelemetry` once with its agent panes; a pane that does
 * not qualify costs a property check and nothing else.
 *
 * ```ts
 * import { pullTelemetry } from "./pull.ts";
 * import { bundledManifests } from "../manifest/load.ts";
 * const manifest = bundledManifests().agents.get("codex")!;
 * const options = { "@agent_session": "019f99c3-7c57-7963-98e9-f496a7978257" };
 * const pulled = await pullTelemetry([{ paneId: "%4", options, manifest }], { nowMs: Date.now() });
 * pulled.get("%4")?.chains; // guarded chains for the tmux writer
 * ```
 * @module
 */
import type { ParsedAgentManifest } from "../../core/manifest/parse.ts";
import type { PaneOptions } from "../../core/snapshot.ts";
import type { WriteChain } from "../../tmux/writer.ts";
import type { CodexRolloutReading, RolloutMemo } from "./codex_rollout.ts";
import { type EnvReader, homeDir } from "../paths.ts";

/** The one format a `file-tail` channel has a reader for today. */
const CODEX_FORMAT = "codex-rollout-jsonl";

/** A pane the cycle offers to the pull. */
export interface PullTarget {
  /** The pane id. */
  paneId: string;
  /** The pane's options as the cycle will leave them (its own writes applied). */
  options: PaneOptions;
  /** The manifest of the agent identified in the pane. */
  manifest: ParsedAgentManifest;
}

/** Options of a pull. */
export interface PullOptions {
  /** The current time in epoch ms (quota windows past their reset are dropped). */
  nowMs: number;
  /** Where `CODEX_HOME` and `HOME` are read; defaults to the process environment. */
  env?: EnvReader;
  /** The tail-read memo; defaults to the process-wide one. */
  memo?: RolloutMemo;
}

/** What a pull produced for one pane. */
export interface PulledTelemetry {
  /** Guarded chains (context lane, then quota lane), possibly empty. */
  chains: WriteChain[];
  /** The pane's options as they will read if the chains commit. */
  options: PaneOptions;
}

/**
 * Whether a pane is pulled: its manifest declares a `file-tail` context
 * channel with the Codex format, and it has a registered session to find the
 * file by.
 *
 * ```ts
 * import { bundledManifests } from "../manifest/load.ts";
 * const codexManifest = bundledManifests().agents.get("codex")!;
 * wantsPull(codexManifest, { "@agent_session": "019f99c3-7c57-7963-98e9-f496a7978257" }); // true
 * ```
 */
export function wantsPull(manifest: ParsedAgentManifest, options: PaneOptions): boolean {
  const block = manifest.telemetry?.context;
  if (block === undefined || block.channel !== "file-tail" || block.format !== CODEX_FORMAT) {
    return false;
  }
  const session = options["@agent_session"];
  return session !== undefined && session !== "";
}

/**
 * Reads one Codex pane's rollout tail and plans its writes. Evidence time is
 * the file's mtime; Codex panes never get a token count (I30); the model
 * comes from the newest `turn_context` (I31). A miss (no file, no
 * `token_count` record, an unreadable tree) yields no chains: absent beats
 * wrong, and a telemetry read never fails the cycle.
 *
 * ```ts
 * import { bundledManifests } from "../manifest/load.ts";
 * const manifest = bundledManifests().agents.get("codex")!;
 * const options = { "@agent_session": "019f99c3-7c57-7963-98e9-f496a7978257" };
 * const chains = await pullCodexTelemetry({ paneId: "%4", options, manifest }, { nowMs: Date.now() });
 * ```
 */
export async function pullCodexTelemetry(
  target: PullTarget,
  opts: PullOptions,
): Promise<WriteChain[]> {
  if (!wantsPull(target.manifest, target.options)) return [];
  const env = opts.env ?? ((name: string) => Deno.env.get(name));
  // Loaded on first use: the rollout parser brings zod, which a cycle without
  // a Codex session must not pay for at start-up (D64).
  const { readCodexTelemetry } = await import("./codex_rollout.ts");
  let got: CodexRolloutReading | null;
  try {
    got = await readCodexTelemetry(target.options["@agent_session"]!, {
      codexHome: env("CODEX_HOME"),
      home: homeDir(env),
      nowMs: opts.nowMs,
      memo: opts.memo,
    });
  } catch {
    // A permission error or a tree changing under the walk: this cycle has no reading.
    return [];
  }
  if (got === null) return [];
  const { formatCarriesTokens, planTelemetryWrites } = await import(
    "../../core/telemetry/stamp_plan.ts"
  );
  return planTelemetryWrites(target.options, got.reading, {
    evidenceMs: got.evidenceMs,
    channelCarriesTokens: formatCarriesTokens(CODEX_FORMAT),
  }).map((chain) => ({ pane: target.paneId, guard: chain.guard, writes: chain.writes }));
}

/**
 * Pulls every qualifying pane concurrently. Returns an entry only for panes
 * that produced chains, so a cycle with no Codex pane gets an empty map
 * without any I/O.
 *
 * ```ts
 * declare const targets: PullTarget[]; // the cycle's agent panes
 * const pulled = await pullTelemetry(targets, { nowMs: Date.now() });
 * ```
 */
export async function pullTelemetry(
  targets: readonly PullTarget[],
  opts: PullOptions,
): Promise<Map<string, PulledTelemetry>> {
  const out = new Map<string, PulledTelemetry>();
  const wanted = targets.filter((target) => wantsPull(target.manifest, target.options));
  if (wanted.length === 0) return out;
  // The planner loads only when some pane is pulled: most cycles have none (D64).
  const { applyWrites } = await import("../../core/telemetry/stamp_plan.ts");
  const results = await Promise.all(wanted.map((target) => pullCodexTelemetry(target, opts)));
  wanted.forEach((target, i) => {
    const chains = results[i];
    if (chains.length === 0) return;
    const writes = chains.flatMap((chain) => chain.writes);
    out.set(target.paneId, { chains, options: applyWrites(target.options, writes) });
  });
  return out;
}

/**
 * The daemonless direct fire of `tma event` (U24, G11): loaded only when
 * `[notify] from_event` (or `TMA_NOTIFY_FROM_EVENT=1`) is on, after the
 * event's own guarded stamp committed. It reads the full config, hands the
 * stamp it just wrote to the dispatcher (whose claim re-checks it and reads
 * the marker back), and stands down when a live daemon serves the server.
 * The excerpt comes from the event's own payload, in this process's memory.
 *
 * ```ts
 * import type { PaneFacts } from "../../core/snapshot.ts";
 * import { parsePayload } from "../../core/hook/payload.ts";
 * declare const pane: PaneFacts;
 * await fireFromEvent({
 *   server: { bin: "tmux" }, env: (name) => Deno.env.get(name), config: {},
 *   pane, options: pane.options, payload: parsePayload("{}")!, claimsBlocked: true, now: Date.now,
 * });
 * ```
 * @module
 */
import type { ParsedAgentManifest } from "../../core/manifest/parse.ts";
import { excerptFromPayload } from "../../core/notify/excerpt.ts";
import type { HookPayload } from "../../core/hook/payload.ts";
import type { PaneFacts, PaneOptions } from "../../core/snapshot.ts";
import type { TmuxServer } from "../../tmux/exec.ts";
import { listPane } from "../../tmux/panes.ts";
import { loadConfig } from "../config/load.ts";
import type { EnvReader } from "../paths.ts";
import { dispatch, type FireReport } from "./dispatch.ts";
import { paneCandidates } from "./from_cycle.ts";
import { daemonServes } from "./who.ts";

/** Where the event's config comes from (`--config`, `--no-config`). */
export interface ConfigFlags {
  flag?: string;
  disabled?: boolean;
}

/** One committed hook stamp. */
export interface EventFire {
  server: TmuxServer;
  env: EnvReader;
  config: ConfigFlags;
  pane: PaneFacts;
  /** The pane's options once the event's stamp committed. */
  options: PaneOptions;
  payload: HookPayload;
  /** The event itself claimed `blocked`: its payload says what is asked. */
  claimsBlocked: boolean;
  now(): number;
}

/** Fires what the event's stamp calls for. */
export async function fireFromEvent(fire: EventFire): Promise<FireReport[]> {
  const config = await loadConfig({ ...fire.config, env: fire.env });
  const candidates = paneCandidates(fire.pane, fire.options, {
    config,
    covered: false,
    nowMs: fire.now(),
    direct: true,
  }).map((candidate) =>
    candidate.kind === "state" && candidate.due.trigger === "blocked" && fire.claimsBlocked
      ? { ...candidate, payloadExcerpt: excerptFromPayload(fire.payload.fields) }
      : candidate
  );
  if (candidates.length === 0) return [];
  if (await daemonServes(fire.pane.socketPath, fire.env)) return [];
  return await dispatch(candidates, { server: fire.server, config, env: fire.env, now: fire.now });
}

/** After `tma event --kind context` stamped a reading: the `context_high` step (U27). */
export async function fireContextFromEvent(fire: {
  server: TmuxServer;
  env: EnvReader;
  config: ConfigFlags;
  pane: string;
  manifest: ParsedAgentManifest;
  now(): number;
}): Promise<FireReport[]> {
  const config = await loadConfig({ ...fire.config, env: fire.env });
  if (!config.notify.context_high || !fire.manifest.telemetry?.context) return [];
  const pane = await listPane(fire.server, fire.pane);
  if (pane === null) return [];
  const candidates = paneCandidates(pane, pane.options, {
    config,
    covered: true,
    nowMs: fire.now(),
    direct: true,
  }).filter((candidate) => candidate.kind === "context");
  if (candidates.length === 0) return [];
  if (await daemonServes(pane.socketPath, fire.env)) return [];
  return await dispatch(candidates, { server: fire.server, config, env: fire.env, now: fire.now });
}

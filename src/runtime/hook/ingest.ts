/**
 * One raw event (kind and payload, never a precomputed state, R2) through the
 * hook intake: what the daemon does with a `TMA1` frame or a spool entry, and
 * what a direct `tma event` does with entries a dead daemon left queued.
 * @module
 */
import type { RawEvent } from "../../core/daemon_wire.ts";
import type { HookManifest } from "../../core/hook/hook_manifest.ts";
import { resolveHookAction } from "../../core/hook/mapping.ts";
import { parsePayload } from "../../core/hook/payload.ts";
import type { HookSettings } from "../../core/hook/settings.ts";
import type { TmuxServer } from "../../tmux/exec.ts";
import { ownsItsProcess } from "../../core/hook/owns_process.ts";
import { intakeEvent, type IntakeResult } from "./intake.ts";

/** What ingesting needs. */
export interface IngestContext {
  server: TmuxServer;
  settings: HookSettings;
  manifestOf(agent: string): Promise<HookManifest | null>;
  now(): number;
}

/** The outcome: refused (the hook stamps directly, D48), or taken with the intake's result. */
export type Ingested =
  | { taken: false; reason: string }
  | { taken: true; result: IntakeResult | null; reason: string };

/**
 * Maps and stamps one event. Refused when the loaded manifests cannot map it
 * (or it must answer in its own process); a payload that is not JSON is
 * taken and stamps nothing, as a direct `tma event` would.
 */
export async function ingestRawEvent(event: RawEvent, context: IngestContext): Promise<Ingested> {
  if (ownsItsProcess(event)) return { taken: false, reason: "answers in its own process" };
  if (context.settings.agents.some((a) => a.name === event.agent && !a.enabled)) {
    return { taken: true, result: null, reason: "agent disabled by [[agent]] in config" };
  }
  const manifest = await context.manifestOf(event.agent);
  if (manifest === null) return { taken: false, reason: `no manifest for ${event.agent}` };
  const payload = parsePayload(event.payload);
  if (payload === null) return { taken: true, result: null, reason: "payload is not JSON" };
  if (resolveHookAction(event.kind, { hooks: manifest.hooks, raw: payload.raw }) === null) {
    return { taken: false, reason: `${event.agent} ${event.kind} is not mapped` };
  }
  const result = await intakeEvent({
    server: context.server,
    agent: event.agent,
    kind: event.kind,
    pane: event.pane,
    payload,
    manifest,
    settings: context.settings,
    evidenceAtMs: event.firedAt,
    now: context.now,
  });
  return { taken: true, result, reason: result.note };
}

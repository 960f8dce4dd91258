/**
 * One raw event (kind and payload, never a precomputed state, R2) through
 * the intake, in a process other than the hook's own: what the daemon does
 * with a `TMA1` frame or a spool entry, and what the server's drainer (`tma
 * event --drain`) or a direct `tma event` does with queued entries. A
 * `context` event goes to the telemetry intake, every other one to the
 * hook intake.
 * @module
 */
import type { RawEvent } from "../../core/daemon_wire.ts";
import type { HookManifest } from "../../core/hook/hook_manifest.ts";
import { resolveHookAction } from "../../core/hook/mapping.ts";
import { type HookPayload, parsePayload } from "../../core/hook/payload.ts";
import type { HookSettings } from "../../core/hook/settings.ts";
import type { AgentProfile } from "../../core/identity.ts";
import type { ParsedAgentManifest } from "../../core/manifest/parse.ts";
import type { TmuxServer } from "../../tmux/exec.ts";
import { ownsItsProcess } from "../../core/hook/owns_process.ts";
import type { CommittedStamp, IntakeResult } from "./intake.ts";

/** What ingesting needs. */
export interface IngestContext {
  server: TmuxServer;
  settings: HookSettings;
  manifestOf(agent: string): Promise<HookManifest | null>;
  /**
   * The full manifest of an agent, for a `context` event's telemetry (I8);
   * without it context events are refused.
   */
  fullManifestOf?(agent: string): Promise<ParsedAgentManifest | null>;
  /** Another agent's identity, for the hand-over check (D46). */
  profileOf?(agent: string): Promise<AgentProfile | null>;
  now(): number;
  /** Runs once a hook stamp committed (the direct notification, U24). */
  afterCommit?(committed: CommittedStamp, payload: HookPayload): Promise<void>;
  /** Runs once a context payload was taken for a pane (the `context_high` check, U27). */
  afterContext?(pane: string, manifest: ParsedAgentManifest): Promise<void>;
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
  if (event.kind === "context") return await ingestContext(event, context);
  const manifest = await context.manifestOf(event.agent);
  if (manifest === null) return { taken: false, reason: `unknown agent ${event.agent}` };
  const payload = parsePayload(event.payload);
  if (payload === null) {
    return { taken: true, result: null, reason: "payload is not a JSON object" };
  }
  const action = resolveHookAction(event.kind, { hooks: manifest.hooks, raw: payload.raw });
  if (action === null) {
    return { taken: false, reason: `${event.agent} ${event.kind} is not mapped` };
  }
  const { intakeEvent } = await import("./intake.ts");
  const afterCommit = context.afterCommit;
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
    action,
    hookPid: event.hookPid,
    profileOf: context.profileOf,
    afterCommit: afterCommit && ((committed) => afterCommit(committed, payload)),
  });
  return { taken: true, result, reason: result.note };
}

/** A `context` event: the telemetry intake stamps the pane's reading (I8). */
async function ingestContext(event: RawEvent, context: IngestContext): Promise<Ingested> {
  const manifest = await context.fullManifestOf?.(event.agent) ?? null;
  if (manifest === null) return { taken: false, reason: `unknown agent ${event.agent}` };
  const { intakeContext } = await import("../telemetry/intake.ts");
  await intakeContext({
    server: context.server,
    pane: event.pane,
    manifest,
    payload: event.payload,
    nowMs: event.firedAt,
  });
  if (event.pane) await context.afterContext?.(event.pane, manifest);
  return { taken: true, result: null, reason: "context taken" };
}

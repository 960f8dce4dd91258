/**
 * What a hook event does besides its stamp, shared by a direct `tma event`
 * and the server's drainer (X10), so both paths behave the same: the
 * direct notification once a stamp committed (U24), and the identity of
 * another agent for the hand-over check (D46).
 * @module
 */
import type { HookManifest } from "../../core/hook/hook_manifest.ts";
import type { HookPayload } from "../../core/hook/payload.ts";
import type { AgentProfile } from "../../core/identity.ts";
import { profileOf } from "../../core/profile.ts";
import type { TmuxServer } from "../../tmux/exec.ts";
import type { EnvReader } from "../paths.ts";
import type { CommittedStamp } from "./intake.ts";

/** Where the direct notification reads its config and reports its failures. */
export interface NotifyContext {
  server: TmuxServer;
  env: EnvReader;
  config: { flag?: string; disabled?: boolean };
  now(): number;
  log(line: string): unknown;
}

/**
 * The `afterCommit` of a hook stamp with `[notify] from_event` on: only a
 * blocked pane, or an idle one with attention, can be due, so every other
 * event skips loading the dispatcher and the full config.
 */
export function notifyAfterCommit(
  context: NotifyContext,
): (committed: CommittedStamp, payload: HookPayload) => Promise<void> {
  return async (committed, payload) => {
    const state = committed.options["@agent_state"];
    const mayBeDue = state === "blocked" ||
      (state === "idle" && committed.options["@agent_attention"] === "1");
    if (!mayBeDue) return;
    const { fireFromEvent } = await import("../notify/from_event.ts");
    await fireFromEvent({
      server: context.server,
      env: context.env,
      config: context.config,
      pane: committed.pane,
      options: committed.options,
      payload,
      claimsBlocked: committed.claimed === "blocked",
      now: context.now,
    }).catch((error) => context.log(`notify: ${error instanceof Error ? error.message : error}`));
  };
}

/**
 * Another agent's identity by name, from its hook manifest (the pane's
 * registered agent, for the hand-over check); null when it has none.
 */
export function profileLoader(
  manifestOf: (agent: string) => Promise<HookManifest | null>,
): (agent: string) => Promise<AgentProfile | null> {
  return async (agent) => {
    const other = await manifestOf(agent);
    return other === null ? null : profileOf(other);
  };
}

/**
 * Act helpers for the integration tests: the bundled actions, pane options
 * set as an agent's hook would, and a broker environment over a scratch tmux
 * server. The recording stand-in the act tests aim at is `recorder.ts`.
 * @module
 */
import { buildModels } from "../../src/core/agent_model.ts";
import { configSchema } from "../../src/core/config/schema.ts";
import type { ParsedActionManifest } from "../../src/core/manifest/parse.ts";
import { bundledManifests } from "../../src/runtime/manifest/load.ts";
import type { BrokerEnv } from "../../src/actions/observe.ts";
import type { ScratchTmux } from "./tmux.ts";

/** Sets pane options as an agent's hook or telemetry would. */
export async function setOptions(
  t: ScratchTmux,
  pane: string,
  options: Record<string, string>,
): Promise<void> {
  for (const [name, value] of Object.entries(options)) {
    await t.tmux("set-option", "-p", "-t", pane, name, value);
  }
}

/** The bundled action manifests. */
export function bundledActions(): Map<string, ParsedActionManifest> {
  return bundledManifests().actions;
}

/** One bundled action by name. */
export function action(name: string): ParsedActionManifest {
  const found = bundledActions().get(name);
  if (!found) throw new Error(`no bundled action ${name}`);
  return found;
}

/** A broker environment over the scratch server with the bundled agents. */
export function brokerEnv(
  t: ScratchTmux,
  options: { config?: Record<string, unknown>; audit?: boolean } = {},
): BrokerEnv {
  const { agents } = bundledManifests();
  const config = configSchema.parse(options.config ?? {});
  return {
    server: t.server,
    config,
    agents,
    models: buildModels(agents.values(), config.agent),
    now: () => Date.now(),
    auditPath: options.audit ? `${t.home}/.local/state/tma/actions.jsonl` : null,
  };
}

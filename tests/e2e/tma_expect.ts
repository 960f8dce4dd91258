/**
 * What the bundled actions must do at each real agent, read from the action manifests themselves
 * (`manifests/actions/*.toml`), so the suite and the shipped tables cannot drift apart: an agent
 * under `[keys]` gets keystrokes (Claude's approve and deny go over its hook lane while a hook
 * holds the prompt), one under `[api]` gets OpenCode's API lane (which needs the endpoint its
 * plugin stamps, so only with hooks), and any other agent is refused `wrong-agent`.
 *
 * ```ts
 * import { actionAgents, expectedOutcome } from "./tma_expect.ts";
 * actionAgents("steer").has("gemini"); // false (I40)
 * expectedOutcome("deny", "opencode", "screen"); // { outcome: "refused", reason: "requires-unmet" }
 * ```
 * @module
 */

import { REPO_ROOT } from "./pins.ts";

/** `hooks`: tma's hooks installed before the agent starts; `screen`: none at all. */
export type Mode = "hooks" | "screen";

/** What one `tma act` must end with. */
export interface Expected {
  outcome: string;
  reason?: string;
  /** The exit code, when it matters. */
  code?: number;
}

/** The agents named under one table (`keys` or `api`) of an action manifest. */
function tableAgents(name: string, table: "keys" | "api"): Set<string> {
  const text = Deno.readTextFileSync(`${REPO_ROOT}/manifests/actions/${name}.toml`);
  const agents = new Set<string>();
  let inside = false;
  for (const line of text.split("\n")) {
    const header = /^\[([^\]]+)\]\s*$/.exec(line);
    if (header) {
      inside = header[1] === table;
      continue;
    }
    const key = /^([a-z][a-z0-9_-]*)\s*=/.exec(line);
    if (inside && key) agents.add(key[1]);
  }
  return agents;
}

/** Every agent an action has keys or an API op for. */
export function actionAgents(name: string): Set<string> {
  return new Set([...tableAgents(name, "keys"), ...tableAgents(name, "api")]);
}

/** The outcome `tma act <action>` must have at a pane of `agent` in `mode` that it gates on. */
export function expectedOutcome(action: string, agent: string, mode: Mode): Expected {
  if (tableAgents(action, "api").has(agent)) {
    return mode === "hooks"
      ? { outcome: "replied" }
      : { outcome: "refused", reason: "requires-unmet" };
  }
  if (!tableAgents(action, "keys").has(agent)) {
    return { outcome: "refused", reason: "wrong-agent", code: 4 };
  }
  const lane = agent === "claude" && mode === "hooks" &&
    (action === "approve" || action === "deny");
  return { outcome: lane ? "replied" : "sent" };
}

/** Whether an act result matches what was expected. */
export function matches(
  fired: { code: number; result?: { outcome: string; reason: string | null } },
  expected: Expected,
): boolean {
  return fired.result?.outcome === expected.outcome &&
    (expected.reason === undefined || fired.result?.reason === expected.reason) &&
    (expected.code === undefined || fired.code === expected.code);
}

/**
 * What the wiring looks like, read only: the verdict `install-hooks --check`
 * gives each agent, the tmux attention hooks' states, whether the wrapper
 * is there and which tma it would run. `tma doctor` and `tma init` read
 * this instead of deriving it again.
 * @module
 */
import type { EnvReader } from "../runtime/paths.ts";
import type { TmuxServer } from "../tmux/exec.ts";
import { type AgentCheck, inspectAgent } from "./agent_files.ts";
import { parseToml } from "../deps/toml.ts";
import { AGENT_NAMES, type AgentName, CODEX_EVENTS, STATUSLINE_AGENTS } from "./agents.ts";
import { exists, readOrNull } from "./files.ts";
import { checkAttentionHooks, type FocusHookCheck } from "./focus_hooks.ts";
import type { Launcher } from "./launcher.ts";
import type { InstallPaths } from "./paths.ts";
import { parseStatuslineState, STATUSLINE_STATE_FILE } from "./statusline_state.ts";
import { resolveWrapperRef, type WrapperStyle } from "./wrapper.ts";

/** What `inspectWiring` reads from. */
export interface InspectSources {
  paths: InstallPaths;
  launcher: Launcher;
  env: EnvReader;
  wrapperRef: WrapperStyle;
  focusEvents: boolean;
  /** The server whose hooks to check; undefined skips them. */
  server?: TmuxServer;
}

/** The wiring as it stands. */
export interface WiringView {
  agents: Record<AgentName, AgentCheck>;
  /** Per-hook states, or null when the server could not be read. */
  hooks: FocusHookCheck[] | null;
  wrapper: { path: string; present: boolean; tma: string | null };
  /** Why wired hooks would still not fire: agents' own gates (Codex trust, `[features]`). */
  gates: { agent: AgentName; text: string }[];
}

/** `PreToolUse` as Codex spells it in its trust keys: `pre_tool_use`. */
function snakeCase(event: string): string {
  return event.replace(/[A-Z]/g, (c, i) => `${i === 0 ? "" : "_"}${c.toLowerCase()}`);
}

/**
 * Codex's own gates on its hooks.json (real-agents.md): each entry fires
 * only once trusted, recorded in config.toml as
 * `[hooks.state."<hooks.json>:<event>:<i>:<j>"] trusted_hash`, and
 * `[features] hooks = false` turns hooks off altogether.
 */
export function codexGates(configText: string | null, hooksPath: string): string[] {
  let doc: Record<string, unknown> = {};
  try {
    doc = configText === null ? {} : parseToml(configText) as Record<string, unknown>;
  } catch {
    return []; // a broken config.toml is install-hooks --check's report
  }
  const gates: string[] = [];
  const features = doc.features as Record<string, unknown> | undefined;
  if (features?.hooks === false) {
    gates.push(
      "Codex hooks are switched off ([features] hooks = false in config.toml): set it to true",
    );
  }
  const state = ((doc.hooks as Record<string, unknown> | undefined)?.state ?? {}) as Record<
    string,
    { trusted_hash?: unknown }
  >;
  const trusted = CODEX_EVENTS.filter((event) =>
    Object.entries(state).some(([key, value]) =>
      key.startsWith(`${hooksPath}:${snakeCase(event)}:`) && typeof value?.trusted_hash === "string"
    )
  );
  if (trusted.length < CODEX_EVENTS.length) {
    gates.push(
      `Codex trusts ${trusted.length} of tma's ${CODEX_EVENTS.length} hook events in ` +
        `${hooksPath}: untrusted ones never fire; open Codex and choose "Trust all and ` +
        'continue" (or review them under /hooks)',
    );
  }
  return gates;
}

async function isExecutable(path: string): Promise<boolean> {
  try {
    const info = await Deno.stat(path);
    return info.isFile && ((info.mode ?? 0o755) & 0o111) !== 0;
  } catch {
    return false;
  }
}

/**
 * The tma the wrapper would run from this environment, in its own order:
 * `$TMA_BIN`, a `tma` beside the wrapper, then `tma` on PATH (I1).
 */
export async function wrapperTarget(wrapper: string, env: EnvReader): Promise<string | null> {
  const bin = env("TMA_BIN");
  if (bin && (await isExecutable(bin))) return bin;
  const real = await Deno.realPath(wrapper).catch(() => wrapper);
  const beside = `${real.slice(0, real.lastIndexOf("/"))}/tma`;
  if (await isExecutable(beside)) return beside;
  for (const dir of (env("PATH") ?? "").split(":")) {
    if (dir !== "" && (await isExecutable(`${dir}/tma`))) return `${dir}/tma`;
  }
  return null;
}

/**
 * Reads the wiring of every agent install-hooks knows, the tmux hooks and
 * the wrapper. Never writes.
 */
export async function inspectWiring(sources: InspectSources): Promise<WiringView> {
  const ref = await resolveWrapperRef({
    style: sources.wrapperRef,
    wrapperPath: sources.paths.wrapper,
    env: sources.env,
    strict: false,
  });
  const env = {
    paths: sources.paths,
    wrapperRef: ref.ref,
    launcher: sources.launcher,
    read: readOrNull,
    exists,
  };
  const statePath = `${sources.paths.configDir}/${STATUSLINE_STATE_FILE}`;
  const recorded = parseStatuslineState(await readOrNull(statePath), statePath);
  const agents = {} as Record<AgentName, AgentCheck>;
  for (const agent of AGENT_NAMES) {
    agents[agent] = await inspectAgent(agent, env, {
      statusline: STATUSLINE_AGENTS.includes(agent) && recorded[agent] !== "opted-out",
      recorded: recorded[agent],
    });
  }
  let hooks: FocusHookCheck[] | null = null;
  if (sources.server) {
    hooks = await checkAttentionHooks(sources.server, {
      launcher: sources.launcher,
      configDir: sources.paths.configDir,
      focusEvents: sources.focusEvents,
    }).catch(() => null);
  }
  const present = await exists(sources.paths.wrapper);
  const gates: WiringView["gates"] = [];
  if (agents.codex.state !== "absent") {
    const text = await readOrNull(sources.paths.codexConfig);
    for (const gate of codexGates(text, sources.paths.codexHooks)) {
      gates.push({ agent: "codex", text: gate });
    }
  }
  return {
    agents,
    hooks,
    gates,
    wrapper: {
      path: sources.paths.wrapper,
      present,
      tma: present ? await wrapperTarget(sources.paths.wrapper, sources.env) : null,
    },
  };
}

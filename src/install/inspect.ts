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
import { AGENT_NAMES, type AgentName, STATUSLINE_AGENTS } from "./agents.ts";
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
  return {
    agents,
    hooks,
    wrapper: {
      path: sources.paths.wrapper,
      present,
      tma: present ? await wrapperTarget(sources.paths.wrapper, sources.env) : null,
    },
  };
}

/**
 * Per agent, the files `install-hooks` changes and how (features.md I11,
 * I23, I33, I41, I51, I59): plans for install and uninstall, the `--check`
 * inspection, and whether an agent carries tma wiring at all (`--all`).
 * Planning only reads; nothing here writes.
 * @module
 */
import { BUNDLED_HOOKS } from "../assets/bundled.ts";
import {
  type AgentName,
  CLAUDE_EVENTS,
  CODEX_EVENTS,
  CURSOR_EVENTS,
  GEMINI_EVENTS,
} from "./agents.ts";
import { inspectClaudeHooks, installClaudeHooks, uninstallClaudeHooks } from "./claude_hooks.ts";
import { installCodexNotify, readNotify, uninstallCodexNotify } from "./codex_toml.ts";
import { inspectCursorHooks, installCursorHooks, uninstallCursorHooks } from "./cursor_hooks.ts";
import { InstallError } from "./errors.ts";
import { BACKUP_SUFFIX, type FileChange } from "./files.ts";
import { parseDoc, valueAt } from "./json_doc.ts";
import type { Launcher } from "./launcher.ts";
import {
  inspectManaged,
  installManaged,
  isManaged,
  renderTemplate,
  uninstallManaged,
} from "./managed_file.ts";
import type { InstallPaths } from "./paths.ts";
import { inspectShim, installShim, parseShim, uninstallShim } from "./statusline_shim.ts";
import type { StatuslineChoice } from "./statusline_state.ts";
import { describeReport, isComplete, type Wiring } from "./wiring.ts";

/** What the planners read from. */
export interface AgentEnv {
  paths: InstallPaths;
  /** How configs name the wrapper (an absolute path or `tma-hook`). */
  wrapperRef: string;
  launcher: Launcher;
  /** Reads a file, `null` when absent. */
  read(path: string): Promise<string | null>;
  /** Whether a path exists (used for the first-time backup copy). */
  exists(path: string): Promise<boolean>;
}

/** The file changes and printed notes of one agent's install or uninstall. */
export interface AgentPlan {
  changes: FileChange[];
  notes: string[];
}

/** The `--check` verdict on one agent. */
export interface AgentCheck {
  agent: AgentName;
  /** `wired` (complete), `incomplete` (partial, stale or broken), `absent` (no tma wiring). */
  state: "wired" | "incomplete" | "absent";
  lines: string[];
}

/** The trust caveats install prints (I24, I34). */
export const CAVEATS: Partial<Record<AgentName, string>> = {
  codex: "codex: the hooks.json entries do nothing until you trust them in Codex's TUI (/hooks, " +
    'or "Trust all and continue" at start-up), and moving the wrapper path needs trusting again. ' +
    "notify in config.toml needs no trust.",
  gemini: "gemini: Gemini loads settings only once the working folder is trusted (its trust " +
    "dialog at start-up); there is no per-hook trust step.",
};

/**
 * What the statusline shim does to the agent's footer, said with the diff
 * that installs it (I7, C80).
 */
export function statuslineNote(agent: AgentName): string {
  return `${agent}: the statusLine shim forwards each status payload to tma; your own ` +
    "statusLine command, when you have one, still renders exactly as before, and with none " +
    "the shim prints the model and context gauge tma read. --no-statusline leaves statusLine " +
    "alone (and removes the shim).";
}

function template(name: string): string {
  const text = BUNDLED_HOOKS[name];
  if (text === undefined) {
    throw new InstallError(`this build of tma lacks the bundled ${name} (run deno task embed)`);
  }
  return text;
}

/** The rendered OpenCode plugin. */
export function renderOpencodePlugin(wrapperRef: string): string {
  return renderTemplate(template("opencode-plugin.js"), wrapperRef);
}

/** The rendered pi extension. */
export function renderPiExtension(wrapperRef: string): string {
  return renderTemplate(template("pi-extension.js"), wrapperRef);
}

function wiring(agent: string, events: readonly string[], wrapperRef: string): Wiring {
  return { agent, events, wrapperRef };
}

function isEmptyObject(path: string, text: string): boolean {
  try {
    const value = valueAt(parseDoc(path, text), []);
    return typeof value === "object" && value !== null && Object.keys(value).length === 0;
  } catch {
    return false;
  }
}

/**
 * An uninstall that leaves a JSON file tma created (no backup of an
 * original exists) holding only `{}` deletes it instead: the file was not
 * there before install.
 */
async function settle(
  env: AgentEnv,
  change: FileChange,
  empty: (text: string) => boolean,
): Promise<FileChange> {
  if (change.after === null || change.after === change.before || !empty(change.after)) {
    return change;
  }
  if (await env.exists(change.path + BACKUP_SUFFIX)) return change;
  return { ...change, after: null };
}

/** Plans an install. `statusline` says whether the claude/cursor shim goes in (else out). */
export async function planInstall(
  agent: AgentName,
  env: AgentEnv,
  options: { statusline: boolean },
): Promise<AgentPlan> {
  const { paths, wrapperRef } = env;
  const json = async (path: string, edit: (text: string) => string, create = true) => {
    const before = await env.read(path);
    if (before === null && !create) return undefined;
    const after = edit(before ?? "{}\n");
    return { path, before, after, backup: true } satisfies FileChange;
  };
  const changes: FileChange[] = [];
  const notes: string[] = [];
  switch (agent) {
    case "claude": {
      const shim = (text: string) =>
        options.statusline
          ? installShim(text, paths.claudeSettings, { agent, launcher: env.launcher })
          : uninstallShim(text, paths.claudeSettings);
      changes.push(
        (await json(paths.claudeSettings, (text) =>
          shim(
            installClaudeHooks(
              text,
              paths.claudeSettings,
              wiring(agent, CLAUDE_EVENTS, wrapperRef),
            ),
          )))!,
      );
      if (options.statusline) notes.push(statuslineNote(agent));
      break;
    }
    case "gemini":
      changes.push(
        (await json(paths.geminiSettings, (text) =>
          installClaudeHooks(
            text,
            paths.geminiSettings,
            wiring(agent, GEMINI_EVENTS, wrapperRef),
          )))!,
      );
      notes.push(CAVEATS.gemini!);
      break;
    case "codex": {
      const before = await env.read(paths.codexConfig);
      changes.push({
        path: paths.codexConfig,
        before,
        after: installCodexNotify(before ?? "", paths.codexConfig, wrapperRef),
        backup: true,
      });
      changes.push(
        (await json(
          paths.codexHooks,
          (text) =>
            installClaudeHooks(text, paths.codexHooks, wiring(agent, CODEX_EVENTS, wrapperRef)),
        ))!,
      );
      notes.push(CAVEATS.codex!);
      break;
    }
    case "cursor": {
      changes.push(
        (await json(
          paths.cursorHooks,
          (text) =>
            installCursorHooks(text, paths.cursorHooks, wiring(agent, CURSOR_EVENTS, wrapperRef)),
        ))!,
      );
      // cli-config.json is created for the shim, and never just to opt out.
      const cli = await json(
        paths.cursorCliConfig,
        (text) =>
          options.statusline
            ? installShim(text, paths.cursorCliConfig, { agent, launcher: env.launcher })
            : uninstallShim(text, paths.cursorCliConfig),
        options.statusline,
      );
      if (options.statusline) notes.push(statuslineNote(agent));
      if (cli) {
        changes.push(
          options.statusline ? cli : await settle(env, cli, (t) => isEmptyObject(cli.path, t)),
        );
      }
      break;
    }
    case "opencode": {
      const before = await env.read(paths.opencodePlugin);
      const after = installManaged(before, renderOpencodePlugin(wrapperRef), {
        path: paths.opencodePlugin,
        flag: "--opencode-plugin",
      });
      changes.push({ path: paths.opencodePlugin, before, after, mode: 0o644, backup: false });
      break;
    }
    case "pi": {
      const before = await env.read(paths.piExtension);
      const after = installManaged(before, renderPiExtension(wrapperRef), {
        path: paths.piExtension,
        flag: "--pi-extension",
      });
      changes.push({ path: paths.piExtension, before, after, mode: 0o644, backup: false });
      break;
    }
  }
  return { changes, notes };
}

/** Plans an uninstall: every tma entry goes, the shim unwinds, tma's files are deleted. */
export async function planUninstall(agent: AgentName, env: AgentEnv): Promise<AgentPlan> {
  const { paths } = env;
  const changes: FileChange[] = [];
  const json = async (path: string, edit: (text: string) => string) => {
    const before = await env.read(path);
    if (before === null) return;
    const change: FileChange = { path, before, after: edit(before), backup: true };
    changes.push(await settle(env, change, (t) => isEmptyObject(path, t)));
  };
  switch (agent) {
    case "claude":
      await json(
        paths.claudeSettings,
        (text) =>
          uninstallShim(
            uninstallClaudeHooks(text, paths.claudeSettings, agent),
            paths.claudeSettings,
          ),
      );
      break;
    case "gemini":
      await json(
        paths.geminiSettings,
        (text) => uninstallClaudeHooks(text, paths.geminiSettings, agent),
      );
      break;
    case "codex": {
      const before = await env.read(paths.codexConfig);
      if (before !== null) {
        const change: FileChange = {
          path: paths.codexConfig,
          before,
          after: uninstallCodexNotify(before, paths.codexConfig),
          backup: true,
        };
        changes.push(await settle(env, change, (t) => t.trim() === ""));
      }
      await json(paths.codexHooks, (text) => uninstallClaudeHooks(text, paths.codexHooks, agent));
      break;
    }
    case "cursor":
      await json(paths.cursorHooks, (text) => uninstallCursorHooks(text, paths.cursorHooks, agent));
      await json(paths.cursorCliConfig, (text) => uninstallShim(text, paths.cursorCliConfig));
      break;
    case "opencode": {
      const before = await env.read(paths.opencodePlugin);
      const after = uninstallManaged(before, {
        path: paths.opencodePlugin,
        flag: "--opencode-plugin",
      });
      if (before !== null) {
        changes.push({ path: paths.opencodePlugin, before, after, backup: false });
      }
      break;
    }
    case "pi": {
      const before = await env.read(paths.piExtension);
      const after = uninstallManaged(before, { path: paths.piExtension, flag: "--pi-extension" });
      if (before !== null) changes.push({ path: paths.piExtension, before, after, backup: false });
      break;
    }
  }
  return { changes, notes: [] };
}

/** Whether the agent's files carry any tma wiring (any wrapper path). */
export async function isWired(agent: AgentName, env: AgentEnv): Promise<boolean> {
  const { paths } = env;
  const hooks = async (path: string, events: readonly string[]) => {
    const text = await env.read(path);
    return text !== null &&
      inspectClaudeHooks(text, path, wiring(agent, events, env.wrapperRef)).anyTma;
  };
  const shim = async (path: string) => {
    const text = await env.read(path);
    if (text === null) return false;
    const command = valueAt(parseDoc(path, text), ["statusLine", "command"]);
    return typeof command === "string" && parseShim(command) !== undefined;
  };
  switch (agent) {
    case "claude":
      return (await hooks(paths.claudeSettings, CLAUDE_EVENTS)) ||
        (await shim(paths.claudeSettings));
    case "gemini":
      return await hooks(paths.geminiSettings, GEMINI_EVENTS);
    case "codex": {
      const config = await env.read(paths.codexConfig);
      if (config !== null && readNotify(config, paths.codexConfig).kind === "tma") return true;
      return await hooks(paths.codexHooks, CODEX_EVENTS);
    }
    case "cursor": {
      const text = await env.read(paths.cursorHooks);
      const wired = text !== null &&
        inspectCursorHooks(text, paths.cursorHooks, wiring(agent, CURSOR_EVENTS, env.wrapperRef))
          .anyTma;
      return wired || (await shim(paths.cursorCliConfig));
    }
    case "opencode": {
      const text = await env.read(paths.opencodePlugin);
      return text !== null && isManaged(text);
    }
    case "pi": {
      const text = await env.read(paths.piExtension);
      return text !== null && isManaged(text);
    }
  }
}

/** Checks one agent. `statusline` says whether the shim is expected (claude, cursor). */
export async function inspectAgent(
  agent: AgentName,
  env: AgentEnv,
  options: { statusline: boolean; recorded?: StatuslineChoice },
): Promise<AgentCheck> {
  const { paths } = env;
  const lines: string[] = [];
  let complete = true;
  let any = false;
  const hookFile = async (
    path: string,
    events: readonly string[],
    inspect: typeof inspectClaudeHooks,
  ) => {
    const text = await env.read(path);
    if (text === null) {
      complete = false;
      lines.push(`${path}: absent`);
      return;
    }
    const report = inspect(text, path, wiring(agent, events, env.wrapperRef));
    any ||= report.anyTma;
    if (!isComplete(report)) complete = false;
    lines.push(`${path}: ${describeReport(report, events.length)}`);
  };
  const shimFile = async (path: string) => {
    const text = await env.read(path);
    const state = text === null
      ? "absent"
      : inspectShim(text, path, { agent, launcher: env.launcher });
    if (state !== "absent") any = true;
    if (options.statusline) {
      if (state !== "present") complete = false;
      const command = text === null
        ? undefined
        : valueAt(parseDoc(path, text), ["statusLine", "command"]);
      const why = state === "stale"
        ? "stale (it embeds another tma binary; rerun install-hooks)"
        : state === "present"
        ? "present"
        : options.recorded === "installed" && typeof command === "string"
        ? "clobbered (statusLine.command was replaced; rerun install-hooks to wrap the new command)"
        : "absent";
      lines.push(`${path}: statusline shim ${why}`);
    } else {
      if (state !== "absent") complete = false;
      lines.push(
        `${path}: statusline shim ${
          state === "absent" ? "absent (opted out)" : `${state}, though opted out`
        }`,
      );
    }
  };
  const managed = async (path: string, rendered: string) => {
    const state = inspectManaged(await env.read(path), rendered);
    if (state !== "current") complete = false;
    if (state === "current" || state === "stale") any = true;
    const why = {
      current: "current",
      stale: "stale (older wrapper path or template; rerun install-hooks)",
      missing: "absent",
      foreign: "a hand-written file (not tma's)",
    }[state];
    lines.push(`${path}: ${why}`);
  };
  try {
    switch (agent) {
      case "claude":
        await hookFile(paths.claudeSettings, CLAUDE_EVENTS, inspectClaudeHooks);
        await shimFile(paths.claudeSettings);
        break;
      case "gemini":
        await hookFile(paths.geminiSettings, GEMINI_EVENTS, inspectClaudeHooks);
        break;
      case "codex": {
        const text = await env.read(paths.codexConfig);
        const state = text === null ? undefined : readNotify(text, paths.codexConfig);
        const desired = [env.wrapperRef, "codex", "notify"];
        if (state?.kind === "tma") {
          any = true;
          const current = JSON.stringify(state.value) === JSON.stringify(desired);
          if (!current) complete = false;
          lines.push(
            `${paths.codexConfig}: notify ${current ? "current" : `stale (${state.wrapper})`}`,
          );
        } else {
          complete = false;
          lines.push(
            `${paths.codexConfig}: notify ${
              state?.kind === "foreign" ? "is another program's" : "absent"
            }`,
          );
        }
        await hookFile(paths.codexHooks, CODEX_EVENTS, inspectClaudeHooks);
        break;
      }
      case "cursor":
        await hookFile(paths.cursorHooks, CURSOR_EVENTS, inspectCursorHooks);
        await shimFile(paths.cursorCliConfig);
        break;
      case "opencode":
        await managed(paths.opencodePlugin, renderOpencodePlugin(env.wrapperRef));
        break;
      case "pi":
        await managed(paths.piExtension, renderPiExtension(env.wrapperRef));
        break;
    }
  } catch (error) {
    if (!(error instanceof InstallError)) throw error;
    return { agent, state: "incomplete", lines: [...lines, error.message] };
  }
  return { agent, state: !any ? "absent" : complete ? "wired" : "incomplete", lines };
}

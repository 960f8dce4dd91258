/**
 * Per agent, the files `install-hooks` changes and how: plans for install
 * and uninstall, the `--check` inspection, and whether an agent carries tma
 * wiring at all (`--all`). One entry of `AGENT_FILES` per agent (features.md
 * I11, I23, I33, I41, I51, I59), so another agent is one more entry.
 * Planning only reads; nothing here writes.
 * @module
 */
import { BUNDLED_INTEGRATIONS } from "../assets/bundled.ts";
import {
  type AgentName,
  ASYNC_EVENTS,
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
import { type KeepContainer, nodeAt, parseDoc, valueAt } from "./json_doc.ts";
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
import { describeReport, isComplete, type Wiring, type WiringReport } from "./wiring.ts";

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
  /** The statusline shim's state, for agents that have one (P72). */
  statusline?: "installed" | "opted_out" | "missing" | "clobbered" | "stale";
}

/** The trust caveats install prints (I24, I34). */
export const CAVEATS: Partial<Record<AgentName, string>> = {
  codex: "codex: the hooks.json entries do nothing until you trust them in Codex's TUI (/hooks, " +
    'or "Trust all and continue" at start-up), and moving the wrapper path needs trusting again. ' +
    "notify in config.toml needs no trust.",
  gemini: "gemini: Gemini loads settings only once the working folder is trusted (its trust " +
    "dialog at start-up); there is no per-hook trust step.",
  opencode: "opencode: the plugin loads when OpenCode starts, so restart running OpenCode " +
    "sessions; approve and deny then go over OpenCode's API lane, whose endpoint the plugin " +
    "reports (tma doctor shows whether it answers).",
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
  const text = BUNDLED_INTEGRATIONS[name];
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
  return { agent, events, wrapperRef, asyncEvents: ASYNC_EVENTS[agent] ?? [] };
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

/**
 * The install edit of a JSON settings file: an absent file starts as `{}`
 * when `create`, else it is left absent (undefined).
 */
async function editJson(
  env: AgentEnv,
  path: string,
  edit: (text: string) => string,
  create = true,
): Promise<FileChange | undefined> {
  const before = await env.read(path);
  if (before === null && !create) return undefined;
  return { path, before, after: edit(before ?? "{}\n"), backup: true };
}

/** The uninstall edit of a JSON settings file, absent when the file is. */
async function unwireJson(
  env: AgentEnv,
  path: string,
  edit: (text: string, keep: KeepContainer) => string,
): Promise<FileChange[]> {
  const before = await env.read(path);
  if (before === null) return [];
  const keep = await originalContainers(env, path);
  const change: FileChange = { path, before, after: edit(before, keep), backup: false };
  return [await settle(env, change, (text) => isEmptyObject(path, text))];
}

/**
 * Which containers uninstall must leave even when tma's entries were all
 * they held: those the user's original (the backup) already had, such as a
 * `"hooks": {}` of their own. Without a backup, tma created the file or
 * every container it emptied.
 */
async function originalContainers(env: AgentEnv, path: string): Promise<KeepContainer> {
  const original = await env.read(path + BACKUP_SUFFIX).catch(() => null);
  if (original === null) return () => false;
  let doc: ReturnType<typeof parseDoc>;
  try {
    doc = parseDoc(path + BACKUP_SUFFIX, original);
  } catch {
    return () => false;
  }
  return (at) => nodeAt(doc, at) !== undefined;
}

/** How one hooks file is edited: Claude's nested shape (also Gemini's and Codex's) or Cursor's. */
interface HooksDialect {
  install(text: string, path: string, wiring: Wiring): string;
  uninstall(text: string, path: string, agent: string): string;
  inspect(text: string, path: string, wiring: Wiring): WiringReport;
}

const CLAUDE_SHAPE: HooksDialect = {
  install: installClaudeHooks,
  uninstall: uninstallClaudeHooks,
  inspect: inspectClaudeHooks,
};

const CURSOR_SHAPE: HooksDialect = {
  install: installCursorHooks,
  uninstall: uninstallCursorHooks,
  inspect: inspectCursorHooks,
};

/** Whether a hooks file carries a tma entry (any wrapper path). */
async function hooksWired(
  env: AgentEnv,
  file: { agent: AgentName; path: string; events: readonly string[]; dialect: HooksDialect },
): Promise<boolean> {
  const text = await env.read(file.path);
  return text !== null &&
    file.dialect.inspect(text, file.path, wiring(file.agent, file.events, env.wrapperRef)).anyTma;
}

/** Whether a settings file's `statusLine.command` is tma's shim. */
async function shimWired(env: AgentEnv, path: string): Promise<boolean> {
  const text = await env.read(path);
  if (text === null) return false;
  const command = valueAt(parseDoc(path, text), ["statusLine", "command"]);
  return typeof command === "string" && parseShim(command) !== undefined;
}

/** The edit that puts the statusline shim in (`statusline`) or takes it out. */
function shimEdit(
  env: AgentEnv,
  agent: AgentName,
  path: string,
  statusline: boolean,
): (text: string) => string {
  return statusline
    ? (text) => installShim(text, path, { agent, wrapperRef: env.wrapperRef })
    : (text) => uninstallShim(text, path);
}

/** The `--check` findings on one agent, gathered file by file. */
export class Inspection {
  readonly lines: string[] = [];
  complete = true;
  any = false;
  statusline?: AgentCheck["statusline"];

  constructor(
    readonly agent: AgentName,
    readonly env: AgentEnv,
    readonly options: { statusline: boolean; recorded?: StatuslineChoice },
  ) {}

  /** A hooks file: every event carries the current wrapper. */
  async hooksFile(path: string, events: readonly string[], dialect: HooksDialect): Promise<void> {
    const text = await this.env.read(path);
    if (text === null) {
      this.complete = false;
      this.lines.push(`${path}: absent`);
      return;
    }
    const report = dialect.inspect(text, path, wiring(this.agent, events, this.env.wrapperRef));
    this.any ||= report.anyTma;
    if (!isComplete(report)) this.complete = false;
    this.lines.push(`${path}: ${describeReport(report, events.length)}`);
  }

  /** A statusline shim: present when expected, absent when opted out. */
  async shimFile(path: string): Promise<void> {
    const { agent, env, options } = this;
    const text = await env.read(path);
    const state = text === null
      ? "absent"
      : inspectShim(text, path, { agent, wrapperRef: env.wrapperRef });
    if (state !== "absent") this.any = true;
    if (options.statusline) {
      if (state !== "present") this.complete = false;
      const command = text === null
        ? undefined
        : valueAt(parseDoc(path, text), ["statusLine", "command"]);
      const why = state === "stale"
        ? "stale (it calls another wrapper or a tma binary; rerun install-hooks)"
        : state === "present"
        ? "present"
        : options.recorded === "installed" && typeof command === "string"
        ? "clobbered (statusLine.command was replaced; rerun install-hooks to wrap the new command)"
        : "absent";
      this.statusline = state === "present"
        ? "installed"
        : state === "stale"
        ? "stale"
        : why.startsWith("clobbered")
        ? "clobbered"
        : "missing";
      this.lines.push(`${path}: statusline shim ${why}`);
    } else {
      if (state !== "absent") this.complete = false;
      this.statusline = "opted_out";
      this.lines.push(
        `${path}: statusline shim ${
          state === "absent" ? "absent (opted out)" : `${state}, though opted out`
        }`,
      );
    }
  }

  /** A file tma owns outright: current when it matches this build's rendering. */
  async managedFile(path: string, rendered: string): Promise<void> {
    const state = inspectManaged(await this.env.read(path), rendered);
    if (state !== "current") this.complete = false;
    if (state === "current" || state === "stale") this.any = true;
    const why = {
      current: "current",
      stale: "stale (older wrapper path or template; rerun install-hooks)",
      missing: "absent",
      foreign: "a hand-written file (not tma's)",
    }[state];
    this.lines.push(`${path}: ${why}`);
  }

  /** Codex's `notify` in config.toml: tma's wrapper with this build's arguments. */
  async codexNotify(path: string): Promise<void> {
    const text = await this.env.read(path);
    const state = text === null ? undefined : readNotify(text, path);
    const desired = [this.env.wrapperRef, "codex", "notify"];
    if (state?.kind === "tma") {
      this.any = true;
      const current = JSON.stringify(state.value) === JSON.stringify(desired);
      if (!current) this.complete = false;
      this.lines.push(`${path}: notify ${current ? "current" : `stale (${state.wrapper})`}`);
    } else {
      this.complete = false;
      this.lines.push(
        `${path}: notify ${state?.kind === "foreign" ? "is another program's" : "absent"}`,
      );
    }
  }
}

/** How install-hooks handles one agent's files. */
export interface AgentFiles {
  /** Plans an install; `statusline` says whether the shim goes in (else out). */
  install(env: AgentEnv, options: { statusline: boolean }): Promise<AgentPlan>;
  /** Plans an uninstall: every tma entry goes, the shim unwinds, tma's files are deleted. */
  uninstall(env: AgentEnv): Promise<AgentPlan>;
  /** Whether the agent's files carry any tma wiring (any wrapper path). */
  isWired(env: AgentEnv): Promise<boolean>;
  /** Adds the agent's `--check` findings. */
  inspect(check: Inspection): Promise<void>;
}

function plan(changes: (FileChange | undefined)[], notes: string[] = []): AgentPlan {
  return { changes: changes.filter((c): c is FileChange => c !== undefined), notes };
}

/**
 * An agent whose one hooks file, in Claude's shape, is its whole wiring
 * (Gemini's settings.json), with an optional caveat printed on install.
 */
function hooksFileAgent(
  agent: AgentName,
  file: { path: (paths: InstallPaths) => string; events: readonly string[]; caveat?: string },
): AgentFiles {
  const hooks = (env: AgentEnv) => ({
    agent,
    path: file.path(env.paths),
    events: file.events,
    dialect: CLAUDE_SHAPE,
  });
  return {
    install: async (env) => {
      const path = file.path(env.paths);
      const edit = (text: string) =>
        installClaudeHooks(text, path, wiring(agent, file.events, env.wrapperRef));
      return plan([await editJson(env, path, edit)], file.caveat ? [file.caveat] : []);
    },
    uninstall: async (env) => {
      const path = file.path(env.paths);
      return plan(
        await unwireJson(env, path, (text, keep) => uninstallClaudeHooks(text, path, agent, keep)),
      );
    },
    isWired: (env) => hooksWired(env, hooks(env)),
    inspect: (check) => check.hooksFile(file.path(check.env.paths), file.events, CLAUDE_SHAPE),
  };
}

/**
 * An agent wired by one file tma owns outright, rendered from a bundled
 * template (OpenCode's plugin, pi's extension).
 */
function managedFileAgent(
  file: {
    path: (paths: InstallPaths) => string;
    flag: string;
    render(wrapperRef: string): string;
    /** The manual step left after install, printed at the end. */
    caveat?: string;
  },
): AgentFiles {
  return {
    install: async (env) => {
      const path = file.path(env.paths);
      const before = await env.read(path);
      const after = installManaged(before, file.render(env.wrapperRef), { path, flag: file.flag });
      return plan(
        [{ path, before, after, mode: 0o644, backup: false }],
        file.caveat ? [file.caveat] : [],
      );
    },
    uninstall: async (env) => {
      const path = file.path(env.paths);
      const before = await env.read(path);
      const after = uninstallManaged(before, { path, flag: file.flag });
      return plan(before === null ? [] : [{ path, before, after, backup: false }]);
    },
    isWired: async (env) => {
      const text = await env.read(file.path(env.paths));
      return text !== null && isManaged(text);
    },
    inspect: (check) =>
      check.managedFile(file.path(check.env.paths), file.render(check.env.wrapperRef)),
  };
}

/** Every agent's files, by agent. */
export const AGENT_FILES: Readonly<Record<AgentName, AgentFiles>> = {
  claude: {
    install: async (env, { statusline }) => {
      const path = env.paths.claudeSettings;
      const shim = shimEdit(env, "claude", path, statusline);
      const edit = (text: string) =>
        shim(installClaudeHooks(text, path, wiring("claude", CLAUDE_EVENTS, env.wrapperRef)));
      return plan([await editJson(env, path, edit)], statusline ? [statuslineNote("claude")] : []);
    },
    uninstall: async (env) => {
      const path = env.paths.claudeSettings;
      const edit = (text: string, keep: KeepContainer) =>
        uninstallShim(uninstallClaudeHooks(text, path, "claude", keep), path);
      return plan(await unwireJson(env, path, edit));
    },
    isWired: async (env) => {
      const path = env.paths.claudeSettings;
      return (await hooksWired(env, {
        agent: "claude",
        path,
        events: CLAUDE_EVENTS,
        dialect: CLAUDE_SHAPE,
      })) || (await shimWired(env, path));
    },
    inspect: async (check) => {
      await check.hooksFile(check.env.paths.claudeSettings, CLAUDE_EVENTS, CLAUDE_SHAPE);
      await check.shimFile(check.env.paths.claudeSettings);
    },
  },
  gemini: hooksFileAgent("gemini", {
    path: (paths) => paths.geminiSettings,
    events: GEMINI_EVENTS,
    caveat: CAVEATS.gemini,
  }),
  codex: {
    install: async (env) => {
      const { codexConfig, codexHooks } = env.paths;
      const before = await env.read(codexConfig);
      const notify: FileChange = {
        path: codexConfig,
        before,
        after: installCodexNotify(before ?? "", codexConfig, env.wrapperRef),
        backup: true,
      };
      const edit = (text: string) =>
        installClaudeHooks(text, codexHooks, wiring("codex", CODEX_EVENTS, env.wrapperRef));
      return plan([notify, await editJson(env, codexHooks, edit)], [CAVEATS.codex!]);
    },
    uninstall: async (env) => {
      const { codexConfig, codexHooks } = env.paths;
      const changes: FileChange[] = [];
      const before = await env.read(codexConfig);
      if (before !== null) {
        const change: FileChange = {
          path: codexConfig,
          before,
          after: uninstallCodexNotify(before, codexConfig),
          backup: false,
        };
        changes.push(await settle(env, change, (text) => text.trim() === ""));
      }
      const edit = (text: string, keep: KeepContainer) =>
        uninstallClaudeHooks(text, codexHooks, "codex", keep);
      return plan([...changes, ...await unwireJson(env, codexHooks, edit)]);
    },
    isWired: async (env) => {
      const config = await env.read(env.paths.codexConfig);
      if (config !== null && readNotify(config, env.paths.codexConfig).kind === "tma") return true;
      return await hooksWired(env, {
        agent: "codex",
        path: env.paths.codexHooks,
        events: CODEX_EVENTS,
        dialect: CLAUDE_SHAPE,
      });
    },
    inspect: async (check) => {
      await check.codexNotify(check.env.paths.codexConfig);
      await check.hooksFile(check.env.paths.codexHooks, CODEX_EVENTS, CLAUDE_SHAPE);
    },
  },
  cursor: {
    install: async (env, { statusline }) => {
      const { cursorHooks, cursorCliConfig } = env.paths;
      const edit = (text: string) =>
        installCursorHooks(text, cursorHooks, wiring("cursor", CURSOR_EVENTS, env.wrapperRef));
      const hooks = await editJson(env, cursorHooks, edit);
      // cli-config.json is created for the shim, and never just to opt out.
      const shim = shimEdit(env, "cursor", cursorCliConfig, statusline);
      const cli = await editJson(env, cursorCliConfig, shim, statusline);
      if (cli === undefined || statusline) {
        return plan([hooks, cli], statusline ? [statuslineNote("cursor")] : []);
      }
      return plan([hooks, await settle(env, cli, (text) => isEmptyObject(cli.path, text))]);
    },
    uninstall: async (env) => {
      const { cursorHooks, cursorCliConfig } = env.paths;
      return plan([
        ...await unwireJson(
          env,
          cursorHooks,
          (t, keep) => uninstallCursorHooks(t, cursorHooks, "cursor", keep),
        ),
        ...await unwireJson(env, cursorCliConfig, (t) => uninstallShim(t, cursorCliConfig)),
      ]);
    },
    isWired: async (env) =>
      (await hooksWired(env, {
        agent: "cursor",
        path: env.paths.cursorHooks,
        events: CURSOR_EVENTS,
        dialect: CURSOR_SHAPE,
      })) || (await shimWired(env, env.paths.cursorCliConfig)),
    inspect: async (check) => {
      await check.hooksFile(check.env.paths.cursorHooks, CURSOR_EVENTS, CURSOR_SHAPE);
      await check.shimFile(check.env.paths.cursorCliConfig);
    },
  },
  opencode: managedFileAgent({
    path: (paths) => paths.opencodePlugin,
    flag: "--opencode-plugin",
    render: renderOpencodePlugin,
    caveat: CAVEATS.opencode,
  }),
  pi: managedFileAgent({
    path: (paths) => paths.piExtension,
    flag: "--pi-extension",
    render: renderPiExtension,
  }),
};

/** Plans an install. `statusline` says whether the claude/cursor shim goes in (else out). */
export function planInstall(
  agent: AgentName,
  env: AgentEnv,
  options: { statusline: boolean },
): Promise<AgentPlan> {
  return AGENT_FILES[agent].install(env, options);
}

/** Plans an uninstall: every tma entry goes, the shim unwinds, tma's files are deleted. */
export function planUninstall(agent: AgentName, env: AgentEnv): Promise<AgentPlan> {
  return AGENT_FILES[agent].uninstall(env);
}

/** Whether the agent's files carry any tma wiring (any wrapper path). */
export function isWired(agent: AgentName, env: AgentEnv): Promise<boolean> {
  return AGENT_FILES[agent].isWired(env);
}

/** Checks one agent. `statusline` says whether the shim is expected (claude, cursor). */
export async function inspectAgent(
  agent: AgentName,
  env: AgentEnv,
  options: { statusline: boolean; recorded?: StatuslineChoice },
): Promise<AgentCheck> {
  const check = new Inspection(agent, env, options);
  try {
    await AGENT_FILES[agent].inspect(check);
  } catch (error) {
    if (!(error instanceof InstallError)) throw error;
    return { agent, state: "incomplete", lines: [...check.lines, error.message] };
  }
  const { any, complete, lines, statusline } = check;
  return { agent, state: !any ? "absent" : complete ? "wired" : "incomplete", lines, statusline };
}

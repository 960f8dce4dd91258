/**
 * The tmux attention hooks every install adds: `after-select-pane` and
 * `session-window-changed` run `tma clear-attention '#{pane_id}'`, with the
 * hook's name in `TMA_HOOK_KIND` and the binary late-bound (`$TMA_BIN`,
 * else `tma` on PATH, as they are when the hook fires) (I4). They are appended with `set-hook -ga`,
 * never at a fixed index, so the user's own entries stay; the indexes tmux
 * assigns are recorded in `hooks-state-<server>.toml`, which is how `--check`
 * tells present, drifted, wiped (the server restarted) and missing apart.
 * @module
 */
import { parseToml, stringifyToml } from "../deps/toml.ts";
import type { TmuxServer } from "../tmux/exec.ts";
import {
  appendGlobalHook,
  type GlobalHookEntry,
  type ServerIdentity,
  serverIdentity,
  setGlobalHookAt,
  showGlobalHook,
  unsetGlobalHookAt,
} from "../tmux/global_hooks.ts";
import type { Launcher } from "./launcher.ts";
import { baseName, dirName } from "./shell.ts";

/** The hooks tma adds. */
export const ATTENTION_HOOKS = ["after-select-pane", "session-window-changed"] as const;

/** A hook older tma versions used, removed on sight. */
export const STALE_HOOKS = ["after-select-window"] as const;

/** The opt-in hook of `[focus] events = true` (D59, G19): clears the arrival pane only. */
export const FOCUS_EVENT_HOOK = "pane-focus-in";

/** The hooks tma keeps on a server: the two, plus `pane-focus-in` when opted in (D59). */
export function attentionHooks(options: { focusEvents?: boolean }): string[] {
  return options.focusEvents ? [...ATTENTION_HOOKS, FOCUS_EVENT_HOOK] : [...ATTENTION_HOOKS];
}

/**
 * The shell script one hook runs: the `tma` on PATH (or `$TMA_BIN`) as it
 * is when the hook fires, never a binary or checkout found at install time
 * (I4, issue 13 item 12). The launcher argument is kept for the callers and
 * is not used.
 */
export function attentionScript(kind: string, _launcher?: Launcher): string {
  return `TMA_HOOK_KIND=${kind} "\${TMA_BIN:-tma}" clear-attention '#{pane_id}' 2>/dev/null || true`;
}

/** Quotes a script for tmux's command parser (inside double quotes `$` expands). */
function tmuxDoubleQuote(script: string): string {
  return `"${script.replace(/[\\"$]/g, (c) => `\\${c}`)}"`;
}

/** The tmux command given to `set-hook`. */
export function attentionCommand(kind: string, launcher: Launcher): string {
  return `run-shell ${tmuxDoubleQuote(attentionScript(kind, launcher))}`;
}

/**
 * The script inside a printed `run-shell "…"` entry, undoing tmux's
 * printing escapes, or `undefined` for any other command.
 */
export function printedScript(command: string): string | undefined {
  const match = /^run-shell (?:-b )?"(.*)"$/s.exec(command);
  if (!match) return undefined;
  return match[1].replace(/\\(.)/gs, (_, c: string) => c === "n" ? "\n" : c === "t" ? "\t" : c);
}

/** Whether a hook entry is one tma wrote (any binary, any version). */
export function isTmaEntry(command: string): boolean {
  return command.includes("clear-attention") && command.includes("TMA_HOOK_KIND=");
}

/** The bookkeeping file name for a server: its socket name, or its sanitised path. */
export function serverKey(socketPath: string): string {
  if (/\/tmux-\d+$/.test(dirName(socketPath))) return baseName(socketPath);
  return socketPath.replace(/[^A-Za-z0-9_.-]+/g, "_").replace(/^_+/, "");
}

/** `hooks-state-<server>.toml` in the config directory. */
export function focusHooksStatePath(configDir: string, socketPath: string): string {
  return `${configDir}/hooks-state-${serverKey(socketPath)}.toml`;
}

/** What the state file records. */
export interface FocusHooksState {
  socketPath: string;
  serverPid: number;
  serverStart: number;
  hooks: Record<string, { index: number; script: string }>;
}

/** Reads the state file (absent or unreadable: `undefined`). */
export async function readFocusHooksState(path: string): Promise<FocusHooksState | undefined> {
  let text: string;
  try {
    text = await Deno.readTextFile(path);
  } catch {
    return undefined;
  }
  try {
    const doc = parseToml(text) as Record<string, unknown>;
    const hooks: FocusHooksState["hooks"] = {};
    const raw = (doc.hooks ?? {}) as Record<string, { index?: unknown; script?: unknown }>;
    for (const [name, value] of Object.entries(raw)) {
      if (typeof value?.index === "number" && typeof value.script === "string") {
        hooks[name] = { index: value.index, script: value.script };
      }
    }
    return {
      socketPath: String(doc.socket_path ?? ""),
      serverPid: Number(doc.server_pid ?? 0),
      serverStart: Number(doc.server_start ?? 0),
      hooks,
    };
  } catch {
    return undefined;
  }
}

function renderFocusHooksState(state: FocusHooksState): string {
  return "# Written by tma install-hooks: the tmux hooks it appended to this server (I4).\n" +
    stringifyToml({
      socket_path: state.socketPath,
      server_pid: state.serverPid,
      server_start: state.serverStart,
      hooks: state.hooks,
    }) + "\n";
}

/** One step `ensureAttentionHooks` takes (also shown in the preview). */
export interface TmuxStep {
  describe: string;
  run(server: TmuxServer): Promise<void>;
}

/** What the hooks on a reachable server need. */
export interface TmuxPlan {
  identity: ServerIdentity;
  steps: TmuxStep[];
  statePath: string;
}

/** Reads the server's hook arrays for tma's names. */
async function readEntries(server: TmuxServer): Promise<Map<string, GlobalHookEntry[]>> {
  const all = new Map<string, GlobalHookEntry[]>();
  for (const name of [...ATTENTION_HOOKS, FOCUS_EVENT_HOOK, ...STALE_HOOKS]) {
    all.set(name, (await showGlobalHook(server, name)).filter((e) => isTmaEntry(e.command)));
  }
  return all;
}

/**
 * Plans the hook changes for install (`remove: false`) or uninstall
 * (`remove: true`). Throws the typed tmux errors when no server answers.
 */
export async function planAttentionHooks(
  server: TmuxServer,
  options: { launcher: Launcher; configDir: string; remove: boolean; focusEvents?: boolean },
): Promise<TmuxPlan> {
  const identity = await serverIdentity(server);
  const entries = await readEntries(server);
  const steps: TmuxStep[] = [];
  const unset = (name: string, entry: GlobalHookEntry, why: string) =>
    steps.push({
      describe: `tmux: unset ${name}[${entry.index}] (${why})`,
      run: (s) => unsetGlobalHookAt(s, name, entry.index),
    });
  for (const name of STALE_HOOKS) {
    for (const entry of entries.get(name) ?? []) unset(name, entry, "stale tma hook");
  }
  if (!options.focusEvents) {
    for (const entry of entries.get(FOCUS_EVENT_HOOK) ?? []) {
      unset(FOCUS_EVENT_HOOK, entry, "[focus] events is off");
    }
  }
  for (const name of attentionHooks(options)) {
    const mine = entries.get(name) ?? [];
    if (options.remove) {
      for (const entry of mine) unset(name, entry, "tma's attention hook");
      continue;
    }
    const script = attentionScript(name, options.launcher);
    const command = attentionCommand(name, options.launcher);
    const keep = mine.find((e) => printedScript(e.command) === script);
    if (keep) {
      for (const entry of mine) if (entry !== keep) unset(name, entry, "duplicate tma hook");
    } else if (mine.length > 0) {
      const [first, ...rest] = mine;
      steps.push({
        describe: `tmux: repoint hook ${name}[${first.index}] at this tma: ${command}`,
        run: (s) => setGlobalHookAt(s, { name, index: first.index, command }),
      });
      for (const entry of rest) unset(name, entry, "duplicate tma hook");
    } else {
      steps.push({
        describe: `tmux: append hook ${name}: ${command}`,
        run: (s) => appendGlobalHook(s, name, command),
      });
    }
  }
  return {
    identity,
    steps,
    statePath: focusHooksStatePath(options.configDir, identity.socketPath),
  };
}

/**
 * Runs a plan's steps and records (or, after a removal, deletes) the state
 * file. The state file is rewritten only when its content changes.
 */
export async function applyAttentionHooks(
  server: TmuxServer,
  plan: TmuxPlan,
  options: { launcher: Launcher; remove: boolean; focusEvents?: boolean },
): Promise<void> {
  for (const step of plan.steps) await step.run(server);
  if (options.remove) {
    await Deno.remove(plan.statePath).catch(() => undefined);
    return;
  }
  const entries = await readEntries(server);
  const state: FocusHooksState = {
    socketPath: plan.identity.socketPath,
    serverPid: plan.identity.pid,
    serverStart: plan.identity.startTime,
    hooks: {},
  };
  for (const name of attentionHooks(options)) {
    const script = attentionScript(name, options.launcher);
    const entry = (entries.get(name) ?? []).filter((e) => printedScript(e.command) === script)
      .pop();
    if (entry) state.hooks[name] = { index: entry.index, script };
  }
  const text = renderFocusHooksState(state);
  const current = await Deno.readTextFile(plan.statePath).catch(() => null);
  if (current === text) return;
  await Deno.mkdir(dirName(plan.statePath), { recursive: true });
  const temp = `${plan.statePath}.tmp-${crypto.randomUUID().slice(0, 8)}`;
  await Deno.writeTextFile(temp, text);
  await Deno.rename(temp, plan.statePath);
}

/** The verdict on one hook. */
export type FocusHookStatus = "present" | "drifted" | "wiped" | "missing";

/** One line of the tmux part of `--check`. */
export interface FocusHookCheck {
  name: string;
  status: FocusHookStatus;
  detail: string;
}

/** Checks both hooks against the server and the recorded state. */
export async function checkAttentionHooks(
  server: TmuxServer,
  options: { launcher: Launcher; configDir: string; focusEvents?: boolean },
): Promise<FocusHookCheck[]> {
  const identity = await serverIdentity(server);
  const entries = await readEntries(server);
  const state = await readFocusHooksState(
    focusHooksStatePath(options.configDir, identity.socketPath),
  );
  const restarted = state !== undefined &&
    (state.serverPid !== identity.pid || state.serverStart !== identity.startTime);
  const checks: FocusHookCheck[] = [];
  for (const name of attentionHooks(options)) {
    const script = attentionScript(name, options.launcher);
    const mine = entries.get(name) ?? [];
    const exact = mine.find((e) => printedScript(e.command) === script);
    const recorded = state?.hooks[name];
    // An entry at the managed index comes from ~/.config/tma/tmux.conf (install-keys).
    const managed = exact?.index === MANAGED_HOOK_INDEX;
    if (
      exact && mine.length === 1 &&
      (!recorded || restarted || managed || recorded.index === exact.index)
    ) {
      checks.push({ name, status: "present", detail: `index ${exact.index}` });
    } else if (exact) {
      checks.push({
        name,
        status: "drifted",
        detail: mine.length > 1
          ? `${mine.length} tma entries (indexes ${mine.map((e) => e.index).join(", ")})`
          : `at index ${exact.index}, recorded ${recorded?.index}`,
      });
    } else if (mine.length > 0) {
      checks.push({
        name,
        status: "drifted",
        detail: `index ${mine[0].index} runs another tma binary`,
      });
    } else if (restarted && recorded) {
      checks.push({
        name,
        status: "wiped",
        detail:
          "the server restarted since install (hooks are runtime state); rerun install-hooks " +
          "or add the set-hook line to tmux.conf",
      });
    } else {
      checks.push({ name, status: "missing", detail: "not set on this server" });
    }
  }
  for (const name of STALE_HOOKS) {
    for (const entry of entries.get(name) ?? []) {
      checks.push({ name, status: "drifted", detail: `stale tma entry at index ${entry.index}` });
    }
  }
  return checks;
}

/**
 * The `set-hook` lines a user can put in tmux.conf so the hooks survive a
 * server restart (I5); braces keep tmux from parsing the command twice.
 */
export function durableRecipe(launcher: Launcher): string[] {
  return ATTENTION_HOOKS.map((name) =>
    `set-hook -ga ${name} { ${attentionCommand(name, launcher)} }`
  );
}

/**
 * The hook index the managed `~/.config/tma/tmux.conf` uses: a fixed index
 * instead of `-ga`, so sourcing the file again (every config reload) sets
 * the same entry rather than adding another.
 */
export const MANAGED_HOOK_INDEX = 90;

/** The managed file's hook lines: the attention hooks that survive a tmux restart (item 7). */
export function managedHookLines(launcher: Launcher, options: { focusEvents?: boolean }): string[] {
  return attentionHooks(options).map((name) =>
    `set-hook -g ${name}[${MANAGED_HOOK_INDEX}] { ${attentionCommand(name, launcher)} }`
  );
}

/**
 * After the managed file set its entries, removes every other tma entry of
 * the same hooks (older `install-hooks` appends), so each fires once.
 */
export async function dedupeManagedHooks(
  server: TmuxServer,
  options: { focusEvents?: boolean },
): Promise<void> {
  const entries = await readEntries(server);
  for (const name of attentionHooks(options)) {
    for (const entry of entries.get(name) ?? []) {
      if (entry.index !== MANAGED_HOOK_INDEX) await unsetGlobalHookAt(server, name, entry.index);
    }
  }
}

/**
 * `tma install-keys` as functions (C84-C90, U37, U38, item 7): the managed
 * `~/.config/tma/tmux.conf` (prefix keys, the attention hooks that survive a
 * tmux restart, the opt-in mouse group, the daemon launcher once a daemon
 * exists) and the one marked `source-file` line in the user's tmux config.
 * Planning and checking only read; `tma init` and `tma doctor` call them too.
 * @module
 */
import type { EnvReader } from "../runtime/paths.ts";
import { homeDir, installConfigDir } from "../runtime/paths.ts";
import { InstallError } from "./errors.ts";
import { type FileChange, isChange } from "./files.ts";
import { managedHookLines } from "./focus_hooks.ts";
import type { Launcher } from "./launcher.ts";

/**
 * Whether a `tma daemon` command exists to launch: it does (issue 17), so
 * the managed file carries the launcher line unless `--no-daemon` (C88).
 */
export const DAEMON_AVAILABLE = true;

/** The first line of the managed file, which marks it as tma's. */
export const KEYS_BANNER = "# tma:managed-file";

/** The comment that marks tma's line in the user's tmux config. */
export const SOURCE_MARK = "# tma keys";

/** The managed file's name in the config directory. */
export const MANAGED_NAME = "tmux.conf";

/** What the managed file holds. */
export interface KeysOptions {
  /** The four root-table mouse bindings (U38, `--mouse`). */
  mouse: boolean;
  /** The daemon launcher line (only when `DAEMON_AVAILABLE` and not `--no-daemon`). */
  daemon: boolean;
  /** The `pane-focus-in` hook too (`[focus] events`, D59). */
  focusEvents: boolean;
  /** How the attention hooks run tma (the same line `install-hooks` writes). */
  launcher: Launcher;
}

const POPUP = "display-popup -E -w 80% -h 60% 'tma'";
const CLIENT = '--client "#{client_name}"';

/**
 * The prefix bindings (U37): only keys stock tmux leaves unbound; `--client`
 * only on `run-shell` lines, the ones whose command tmux expands.
 */
export const PREFIX_BINDINGS: readonly [string, string][] = [
  ["a", POPUP],
  ["G", "new-window 'tma watch --table'"],
  ["j", `run-shell 'tma jump --attention ${CLIENT}'`],
  ["g", `run-shell 'tma jump --blocked ${CLIENT}'`],
  ["b", `run-shell 'tma jump --back ${CLIENT}'`],
  ["h", `run-shell 'tma jump --home ${CLIENT}'`],
  ["A", `run-shell 'tma act --menu --pane "#{pane_id}" ${CLIENT}'`],
];

/** stock tmux's right-click window menu, which a click outside tma's counts falls through to. */
const STOCK_WINDOW_MENU =
  `display-menu -T "#[align=centre]#{window_index}:#{window_name}" -t = -x W -y W ` +
  `"#{?#{>:#{session_windows},1},,-}Swap Left" l { swap-window -t :-1 } ` +
  `"#{?#{>:#{session_windows},1},,-}Swap Right" r { swap-window -t :+1 } ` +
  `"#{?pane_marked_set,,-}Swap Marked" s { swap-window } '' Kill X { kill-window } ` +
  `Respawn R { respawn-window -k } "#{?pane_marked,Unmark,Mark}" m { select-pane -m } ` +
  `Rename n { command-prompt -F -I "#W" { rename-window -t "#{window_id}" "%%" } } '' ` +
  `"New After" w { new-window -a } "New At End" W { new-window }`;

const ON_TMA = "'#{m:tma:*,#{mouse_status_range}}'";
const ON_BLOCKED = "'#{==:#{mouse_status_range},tma:blocked}'";

/** The mouse group (U38): clicks on the counts `tma status` draws. Needs `mouse on`, which tma never sets. */
function mouseLines(): string[] {
  const left = `if-shell -F ${ON_BLOCKED} { run-shell 'tma jump --blocked ${CLIENT}' } ` +
    `{ if-shell -F ${ON_TMA} { ${POPUP} } { switch-client -t = } }`;
  const menu = `run-shell 'tma jump --menu ${CLIENT}'`;
  return [
    "# Mouse (--mouse, U38): clicks on tma's status counts. Needs `set -g mouse on`.",
    `bind-key -T root MouseDown1Status ${left}`,
    `bind-key -T root MouseDown1StatusRight ${left}`,
    `bind-key -T root MouseDown3Status if-shell -F ${ON_TMA} { ${menu} } { ${STOCK_WINDOW_MENU} }`,
    `bind-key -T root MouseDown3StatusRight if-shell -F ${ON_TMA} { ${menu} }`,
  ];
}

/** The line that starts one daemon per server as tmux loads its config (U15). */
export const DAEMON_LAUNCHER_LINE =
  `run-shell -b 'tma --socket-path "#{socket_path}" daemon --ensure >/dev/null 2>&1 || true'`;

/**
 * The managed file's text.
 *
 * ```ts
 * const launcher = { argv: ["/usr/local/bin/tma"], requires: ["/usr/local/bin/tma"] };
 * renderManaged({ mouse: false, daemon: false, focusEvents: false, launcher }).split("\n")[0];
 * // "# tma:managed-file: written by `tma install-keys`; rerun it rather than editing this file"
 * ```
 */
export function renderManaged(options: KeysOptions): string {
  const lines = [
    `${KEYS_BANNER}: written by \`tma install-keys\`; rerun it rather than editing this file`,
    "# (`tma install-keys --uninstall` removes it and the line that sources it).",
    "",
    "# Prefix keys (U37): a picker, G watch, j attention, g blocked, b back, h home, A actions.",
    ...PREFIX_BINDINGS.map(([key, command]) => `bind-key ${key} ${command}`),
    "",
    "# Attention hooks (D57): navigating to a pane clears its done mark. A fixed index, so",
    "# sourcing this file again never adds a second copy.",
    ...managedHookLines(options.launcher, { focusEvents: options.focusEvents }),
  ];
  if (options.mouse) lines.push("", ...mouseLines());
  if (options.daemon) {
    lines.push("", "# One tma daemon per tmux server (U15).", DAEMON_LAUNCHER_LINE);
  }
  return `${lines.join("\n")}\n`;
}

/**
 * The line added to the user's tmux config (C84, C89): the XDG and home
 * paths (`-q`: whichever exists), or with `--config-dir` that literal path.
 *
 * ```ts
 * sourceLine(); // 'source-file -q "$XDG_CONFIG_HOME/tma/tmux.conf" "$HOME/.config/tma/tmux.conf" # tma keys'
 * ```
 */
export function sourceLine(configDir?: string): string {
  const paths = configDir
    ? `"${configDir}/${MANAGED_NAME}"`
    : `"$XDG_CONFIG_HOME/tma/${MANAGED_NAME}" "$HOME/.config/tma/${MANAGED_NAME}"`;
  return `source-file -q ${paths} ${SOURCE_MARK}`;
}

/** Whether a line of a tmux config is tma's marked line. */
export function isMarked(line: string): boolean {
  return line.trimEnd().endsWith(SOURCE_MARK);
}

/** The tmux configs tmux reads, in C90's order. */
export function tmuxConfCandidates(env: EnvReader): string[] {
  const home = homeDir(env);
  const xdg = env("XDG_CONFIG_HOME");
  return [
    `${home}/.tmux.conf`,
    ...(xdg ? [`${xdg}/tmux/tmux.conf`] : []),
    `${home}/.config/tmux/tmux.conf`,
  ].filter((p, i, all) => all.indexOf(p) === i);
}

/**
 * The tmux config to mark (C90): the first that exists, else a new one
 * where it cannot shadow another (the XDG path, else `~/.config/tmux/` if
 * `~/.config` exists, else `~/.tmux.conf`).
 */
export function resolveTmuxConf(env: EnvReader, exists: (path: string) => boolean): string {
  const found = tmuxConfCandidates(env).find(exists);
  if (found) return found;
  if (env("XDG_CONFIG_HOME")) return `${env("XDG_CONFIG_HOME")}/tmux/tmux.conf`;
  const home = homeDir(env);
  if (exists(`${home}/.config`)) return `${home}/.config/tmux/tmux.conf`;
  return `${home}/.tmux.conf`;
}

/** Where install-keys reads and writes. */
export interface KeysPaths {
  /** The managed file. */
  managed: string;
  /** The user's tmux config to mark. */
  conf: string;
  /** `--config-dir`, which the source line then names literally (C89). */
  configDirFlag?: string;
}

/**
 * Resolves the paths from the flags and the environment.
 *
 * ```ts
 * const env = (k: string) => ({ HOME: "/h" })[k];
 * resolveKeysPaths({ env, exists: () => false }).managed; // "/h/.config/tma/tmux.conf"
 * ```
 */
export function resolveKeysPaths(options: {
  env: EnvReader;
  exists: (path: string) => boolean;
  conf?: string;
  configDir?: string;
}): KeysPaths {
  const dir = installConfigDir(options.env, options.configDir);
  return {
    managed: `${dir}/${MANAGED_NAME}`,
    conf: options.conf ?? resolveTmuxConf(options.env, options.exists),
    configDirFlag: options.configDir,
  };
}

/** A config's text with tma's marked line added at the end (idempotent). */
export function markConf(text: string | null, line: string): string {
  const current = text ?? "";
  const lines = current.split("\n");
  const marked = lines.filter(isMarked);
  if (marked.length === 1 && marked[0] === line) return current;
  const without = unmarkConf(current);
  if (without === "") return `${line}\n`;
  // Keep the user's own last-line style: no trailing newline stays none.
  return without.endsWith("\n") ? `${without}${line}\n` : `${without}\n${line}`;
}

/**
 * A config's text without tma's marked lines, byte for byte as it was
 * before `markConf` (a line it appended without a trailing newline takes
 * the newline before it along).
 */
export function unmarkConf(text: string): string {
  const lines = text.split("\n");
  const kept: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (!isMarked(lines[i])) {
      kept.push(lines[i]);
      continue;
    }
    // The last line, unterminated: the newline before it was tma's too.
    if (i === lines.length - 1 && kept.length > 0) return kept.join("\n");
    if (i === lines.length - 2 && lines[i + 1] === "") {
      return kept.length === 0 ? "" : `${kept.join("\n")}\n`;
    }
  }
  return kept.join("\n");
}

/** Whether a managed file is tma's. */
export function isManagedKeys(text: string): boolean {
  return text.startsWith(KEYS_BANNER);
}

/** What the files hold now. */
export interface KeysState {
  managed: string | null;
  conf: string | null;
}

/** The file changes of an install: the managed file and the marked line. */
export function planKeysInstall(
  paths: KeysPaths,
  state: KeysState,
  options: KeysOptions,
): FileChange[] {
  if (state.managed !== null && !isManagedKeys(state.managed)) {
    throw new InstallError(
      `${paths.managed} exists and is not tma's (no "${KEYS_BANNER}" first line); move it ` +
        "aside, or pass --config-dir to put tma's file elsewhere",
      paths.managed,
    );
  }
  return [
    { path: paths.managed, before: state.managed, after: renderManaged(options), backup: false },
    {
      path: paths.conf,
      before: state.conf,
      after: markConf(state.conf, sourceLine(paths.configDirFlag)),
      // The backup is the user's original: never a config that already holds tma's line.
      backup: !(state.conf ?? "").split("\n").some(isMarked),
    },
  ].filter(isChange);
}

/** The file changes of an uninstall: the managed file removed, the marked lines unwound. */
export function planKeysUninstall(
  paths: KeysPaths,
  state: KeysState & { others: { path: string; text: string }[] },
  options: { createdConf: boolean },
): FileChange[] {
  const changes: FileChange[] = [];
  if (state.managed !== null) {
    if (!isManagedKeys(state.managed)) {
      throw new InstallError(
        `${paths.managed} is not tma's (no "${KEYS_BANNER}" first line); it was left as it is`,
        paths.managed,
      );
    }
    changes.push({ path: paths.managed, before: state.managed, after: null, backup: false });
  }
  const confs = [
    ...(state.conf === null ? [] : [{ path: paths.conf, text: state.conf }]),
    ...state.others,
  ];
  for (const conf of confs) {
    const after = unmarkConf(conf.text);
    if (after === conf.text) continue;
    // A config tma created holds nothing else: it goes, as it came.
    const remove = after === "" && conf.path === paths.conf && options.createdConf;
    changes.push({
      path: conf.path,
      before: conf.text,
      after: remove ? null : after,
      backup: false,
    });
  }
  return changes;
}

/** The verdict of `--check` (C85). */
export interface KeysCheck {
  ok: boolean;
  /** One line per finding, for the report. */
  lines: string[];
  /** The marked line appears exactly once in the tmux configs. */
  sourced: boolean;
}

/**
 * Checks the managed file and the marked line (C85): the file must be what
 * install would write (the mouse group optional unless `mouse` is asked
 * for; a missing daemon launcher is drift unless `noDaemon`), and sourced
 * exactly once.
 */
export function checkKeys(
  paths: KeysPaths,
  state: KeysState & { others: { path: string; text: string }[] },
  options: KeysOptions & { noDaemon: boolean },
): KeysCheck {
  const lines: string[] = [];
  let ok = true;
  const accepted = new Set<string>();
  const daemons = options.noDaemon || !DAEMON_AVAILABLE ? [false, true] : [true];
  for (const mouse of options.mouse ? [true] : [false, true]) {
    for (const daemon of daemons) accepted.add(renderManaged({ ...options, mouse, daemon }));
  }
  if (state.managed === null) {
    ok = false;
    lines.push(`keys: ${paths.managed} is missing (run tma install-keys)`);
  } else if (!isManagedKeys(state.managed)) {
    ok = false;
    lines.push(`keys: ${paths.managed} is not tma's`);
  } else if (!accepted.has(state.managed)) {
    ok = false;
    lines.push(`keys: ${paths.managed} differs from what this tma writes (rerun tma install-keys)`);
  } else {
    lines.push(`keys: ${paths.managed} ok`);
  }
  const confs = [
    ...(state.conf === null ? [] : [{ path: paths.conf, text: state.conf }]),
    ...state.others,
  ];
  const marked = confs.flatMap((c) =>
    c.text.split("\n").filter(isMarked).map((line) => ({ path: c.path, line }))
  );
  const expected = sourceLine(paths.configDirFlag);
  const sourced = marked.length === 1 && marked[0].line === expected;
  if (marked.length === 0) {
    lines.push(`keys: no tmux config sources it (expected in ${paths.conf})`);
  } else if (marked.length > 1) {
    lines.push(`keys: sourced ${marked.length} times (${marked.map((m) => m.path).join(", ")})`);
  } else if (!sourced) lines.push(`keys: ${marked[0].path} has an edited "${SOURCE_MARK}" line`);
  else lines.push(`keys: sourced once, from ${marked[0].path}`);
  return { ok: ok && sourced, lines, sourced };
}

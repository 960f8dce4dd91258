/**
 * `tma install-keys` (C84-C90): plan, show the diff, ask (`--yes` skips; a
 * non-terminal without it declines), write atomically, then load the
 * managed file into the running server so the keys and hooks work at once.
 * `--check` and `--uninstall` read the same plan.
 * @module
 */
import { UsageError } from "../core/errors.ts";
import type { EnvReader } from "../runtime/paths.ts";
import type { TmuxServer } from "../tmux/exec.ts";
import { TmuxNoServerError, TmuxNotInstalledError, TmuxTimeoutError } from "../tmux/errors.ts";
import { sourceConfigFile } from "../tmux/global_hooks.ts";
import { askToApply } from "./ask.ts";
import { InstallError } from "./errors.ts";
import {
  applyChange,
  BACKUP_SUFFIX,
  checkWritable,
  describeChange,
  type FileChange,
  readOrNull,
} from "./files.ts";
import { dedupeManagedHooks } from "./focus_hooks.ts";
import {
  checkKeys,
  DAEMON_AVAILABLE,
  isMarked,
  type KeysPaths,
  planKeysInstall,
  planKeysUninstall,
  resolveKeysPaths,
  SOURCE_MARK,
  tmuxConfCandidates,
} from "./keys.ts";
import type { Launcher } from "./launcher.ts";

/** The flags of C84-C89. */
export interface InstallKeysRequest {
  check: boolean;
  uninstall: boolean;
  mouse: boolean;
  noDaemon: boolean;
  yes: boolean;
  conf?: string;
  configDir?: string;
}

/** What the command runs against. */
export interface InstallKeysDeps {
  env: EnvReader;
  launcher: Launcher;
  /** `[focus] events` (D59). */
  focusEvents: boolean;
  server(): Promise<TmuxServer>;
  out(text: string): void;
  err(text: string): void;
  confirm?: (question: string) => Promise<boolean>;
}

function existsSync(path: string): boolean {
  try {
    Deno.statSync(path);
    return true;
  } catch {
    return false;
  }
}

/** The paths, the files as they stand, and other configs that carry the mark. */
export async function readKeysState(request: InstallKeysRequest, env: EnvReader) {
  const paths: KeysPaths = resolveKeysPaths({
    env,
    exists: existsSync,
    conf: request.conf,
    configDir: request.configDir,
  });
  const others: { path: string; text: string }[] = [];
  for (const path of tmuxConfCandidates(env)) {
    if (path === paths.conf) continue;
    const text = await readOrNull(path).catch(() => null);
    if (text !== null && text.split("\n").some(isMarked)) others.push({ path, text });
  }
  return {
    paths,
    state: {
      managed: await readOrNull(paths.managed),
      conf: await readOrNull(paths.conf),
      others,
    },
  };
}

function unreachable(error: unknown): boolean {
  return error instanceof TmuxNoServerError || error instanceof TmuxNotInstalledError ||
    error instanceof TmuxTimeoutError;
}

function preview(deps: InstallKeysDeps, changes: FileChange[], yes: boolean): Promise<boolean> {
  return askToApply(deps, changes.map(describeChange), yes);
}

/** Whether `tma` resolves on PATH (the bindings run it from there). */
function tmaOnPath(env: EnvReader): boolean {
  return (env("PATH") ?? "").split(":").some((dir) => dir !== "" && existsSync(`${dir}/tma`));
}

/** Runs install-keys; returns the exit code (0 done or current, 1 declined or drifted). */
export async function runInstallKeys(
  request: InstallKeysRequest,
  deps: InstallKeysDeps,
): Promise<number> {
  if (request.check && request.uninstall) {
    throw new UsageError("--check and --uninstall exclude each other");
  }
  const { paths, state } = await readKeysState(request, deps.env);
  const options = {
    mouse: request.mouse,
    daemon: DAEMON_AVAILABLE && !request.noDaemon,
    focusEvents: deps.focusEvents,
    launcher: deps.launcher,
  };
  if (request.check) {
    const verdict = checkKeys(paths, state, { ...options, noDaemon: request.noDaemon });
    for (const line of verdict.lines) deps.out(`${line}\n`);
    return verdict.ok ? 0 : 1;
  }
  if (request.uninstall) {
    const changes = planKeysUninstall(paths, state, {
      createdConf: !existsSync(`${paths.conf}${BACKUP_SUFFIX}`),
    });
    if (changes.length === 0) {
      deps.out("tma: no tma keys are installed; nothing to change\n");
      return 0;
    }
    for (const change of changes) await checkWritable(change);
    if (!(await preview(deps, changes, request.yes))) return 1;
    for (const change of changes) {
      try {
        await applyChange(change);
      } catch (error) {
        const line = (change.before ?? "").split("\n").find(isMarked) ?? SOURCE_MARK;
        throw new InstallError(
          `cannot remove the line "${line}" from ${change.path}: ${
            error instanceof Error ? error.message : error
          }; remove it by hand`,
          change.path,
        );
      }
      deps.out(`tma: ${change.after === null ? "removed" : "wrote"} ${change.path}\n`);
    }
    deps.out("tma: the running tmux keeps the bindings until it restarts\n");
    return 0;
  }
  const changes = planKeysInstall(paths, state, options);
  if (changes.length === 0) {
    deps.out("tma: keys already installed; nothing to change\n");
  } else {
    // A read-only config is the user's choice: refused before anything is written (item 10).
    for (const change of changes) await checkWritable(change);
    if (!(await preview(deps, changes, request.yes))) return 1;
    for (const change of changes) {
      await applyChange(change);
      deps.out(`tma: wrote ${change.path}\n`);
    }
  }
  try {
    const server = await deps.server();
    await sourceConfigFile(server, paths.managed);
    await dedupeManagedHooks(server, { focusEvents: deps.focusEvents });
    if (changes.length > 0) deps.out("tma: loaded into the running tmux server\n");
  } catch (error) {
    if (!unreachable(error)) throw error;
    deps.out(`tma: takes effect when tmux next starts (no server: ${(error as Error).message})\n`);
  }
  if (!tmaOnPath(deps.env)) {
    deps.err(
      "tma: warning: the bindings run `tma` from PATH, and none is there; install it with the " +
        "README's `deno install` line\n",
    );
  }
  return 0;
}

/**
 * Hook helpers for the integration tests: our payload fixtures
 * (`tests/fixtures_payloads/`), a `tma` the wrapper can run (a small script
 * around `deno run mod.ts`), firing `integrations/tma-hook` at a scratch tmux
 * server the way an agent does, and reading back the stamp it left.
 * @module
 */
import { RUN_PERMISSIONS } from "../../src/core/permissions.ts";
import { daemonPaths } from "../../src/runtime/daemon_link.ts";
import { type Ran, runProcess } from "./process.ts";
import { denoDir, type ScratchTmux } from "./tmux.ts";

const PAYLOADS = new URL("../fixtures_payloads/", import.meta.url);
const REPO = new URL("../../", import.meta.url);

/** The wrapper under test. */
export const WRAPPER = new URL("integrations/tma-hook", REPO).pathname;

/** The working directory our payloads name; `payload()` can swap it for a real one. */
export const PAYLOAD_CWD = "/home/dev/work/shop";

/**
 * One payload fixture's text: `tests/fixtures_payloads/<agent>/<name>.payload`,
 * with its `cwd` swapped for `cwd` when given.
 */
export function payload(agent: string, name: string, cwd?: string): string {
  const text = Deno.readTextFileSync(new URL(`${agent}/${name}.payload`, PAYLOADS));
  return cwd === undefined ? text : text.replaceAll(PAYLOAD_CWD, cwd);
}

/** The session id a payload fixture carries, or its Codex `thread-id`. */
export function sessionOf(agent: string, name: string): string {
  const fields = JSON.parse(payload(agent, name));
  return fields.session_id ?? fields["thread-id"];
}

/**
 * Writes a `tma` script into the scratch folder that runs this checkout's
 * `mod.ts` with the documented permissions, and returns its path.
 */
export async function tmaScript(scratch: ScratchTmux): Promise<string> {
  const dir = `${scratch.dir}/tma-bin`;
  await Deno.mkdir(dir, { recursive: true });
  const path = `${dir}/tma`;
  const mod = new URL("mod.ts", REPO).pathname;
  await Deno.writeTextFile(
    path,
    [
      "#!/bin/sh",
      `DENO_DIR='${denoDir()}' exec '${Deno.execPath()}' run --quiet --no-prompt \\`,
      `  ${RUN_PERMISSIONS.join(" ")} '${mod}' "$@"`,
      "",
    ].join("\n"),
  );
  await Deno.chmod(path, 0o755);
  return path;
}

/** The outcome of one wrapper run. */
export type Fired = Ran;

/** Options of `fireHook`. */
export interface FireOptions {
  agent: string;
  event: string;
  /** The pane `$TMUX_PANE` names. */
  pane: string;
  /** The payload on stdin. */
  stdin?: string;
  /** A trailing argv payload (Codex `notify`). */
  arg?: string;
  /** `TMA_BIN`; the scratch `tma` script by default. */
  bin?: string;
  /** The wrapper to run; `integrations/tma-hook` by default. */
  wrapper?: string;
  env?: Record<string, string>;
  /** Kill the run (and all it started) after this long; the result says `timedOut`. */
  deadlineMs?: number;
  /**
   * Return as soon as the wrapper does, without waiting for the queued event
   * to be stamped (X10). By default `fireHook` waits until the server's
   * spool is empty, so a test reads the stamp the event left.
   */
  noSettle?: boolean;
}

/**
 * Runs the wrapper as an agent would: `tma-hook <agent> <event> [arg]`, with
 * `$TMUX_PANE`, the payload on stdin, and `TMA_HOOK_SOCKET` pinning the
 * scratch server.
 */
export async function fireHook(scratch: ScratchTmux, options: FireOptions): Promise<Fired> {
  const bin = options.bin ?? await tmaScript(scratch);
  const args = [options.agent, options.event, ...(options.arg === undefined ? [] : [options.arg])];
  const env = scratch.env({
    TMA_BIN: bin,
    TMA_HOOK_SOCKET: scratch.socketName,
    TMUX_PANE: options.pane,
    ...options.env,
  });
  const ran = await runProcess(options.wrapper ?? WRAPPER, {
    args,
    env,
    stdin: options.stdin ?? "",
    deadlineMs: options.deadlineMs,
  });
  if (!options.noSettle) await settleSpool(scratch, env);
  return ran;
}

/** The spool folder of the scratch server, under the runtime folder `env` names. */
export async function spoolOf(
  scratch: ScratchTmux,
  env: Record<string, string> = scratch.env(),
): Promise<string> {
  const socketPath = (await scratch.tmux("display", "-p", "#{socket_path}")).trim();
  return daemonPaths((name) => env[name], socketPath).spool;
}

/**
 * Waits until the scratch server's spool holds no entry, queued or claimed:
 * every event the wrapper queued is stamped (or refused) by then (X10).
 */
export async function settleSpool(
  scratch: ScratchTmux,
  env: Record<string, string> = scratch.env(),
  timeoutMs = 15_000,
): Promise<void> {
  const spool = await spoolOf(scratch, env);
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    let waiting = 0;
    try {
      for (const entry of Deno.readDirSync(spool)) {
        if (entry.name.endsWith(".ev") || entry.name.endsWith(".claimed")) waiting++;
      }
    } catch {
      return;
    }
    if (waiting === 0) return;
    if (Date.now() > deadline) throw new Error(`the spool ${spool} still holds ${waiting} entries`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** Every `@agent_*` option of a pane, as tmux holds them now (empty values left out). */
export async function agentOptions(
  scratch: ScratchTmux,
  pane: string,
): Promise<Record<string, string>> {
  const text = await scratch.tmux("show-options", "-p", "-t", pane);
  const out: Record<string, string> = {};
  for (const line of text.split("\n")) {
    const m = /^(@agent_\w+) (.*)$/.exec(line);
    if (!m) continue;
    // tmux quotes a value it prints when it holds special characters.
    const value = m[2].replace(/^"(.*)"$|^'(.*)'$/, "$1$2");
    if (value !== "") out[m[1]] = value;
  }
  return out;
}

/** Writes the scratch config file (`TMA_CONFIG` of the scratch env). */
export async function writeConfig(scratch: ScratchTmux, text: string): Promise<void> {
  await Deno.mkdir(`${scratch.home}/.config/tma`, { recursive: true });
  await Deno.writeTextFile(`${scratch.home}/.config/tma/config.toml`, text);
}

/** A pane that runs nothing but a long sleep (a hook-only pane). */
export async function quietPane(scratch: ScratchTmux): Promise<string> {
  return await scratch.newWindow(["sh", "-c", "sleep 3600"]);
}

/**
 * Fires one event through the wrapper with its payload fixture (or `stdin`):
 * `fireFixture(t, { pane, bin }, "Stop")` for Claude's `Stop.payload`.
 */
export async function fireFixture(
  scratch: ScratchTmux,
  target: { pane: string; bin: string; agent?: string },
  event: string,
  stdin?: string,
): Promise<Fired> {
  const agent = target.agent ?? "claude";
  return await fireHook(scratch, {
    agent,
    event,
    pane: target.pane,
    bin: target.bin,
    stdin: stdin ?? payload(agent, event),
  });
}

/** A quiet pane registered as a Claude session by its `SessionStart` (idle). */
export async function registeredPane(scratch: ScratchTmux, bin: string): Promise<string> {
  const pane = await quietPane(scratch);
  await fireFixture(scratch, { pane, bin }, "SessionStart");
  return pane;
}

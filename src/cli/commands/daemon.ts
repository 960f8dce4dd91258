/**
 * `tma daemon` (C69-C71): the daemon in the foreground, or with `--ensure`
 * a detached one for this server unless one already holds the lock. This is
 * the only module that imports `src/daemon/` (R13).
 * @module
 */
import { TmaError } from "../../core/errors.ts";
import { ENGINE_VERSION } from "../../core/version.ts";
import { selfArgv } from "../../actions/self.ts";
import {
  childFlags,
  type ChildGlobals,
  daemonOf,
  prepareDaemonDirs,
} from "../../runtime/daemon_start.ts";
import { daemonPaths, liveDaemon } from "../../runtime/daemon_link.ts";
import type { EnvReader } from "../../runtime/paths.ts";
import { Daemon } from "../../daemon/daemon.ts";
import { releaseLock, takeLock } from "../../daemon/lock.ts";
import { boolFlag, type ParsedArgs, stringFlag } from "../args.ts";
import type { CommandContext } from "../context.ts";

/** How long `--ensure` waits for the daemon it started to answer. */
const ENSURE_WAIT_MS = 5000;

/**
 * Entries that reached the spool after the daemon's last drain would wait
 * for the next hook's fire: a drainer takes them now (R13). The daemon's
 * alias file stays, as the wrapper reads it with or without a daemon.
 */
async function handOverSpool(globals: ChildGlobals, env: EnvReader): Promise<void> {
  const { pendingEntries } = await import("../../runtime/spool.ts");
  const paths = daemonPaths(env, globals.socketPath);
  if ((await pendingEntries(paths.spool)).length === 0) return;
  try {
    new Deno.Command(selfArgv()[0], {
      args: [...selfArgv().slice(1), ...childFlags(globals), "event", "--drain"],
      stdin: "null",
      stdout: "null",
      stderr: "null",
      detached: true,
    }).spawn().unref();
  } catch {
    // The next fire starts one.
  }
}

/** Runs `tma daemon`. */
export async function run(ctx: CommandContext, args: ParsedArgs): Promise<number> {
  const server = await ctx.server();
  const found = await daemonOf(server, (name) => ctx.env(name));
  if (found === null) {
    throw new TmaError("tma daemon: no tmux server runs there: start tmux first");
  }
  const { paths, socketPath } = found;
  const globals = {
    socketPath,
    config: ctx.globals.config,
    noConfig: ctx.globals.noConfig,
    manifestDir: ctx.globals.manifestDir,
  };
  await prepareDaemonDirs(paths);
  if (boolFlag(args.flags, "ensure")) {
    if (await liveDaemon(paths) !== null) return 0;
    const child = new Deno.Command(selfArgv()[0], {
      args: [...selfArgv().slice(1), ...childFlags(globals), "daemon"],
      stdin: "null",
      stdout: "null",
      stderr: "null",
    }).spawn();
    child.unref();
    // Ready when some daemon answers (two --ensure at once: the loser's
    // child refuses the lock and the winner's answers for both).
    const deadline = ctx.now() + ENSURE_WAIT_MS;
    while (ctx.now() < deadline) {
      if (await liveDaemon(paths) !== null) return 0;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new TmaError("tma daemon --ensure: the daemon did not start within 5 s");
  }

  const lock = await takeLock(paths.lock, ENGINE_VERSION);
  if (lock === null) {
    const other = await liveDaemon(paths);
    throw new TmaError(
      `tma daemon: a daemon already serves this server${
        other ? ` (pid ${other.pid})` : ""
      }; stop it first (kill its pid) or use tma reload`,
    );
  }
  await Deno.remove(paths.sock).catch(() => undefined);
  await Deno.writeTextFile(paths.alias, `${paths.key}\n`, { mode: 0o600 });
  const sweep = stringFlag(args.flags, "sweep-ms");
  const daemon = new Daemon({
    server,
    paths,
    env: (name) => ctx.env(name),
    configFlag: ctx.globals.config,
    noConfig: ctx.globals.noConfig,
    manifestDir: ctx.globals.manifestDir,
    now: () => ctx.now(),
    log: (line) => ctx.err(`${line}\n`),
    sweepMs: sweep && Number(sweep) > 0 ? Number(sweep) : undefined,
    directStamp: (event) => {
      const child = new Deno.Command(selfArgv()[0], {
        args: [
          ...selfArgv().slice(1),
          ...childFlags(globals),
          "event",
          "--agent",
          event.agent,
          "--kind",
          event.kind,
          "--pane",
          event.pane ?? "",
          "--payload",
          "-",
        ],
        env: {
          TMA_HOOK_FIRED_AT: String(event.firedAt),
          TMA_NO_DAEMON: "1",
          ...(event.hookPid === undefined ? {} : { TMA_HOOK_PID: String(event.hookPid) }),
        },
        stdin: "piped",
        stdout: "null",
        stderr: "null",
      }).spawn();
      const writer = child.stdin.getWriter();
      writer.write(new TextEncoder().encode(event.payload)).finally(() =>
        writer.close().catch(() => undefined)
      ).catch(() => undefined);
      child.status.catch(() => undefined);
    },
  });
  const onHup = () => daemon.reload();
  const onStop = () => daemon.shutdown(0);
  Deno.addSignalListener("SIGHUP", onHup);
  Deno.addSignalListener("SIGTERM", onStop);
  Deno.addSignalListener("SIGINT", onStop);
  let code: number;
  try {
    code = await daemon.run();
  } finally {
    releaseLock(lock);
    await Deno.remove(paths.sock).catch(() => undefined);
    await handOverSpool(globals, (name) => ctx.env(name));
  }
  Deno.removeSignalListener("SIGHUP", onHup);
  Deno.removeSignalListener("SIGTERM", onStop);
  Deno.removeSignalListener("SIGINT", onStop);
  return code;
}

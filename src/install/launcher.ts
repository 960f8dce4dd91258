/**
 * How a shell snippet runs tma: the statusline shim (I7) and the tmux
 * attention hooks (I4) embed the binary found at install time and fall back
 * to `tma` on PATH when that path no longer runs, so a moved binary degrades
 * to PATH lookup instead of an error.
 *
 * A compiled tma is one file (`Deno.execPath()`). Run from source
 * (`deno run … mod.ts`) there is no tma file, so the launcher is the deno
 * binary plus the documented permission set and the main module.
 * @module
 */
import { RUN_PERMISSIONS } from "../core/permissions.ts";
import { shellQuote, shellQuoteAlways } from "./shell.ts";

/** The permission flags of `deno task tma` (never `-A`). */
export const DENO_RUN_FLAGS: readonly string[] = ["run", "--quiet", ...RUN_PERMISSIONS];

/** How to start tma from a shell. */
export interface Launcher {
  /** The argv prefix that runs tma (then the subcommand's own arguments). */
  argv: string[];
  /** Paths that must exist at fire time for `argv` to be used (else PATH `tma`). */
  requires: string[];
}

/** What `resolveLauncher` reads; tests pass their own. */
export interface LauncherSource {
  execPath: string;
  mainModule: string;
  /** `TMA_BIN`: an explicit binary, which wins. */
  tmaBin?: string;
}

/**
 * The launcher of the running tma.
 *
 * ```ts
 * resolveLauncher({ execPath: "/usr/local/bin/tma", mainModule: "file:///x/mod.ts" });
 * // { argv: ["/usr/local/bin/tma"], requires: ["/usr/local/bin/tma"] }
 * ```
 */
export function resolveLauncher(source: LauncherSource): Launcher {
  if (source.tmaBin) return { argv: [source.tmaBin], requires: [source.tmaBin] };
  const exe = source.execPath;
  const name = exe.slice(exe.lastIndexOf("/") + 1);
  if (!/^deno(\.exe)?$/.test(name)) return { argv: [exe], requires: [exe] };
  if (source.mainModule.startsWith("file://")) {
    const main = decodeURIComponent(new URL(source.mainModule).pathname);
    return { argv: [exe, ...DENO_RUN_FLAGS, main], requires: [exe, main] };
  }
  return { argv: [exe, ...DENO_RUN_FLAGS, source.mainModule], requires: [exe] };
}

/** The launcher of this process (`TMA_BIN` honoured). */
export function currentLauncher(env: (name: string) => string | undefined): Launcher {
  return resolveLauncher({
    execPath: Deno.execPath(),
    mainModule: Deno.mainModule,
    tmaBin: env("TMA_BIN"),
  });
}

/**
 * A POSIX-sh fragment that sets `"$@"` to the launcher, or to `tma` (PATH)
 * when the embedded path no longer exists. Follow it with `"$@" <args>`.
 *
 * ```ts
 * launcherSetup({ argv: ["/b/tma"], requires: ["/b/tma"] });
 * // `set -- /b/tma; [ -x '/b/tma' ] || set -- tma`
 * ```
 */
export function launcherSetup(launcher: Launcher): string {
  const tests = launcher.requires.map((path, i) =>
    i === 0 ? `[ -x ${shellQuoteAlways(path)} ]` : `[ -f ${shellQuoteAlways(path)} ]`
  );
  const set = `set -- ${launcher.argv.map(shellQuote).join(" ")}`;
  return `${set}; ${tests.join(" && ")} || set -- tma`;
}

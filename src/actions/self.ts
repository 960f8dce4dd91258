/**
 * How tma runs itself again from a tmux command (the action menu): the
 * compiled binary, or `deno run` with the documented permissions and this
 * program's entry module.
 * @module
 */

/** The permissions tma runs with under `deno run` (mod.ts's usage line). */
export const RUN_PERMISSIONS: readonly string[] = [
  "--allow-read",
  "--allow-write",
  "--allow-env",
  "--allow-run",
  "--allow-net=127.0.0.1,localhost,[::1]",
  "--allow-sys=hostname",
];

/**
 * The argv that starts this tma: `[binary]` when compiled, else
 * `[deno, "run", "--quiet", ...permissions, entry]`.
 */
export function selfArgv(): string[] {
  const exec = Deno.execPath();
  const base = exec.split("/").pop() ?? exec;
  if (!/^deno(\.exe)?$/.test(base)) return [exec];
  const main = Deno.mainModule.startsWith("file://")
    ? decodeURIComponent(new URL(Deno.mainModule).pathname)
    : Deno.mainModule;
  return [exec, "run", "--quiet", ...RUN_PERMISSIONS, main];
}

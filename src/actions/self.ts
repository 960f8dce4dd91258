/**
 * How tma runs itself again from a tmux command (the action menu): the
 * compiled binary, or `deno run` with the documented permissions and this
 * program's entry module.
 * @module
 */
import { RUN_PERMISSIONS } from "../core/permissions.ts";

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

/**
 * tma: which of your coding agents in tmux is working, blocked or idle.
 *
 * The one entrypoint of every command. Run it with the permissions the README
 * documents, for example:
 *
 * ```sh
 * deno run --allow-read --allow-write --allow-env --allow-run \
 *   --allow-net=127.0.0.1,localhost,[::1] --allow-sys=hostname mod.ts ls --json
 * ```
 * @module
 */
import { main } from "./src/cli/main.ts";

export { main };
export { ENGINE_VERSION as VERSION } from "./src/core/version.ts";

if (import.meta.main) {
  Deno.exit(await main(Deno.args));
}

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
  const code = await main(Deno.args);
  // Deno writes the V8 code cache of what it compiled from its event loop,
  // so a run that ends before the loop turns (`--version`, `help`, a
  // stampede-guarded status) never saves it, and the bundle, one module,
  // would compile its whole text on every start (issue 14). One zero-delay
  // tick lets that write happen; once the cache is there it costs nothing.
  // The exit code stays main's: a stray rejection seen in the tick, which
  // the exit used to outrun, must not turn it into a crash.
  addEventListener("unhandledrejection", (event) => event.preventDefault());
  await new Promise((resolve) => AbortSignal.timeout(0).addEventListener("abort", resolve));
  Deno.exit(code);
}

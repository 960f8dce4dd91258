/**
 * The Deno permissions tma runs under, written down once: `deno task tma`,
 * the README, the launcher that hooks and menus run, the bundle's shebang,
 * the compiled binary and the tests all take them from here, and a test pins
 * deno.json and the README to this list. Never `-A`.
 * @module
 */

/**
 * The `--allow-*` flags of every way tma runs, in the order the README
 * documents them.
 *
 * ```ts
 * ["deno", "run", ...RUN_PERMISSIONS, "mod.ts", "ls"].join(" ");
 * // "deno run --allow-read --allow-write ... --allow-sys=hostname mod.ts ls"
 * ```
 */
export const RUN_PERMISSIONS: readonly string[] = [
  "--allow-read",
  "--allow-write",
  "--allow-env",
  "--allow-run",
  "--allow-net=127.0.0.1,localhost,[::1]",
  "--allow-sys=hostname",
];

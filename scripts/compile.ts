/**
 * Builds the self-contained executable `dist/tma` (U45) with `deno compile`,
 * under the permissions of `src/core/permissions.ts` (never `-A`), with the
 * manifests and the integration files inside.
 *
 * `deno compile` needs `denort`, the slim runtime it copies the program into.
 * Deno takes it from `DENORT_BIN` when that is set (passed through here), and
 * otherwise downloads it from Deno's release server; the npm `deno` package
 * ships no `denort`. With neither at hand this script says so and exits 3.
 *
 * ```sh
 * deno task compile                           # writes dist/tma
 * DENORT_BIN=/opt/denort deno task compile    # offline, with a runtime at hand
 * ```
 * @module
 */
import { formatSize, parseOutputFlag, writeBundledAssets } from "./bundle.ts";
import { RUN_PERMISSIONS } from "../src/core/permissions.ts";
import { ENGINE_VERSION } from "../src/core/version.ts";

const ROOT = new URL("../", import.meta.url);

/** Where `deno task compile` writes by default, relative to the repository root. */
export const DEFAULT_BINARY_PATH = "dist/tma";

/** The exit code of `deno task compile` when no `denort` runtime can be had. */
export const NO_RUNTIME_EXIT = 3;

/** No `denort` runtime: `DENORT_BIN` is unset and Deno could not download one. */
export class NoRuntimeError extends Error {
  override name = "NoRuntimeError";
}

/** Options for {@link compileBinary}. */
export interface CompileOptions {
  /** The output file; relative paths are taken from the repository root. */
  output?: string;
  /** Skip refreshing `src/assets/bundled.ts` (a test that must not touch the tree). */
  skipEmbed?: boolean;
}

/** What {@link compileBinary} wrote. */
export interface CompileResult {
  path: string;
  bytes: number;
}

/** Checks that `DENORT_BIN`, when set, names a file, so the failure names the variable. */
async function checkDenortBin(): Promise<void> {
  const denort = Deno.env.get("DENORT_BIN");
  if (!denort) return;
  const info = await Deno.stat(denort).catch(() => null);
  if (!info?.isFile) {
    throw new NoRuntimeError(
      `DENORT_BIN=${denort} is not a file: point it at the denort binary of Deno ${Deno.version.deno}`,
    );
  }
}

/**
 * Compiles `mod.ts` into one executable and checks that it prints
 * `tma <version>`.
 *
 * ```ts
 * const { path } = await compileBinary({ output: "/tmp/tma" });
 * ```
 */
export async function compileBinary(options: CompileOptions = {}): Promise<CompileResult> {
  await checkDenortBin();
  if (!options.skipEmbed) await writeBundledAssets();
  const url = new URL(options.output ?? DEFAULT_BINARY_PATH, ROOT);
  const path = decodeURIComponent(url.pathname);
  await Deno.mkdir(new URL(".", url), { recursive: true });
  const out = await new Deno.Command(Deno.execPath(), {
    args: [
      "compile",
      ...RUN_PERMISSIONS,
      // The manifests reach the binary through src/assets/bundled.ts; the
      // folders go in too so a path-based read finds the same text.
      "--include",
      "manifests",
      "--include",
      "integrations",
      "-o",
      path,
      "mod.ts",
    ],
    cwd: decodeURIComponent(ROOT.pathname),
    // The environment passes through untouched: DENORT_BIN above all.
    stdin: "null",
    stdout: "inherit",
    stderr: "piped",
  }).output();
  const stderr = new TextDecoder().decode(out.stderr);
  if (!out.success) {
    if (/denort|base binary/i.test(stderr)) {
      throw new NoRuntimeError(
        `no Deno runtime (denort) at hand: DENORT_BIN is unset and Deno could not download ` +
          `denort ${Deno.version.deno} (no network?). Set DENORT_BIN to a denort binary of ` +
          `Deno ${Deno.version.deno}, or build the bundle instead: deno task bundle.\n${stderr.trim()}`,
      );
    }
    throw new Error(`deno compile failed (exit ${out.code}):\n${stderr.trim()}`);
  }
  await checkBinary(path);
  return { path, bytes: (await Deno.stat(path)).size };
}

/**
 * Runs the new binary with `--version`. A full `deno` given as `DENORT_BIN`
 * builds a file that ignores the program inside and answers as Deno itself.
 */
async function checkBinary(path: string): Promise<void> {
  const out = await new Deno.Command(path, { args: ["--version"], stdin: "null" }).output();
  const line = new TextDecoder().decode(out.stdout).split("\n")[0];
  if (line === `tma ${ENGINE_VERSION}`) return;
  const hint = line.startsWith("deno ")
    ? ": DENORT_BIN names a full deno, not denort; point it at denort"
    : "";
  await Deno.remove(path).catch(() => undefined);
  throw new Error(
    `${path} --version printed ${JSON.stringify(line)}, not "tma ${ENGINE_VERSION}"${hint}`,
  );
}

if (import.meta.main) {
  try {
    const output = parseOutputFlag(Deno.args, "deno task compile [--output PATH]");
    const { path, bytes } = await compileBinary({ output });
    console.log(`compiled ${path} (${formatSize(bytes)})`);
  } catch (error) {
    console.error(`compile: ${error instanceof Error ? error.message : String(error)}`);
    Deno.exit(error instanceof NoRuntimeError ? NO_RUNTIME_EXIT : 1);
  }
}

/**
 * Builds the single-file bundle `dist/tma.js` (U45): refreshes the embedded
 * manifests and hooks, then runs `deno bundle` with every npm package inlined,
 * so the file runs with `deno run --no-config` and no `deno.json` beside it.
 * The output is minified (names kept, for errors and stack traces): every
 * start pays for the file's size (issue 14). Cold packages that would slow
 * every start-up ride inside it as lazy chunks (scripts/bundle_layout.ts).
 *
 * ```sh
 * deno task bundle                    # writes dist/tma.js
 * deno task bundle --output /tmp/t.js # somewhere else
 * deno run --no-config --allow-read --allow-write --allow-env --allow-run \
 *   --allow-net=127.0.0.1,localhost,[::1] --allow-sys=hostname dist/tma.js --version
 * ```
 * @module
 */
import { RUN_PERMISSIONS } from "../src/core/permissions.ts";
import { renderBundledAssets } from "./embed_assets.ts";
import {
  exportedNames,
  layoutBundle,
  LAZY_CHUNKS,
  LAZY_SCHEME,
  standInSource,
} from "./bundle_layout.ts";

const ROOT = new URL("../", import.meta.url);

/** Where `deno task bundle` writes by default, relative to the repository root. */
export const DEFAULT_BUNDLE_PATH = "dist/tma.js";

/** Rewrites `src/assets/bundled.ts` from `manifests/` and `integrations/` (what `deno task embed` does). */
export async function writeBundledAssets(): Promise<void> {
  await Deno.writeTextFile(new URL("src/assets/bundled.ts", ROOT), await renderBundledAssets());
}

/** Options for {@link buildBundle}. */
export interface BundleOptions {
  /** The output file; relative paths are taken from the repository root. */
  output?: string;
  /** Skip refreshing `src/assets/bundled.ts` (a test that must not touch the tree). */
  skipEmbed?: boolean;
}

/** What {@link buildBundle} wrote. */
export interface BundleResult {
  path: string;
  bytes: number;
}

/**
 * Bundles `mod.ts` into one JavaScript file with a `deno run` shebang line.
 *
 * ```ts
 * const { path, bytes } = await buildBundle({ output: "/tmp/tma.js" });
 * ```
 */
export async function buildBundle(options: BundleOptions = {}): Promise<BundleResult> {
  if (!options.skipEmbed) await writeBundledAssets();
  const url = new URL(options.output ?? DEFAULT_BUNDLE_PATH, ROOT);
  const path = decodeURIComponent(url.pathname);
  await Deno.mkdir(new URL(".", url), { recursive: true });
  const scratch = await Deno.makeTempDir({ prefix: "tma-bundle-build-" });
  try {
    // Each lazy chunk is bundled on its own; in the main file an import map
    // puts a stand-in in its place, which loads it on first use
    // (scripts/bundle_layout.ts).
    const imports: Record<string, string> = {};
    const chunks = new Map<string, string>();
    for (const [i, chunk] of LAZY_CHUNKS.entries()) {
      const names = exportedNames(await Deno.readTextFile(new URL(chunk.path, ROOT)), chunk.path);
      const standIn = `${scratch}/stand_in_${i}.ts`;
      await Deno.writeTextFile(standIn, standInSource(chunk.path, names));
      imports[new URL(chunk.path, ROOT).href] = new URL(`file://${standIn}`).href;
      await denoBundle([chunk.path], `${scratch}/chunk${i}.js`);
      chunks.set(chunk.path, await Deno.readTextFile(`${scratch}/chunk${i}.js`));
    }
    await Deno.writeTextFile(`${scratch}/import_map.json`, JSON.stringify({ imports }));
    await denoBundle([
      `--import-map=${scratch}/import_map.json`,
      `--external=${LAZY_SCHEME}*`,
      "mod.ts",
    ], `${scratch}/main.js`);
    const body = await layoutBundle(await Deno.readTextFile(`${scratch}/main.js`), chunks);
    // A shebang makes the bundle executable as it is, under the same permissions.
    const shebang = `#!/usr/bin/env -S deno run --no-config ${RUN_PERMISSIONS.join(" ")}\n`;
    await Deno.writeTextFile(path, body.startsWith("#!") ? body : shebang + body);
  } finally {
    await Deno.remove(scratch, { recursive: true }).catch(() => undefined);
  }
  await Deno.chmod(path, 0o755);
  return { path, bytes: (await Deno.stat(path)).size };
}

/** One `deno bundle` run from the repository root into `output`. */
async function denoBundle(args: readonly string[], output: string): Promise<void> {
  const out = await new Deno.Command(Deno.execPath(), {
    // `--packages bundle` inlines the npm packages: the file needs no
    // node_modules, no npm resolution and no deno.json when it runs.
    args: [
      "bundle",
      "--quiet",
      "--platform",
      "deno",
      "--packages",
      "bundle",
      "--minify",
      "--keep-names",
      "-o",
      output,
      ...args,
    ],
    cwd: ROOT.pathname,
    stdin: "null",
    stdout: "inherit",
    stderr: "piped",
  }).output();
  if (!out.success) {
    const detail = new TextDecoder().decode(out.stderr).trim();
    throw new Error(`deno bundle failed (exit ${out.code}):\n${detail}`);
  }
}

/** Formats a byte count as KiB or MiB with one decimal. */
export function formatSize(bytes: number): string {
  return bytes >= 1 << 20
    ? `${(bytes / (1 << 20)).toFixed(1)} MiB`
    : `${(bytes / 1024).toFixed(1)} KiB`;
}

/**
 * Reads the one optional `--output PATH` (or `-o PATH`, `--output=PATH`) of a
 * build script's command line.
 */
export function parseOutputFlag(args: readonly string[], usage: string): string | undefined {
  if (args.length === 0) return undefined;
  if (args.length === 1 && args[0].startsWith("--output=")) return args[0].slice(9);
  if (args.length === 2 && (args[0] === "--output" || args[0] === "-o")) return args[1];
  throw new Error(`unexpected arguments ${JSON.stringify(args)} (usage: ${usage})`);
}

if (import.meta.main) {
  try {
    const { path, bytes } = await buildBundle({
      output: parseOutputFlag(Deno.args, "deno task bundle [--output PATH]"),
    });
    console.log(`bundled ${path} (${formatSize(bytes)})`);
  } catch (error) {
    console.error(`bundle: ${error instanceof Error ? error.message : String(error)}`);
    Deno.exit(1);
  }
}

/**
 * The `tma-hook` wrapper (I1) and how agent configs name it (I2, C83).
 * Configs always reference the wrapper, never the tma binary: the wrapper
 * finds tma at each fire and exits quietly when it cannot, so a rebuilt or
 * moved tma never surfaces as a hook failure.
 * @module
 */
import { BUNDLED_INTEGRATIONS } from "../assets/bundled.ts";
import type { EnvReader } from "../runtime/paths.ts";
import { InstallError } from "./errors.ts";
import type { FileChange } from "./files.ts";
import { WRAPPER_NAME } from "./hook_command.ts";
import { dirName } from "./shell.ts";

/** How configs name the wrapper. */
export type WrapperStyle = "absolute" | "bare";

/** The bundled wrapper text. */
export function wrapperText(): string {
  const text = BUNDLED_INTEGRATIONS[WRAPPER_NAME];
  if (text === undefined) {
    throw new InstallError(
      `this build of tma lacks the bundled ${WRAPPER_NAME} wrapper (run deno task embed)`,
    );
  }
  return text;
}

/** The change that writes the wrapper (executable, no backup: the file is tma's). */
export function wrapperChange(path: string, before: string | null): FileChange {
  return { path, before, after: wrapperText(), mode: 0o755, backup: false };
}

/** Immutable package stores: a path inside one changes with every rebuild (I2). */
const STORES = ["/nix/store/", "/gnu/store/"];

async function realOrSelf(path: string): Promise<string> {
  try {
    return await Deno.realPath(path);
  } catch {
    return path;
  }
}

async function isFile(path: string): Promise<boolean> {
  try {
    return (await Deno.stat(path)).isFile;
  } catch {
    return false;
  }
}

/** PATH's directories, in order. */
function pathDirs(env: EnvReader): string[] {
  return (env("PATH") ?? "").split(":").filter((d) => d !== "");
}

/** Options of `resolveWrapperRef`. */
export interface WrapperRefOptions {
  style: WrapperStyle;
  /** Where the wrapper is (or will be) written. */
  wrapperPath: string;
  env: EnvReader;
  /** Refuse (InstallError) instead of warning when bare cannot resolve: install does, check does not. */
  strict: boolean;
}

/** The reference to write, and any warning to print. */
export interface WrapperRef {
  ref: string;
  warnings: string[];
}

/**
 * Resolves how configs name the wrapper. `bare` writes `tma-hook` and needs
 * it on PATH (or the wrapper's directory on PATH); `absolute` writes the
 * path, swapping a package-store path for a PATH entry outside the store
 * that resolves to the same file.
 */
export async function resolveWrapperRef(options: WrapperRefOptions): Promise<WrapperRef> {
  const dirs = pathDirs(options.env);
  if (options.style === "bare") {
    const onPath = dirs.includes(dirName(options.wrapperPath)) ||
      (await Promise.all(dirs.map((d) => isFile(`${d}/${WRAPPER_NAME}`)))).some(Boolean);
    if (!onPath) {
      const message = `--wrapper-ref bare: ${WRAPPER_NAME} is not on PATH, so agents could not ` +
        `find it; add ${dirName(options.wrapperPath)} to PATH or use --wrapper-ref absolute`;
      if (options.strict) throw new InstallError(message);
      return { ref: WRAPPER_NAME, warnings: [message] };
    }
    return { ref: WRAPPER_NAME, warnings: [] };
  }
  const real = await realOrSelf(options.wrapperPath);
  if (!STORES.some((store) => real.startsWith(store) || options.wrapperPath.startsWith(store))) {
    return { ref: options.wrapperPath, warnings: [] };
  }
  for (const dir of dirs) {
    if (STORES.some((store) => dir.startsWith(store))) continue;
    const candidate = `${dir}/${WRAPPER_NAME}`;
    if ((await isFile(candidate)) && (await realOrSelf(candidate)) === real) {
      return { ref: candidate, warnings: [] };
    }
  }
  return {
    ref: options.wrapperPath,
    warnings: [
      `${options.wrapperPath} is inside a package store and no PATH entry outside it points at the ` +
      `same file; agent configs will break on the next rebuild (link it from a PATH directory and rerun)`,
    ],
  };
}

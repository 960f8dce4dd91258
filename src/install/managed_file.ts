/**
 * Files tma owns outright: the OpenCode plugin and the pi extension (I41,
 * I59), rendered from templates in `integrations/` with the wrapper reference
 * substituted for a token. Each opens with a banner marker; a file at the
 * same path without it is the user's own, and install and uninstall both
 * refuse to touch it.
 * @module
 */
import { InstallError } from "./errors.ts";

/** The marker every tma-managed JS file carries on its first line. */
export const BANNER_MARKER = "// tma:managed-file";

/** The token a template holds, quotes included, where the wrapper goes. */
export const WRAPPER_TOKEN = '"@@TMA_WRAPPER@@"';

/**
 * Renders a template: the token becomes the wrapper reference as a JS
 * string literal.
 *
 * ```ts
 * renderTemplate('const W = "@@TMA_WRAPPER@@";', "/b/tma-hook"); // 'const W = "/b/tma-hook";'
 * ```
 */
export function renderTemplate(template: string, wrapperRef: string): string {
  if (!template.includes(WRAPPER_TOKEN)) {
    throw new Error(`template lacks the wrapper token ${WRAPPER_TOKEN}`);
  }
  return template.replaceAll(WRAPPER_TOKEN, JSON.stringify(wrapperRef));
}

/** Whether a file's text is tma's (carries the banner on its first line). */
export function isManaged(text: string): boolean {
  return text.split("\n", 1)[0].startsWith(BANNER_MARKER);
}

function refuse(path: string, what: string, flag: string): never {
  throw new InstallError(
    `${path} exists and is not tma's (no "${BANNER_MARKER}" banner on its first line); tma ` +
      `will not ${what} a hand-written file. Move it aside, or pass ${flag} to use another path`,
    path,
  );
}

/** Options of the managed-file planners. */
export interface ManagedFileOptions {
  path: string;
  /** The flag that names another path, for the refusal message. */
  flag: string;
}

/** The text to write for install (`current` when unchanged). Refuses a hand-written file. */
export function installManaged(
  current: string | null,
  rendered: string,
  options: ManagedFileOptions,
): string {
  if (current !== null && !isManaged(current)) refuse(options.path, "overwrite", options.flag);
  return rendered;
}

/** The text after uninstall: `null` (delete) for tma's file. Refuses a hand-written file. */
export function uninstallManaged(
  current: string | null,
  options: ManagedFileOptions,
): string | null {
  if (current === null) return null;
  if (!isManaged(current)) refuse(options.path, "delete", options.flag);
  return null;
}

/** What `inspectManaged` finds. */
export type ManagedState = "current" | "stale" | "missing" | "foreign";

/** Compares a file with what install would write. */
export function inspectManaged(current: string | null, rendered: string): ManagedState {
  if (current === null) return "missing";
  if (!isManaged(current)) return "foreign";
  return current === rendered ? "current" : "stale";
}

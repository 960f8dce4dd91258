/**
 * The engine version and `"major.minor[.patch]"` comparisons (M5).
 * @module
 */

/** This build's engine version; manifests name a minimum with `min_engine_version`. */
export const ENGINE_VERSION = "0.1.0";

/**
 * The line `tma --version` and `tma version` print (C8).
 *
 * ```ts
 * versionLine(); // "tma 0.1.0"
 * ```
 */
export function versionLine(): string {
  return `tma ${ENGINE_VERSION}`;
}

/** A parsed `major.minor.patch` triple. */
export type VersionTriple = [number, number, number];

/**
 * Parses `"major.minor[.patch]"` (missing parts are 0), or returns null.
 *
 * ```ts
 * parseVersion("2.1"); // [2, 1, 0]
 * ```
 */
export function parseVersion(text: string): VersionTriple | null {
  const m = /^(\d+)\.(\d+)(?:\.(\d+))?$/.exec(text.trim());
  if (!m) return null;
  return [Number(m[1]), Number(m[2]), Number(m[3] ?? "0")];
}

/** Negative, zero or positive as `a` is older than, equal to or newer than `b`. */
export function compareVersions(a: VersionTriple, b: VersionTriple): number {
  for (let i = 0; i < 3; i++) {
    if (a[i] !== b[i]) return a[i] - b[i];
  }
  return 0;
}

/**
 * The screen-rule engine: regions, predicates and the classifier that turns
 * one captured screen into a reading for the fold.
 *
 * ```ts
 * import { classifyScreen } from "./mod.ts";
 * // classifyScreen(manifest, { capture, title, height }).verdict
 * ```
 * @module
 */

export * from "./classify.ts";
export * from "./predicate.ts";
export * from "./regions.ts";
export * from "./screen_file.ts";
export * from "./fixture_check.ts";

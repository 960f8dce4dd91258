/**
 * The fixed words of action manifests (M33, M36, M39-M44), kept apart from
 * their zod schema so the layers below it (the tmux key sender above all)
 * can name them without loading zod.
 *
 * ```ts
 * import { TEXT_PLACEHOLDER } from "./action_vocabulary.ts";
 * ["C-u", TEXT_PLACEHOLDER, "Enter"].indexOf(TEXT_PLACEHOLDER); // 1
 * ```
 * @module
 */

/** The two action kinds (M33). */
export const ACTION_KINDS = ["keys", "exec"] as const;

/** Context keys an action can require to be non-empty (M36). */
export const REQUIRES_TOKENS = ["session", "cwd", "pid", "title"] as const;

/** The closed API operation vocabulary (M44). */
export const API_OPS = ["permission-reply", "question-reject", "question-reply"] as const;

/** The replies a `permission-reply` op can send (M44). */
export const PERMISSION_REPLIES = ["once", "always", "reject"] as const;

/** The element of a text action's `[keys]` arrays that the caller's message replaces (M43). */
export const TEXT_PLACEHOLDER = "{text}";

/** Default `timeout_ms` (M39). */
export const DEFAULT_TIMEOUT_MS = 30_000;

/** Default `detach_timeout_ms` (M40). */
export const DEFAULT_DETACH_TIMEOUT_MS = 900_000;

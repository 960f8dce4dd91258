/**
 * Field schemas shared by agent and action manifests: compiled regexes,
 * detail tokens (M24), the closed state sets (M25) and version strings (M5).
 *
 * ```ts
 * import { regexSchema } from "./fields.ts";
 * const r = regexSchema.parse("^› ");
 * r.re.test("› Explain this codebase"); // true
 * ```
 * @module
 */

import { z } from "../../deps/zod.ts";
import { compileLinear } from "../regex/linear.ts";
import { DETAIL_TOKEN, STATES } from "../state.ts";
import { parseVersion } from "../version.ts";

/**
 * The states a manifest may assert, in a rule or a hook claim. `unknown` is
 * what tma publishes when nothing can be read; no evidence asserts it, and it
 * has no slot in the fold's order (D16).
 */
export const CLAIM_STATES = ["idle", "working", "blocked"] as const;

/** A state a rule or hook claim may assert. */
export type ClaimState = (typeof CLAIM_STATES)[number];

/**
 * Regex flags every manifest regex is compiled with: `u` only. Unicode mode
 * makes `.` and classes work on code points (the glyph anchors are outside the
 * BMP-safe ASCII range) and turns sloppy escapes into load-time errors. No
 * `g` flag, so a compiled regex keeps no state between tests and is reused
 * every cycle.
 */
export const REGEX_FLAGS = "u";

/**
 * A regex kept verbatim (`source`, D28) next to its compiled form. Parsed
 * here, a pattern is a user's (the bundled manifests load pre-validated), so
 * it is compiled for the linear-time engine: no pane text or payload can
 * stall a match (R10, R11). A pattern that engine cannot run is refused like
 * any invalid one.
 */
export const regexSchema = z.string().transform((source, ctx) => {
  try {
    return { source, re: compileLinear(source) };
  } catch (err) {
    ctx.issues.push({
      code: "custom",
      input: source,
      message: err instanceof Error ? err.message : String(err),
    });
    return z.NEVER;
  }
});

/** A regex compiled once at load: the verbatim `source` and its `RegExp`. */
export type CompiledRegex = z.infer<typeof regexSchema>;

/** A detail token: non-empty, lowercase a-z, digits, `_` and `-` (M24). */
export const detailTokenSchema = z.string().refine((s) => DETAIL_TOKEN.test(s), {
  error: (iss) =>
    `${JSON.stringify(iss.input)} is not a valid detail token; ` +
    "use only lowercase a-z, digits, _ and - (for example rate_limit)",
});

/** A state a manifest may assert (M16, M12). */
export const claimStateSchema = z.enum(CLAIM_STATES, {
  error: (iss) =>
    iss.input === undefined
      ? undefined
      : `${JSON.stringify(iss.input)} is not a state a manifest can assert; ` +
        "use idle, working or blocked (states are closed and cannot be added or remapped)",
});

/** Any of the four published states, for action gates (M34). */
export const stateSchema = z.enum(STATES, {
  error: (iss) =>
    iss.input === undefined
      ? undefined
      : `${JSON.stringify(iss.input)} is not a state; use idle, working, blocked or unknown`,
});

/**
 * `"major.minor[.patch]"`. The comparison against the engine happens before
 * the strict parse (M5); this only checks the shape.
 */
export const versionSchema = z.string().refine((s) => parseVersion(s) !== null, {
  error: (iss) =>
    `${JSON.stringify(iss.input)} is not a version; write "major.minor" or "major.minor.patch"`,
});

/** A non-empty string. */
export const nonEmptySchema = z.string().min(1);

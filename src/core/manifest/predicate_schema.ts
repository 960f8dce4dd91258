/**
 * The predicate tree of a screen rule's `match`: leaves `contains`, `regex`,
 * `line_regex` and `last_line`, combinators `any`, `all` and `not` (D28,
 * M20). Externally tagged TOML: each node is a table with exactly one key,
 * for example:
 *
 * ```toml
 * match = { all = [ { contains = "A" }, { not = { regex = "B" } } ] }
 * ```
 *
 * ```ts
 * import { predicateSchema } from "./predicate_schema.ts";
 * predicateSchema.parse({ not: { contains: "esc to cancel" } });
 * ```
 * @module
 */

import { z } from "../../deps/zod.ts";
import { regexSchema } from "./fields.ts";

/** The keys of a predicate node; each node sets exactly one. */
export const PREDICATE_KEYS = [
  "contains",
  "regex",
  "line_regex",
  "last_line",
  "any",
  "all",
  "not",
] as const;

/**
 * One predicate node. Evaluated over a region's lines (see `src/core/rules/`):
 * - `contains`: a substring of the region's text (lines joined by `\n`).
 * - `regex`: a regex over that text (no `m` flag: `^` is the region's start).
 * - `line_regex`: a regex that some single line matches.
 * - `last_line`: the bottommost line matching `select`, tested against the
 *   nested `match` as a one-line region; no such line is no match.
 * - `any`, `all` (non-empty lists) and `not`.
 */
export const predicateSchema = z
  .strictObject({
    contains: z.string().min(1).optional(),
    regex: regexSchema.optional(),
    line_regex: regexSchema.optional(),
    get last_line() {
      return z.strictObject({ select: regexSchema, match: predicateSchema }).optional();
    },
    get any() {
      return z.array(predicateSchema).min(1).optional();
    },
    get all() {
      return z.array(predicateSchema).min(1).optional();
    },
    get not() {
      return predicateSchema.optional();
    },
  })
  .superRefine((node, ctx) => {
    const set = PREDICATE_KEYS.filter((k) => node[k] !== undefined);
    if (set.length === 1) return;
    ctx.addIssue({
      code: "custom",
      input: node,
      message: set.length === 0
        ? `a predicate needs exactly one of ${PREDICATE_KEYS.join(", ")}; this one is empty`
        : `a predicate takes exactly one key, found ${set.join(" and ")}; ` +
          "combine them with all = [ … ] or any = [ … ]",
    });
  });

/** A parsed predicate node: exactly one of its keys is set. */
export type Predicate = z.infer<typeof predicateSchema>;

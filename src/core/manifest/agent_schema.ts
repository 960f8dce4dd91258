/**
 * The agent manifest: identity, hook map and coverage, screen rules, detail
 * aliases and telemetry, as one strict zod schema (M1-M28). Unknown keys at
 * any level are errors (M4); regexes are compiled once here and kept on the
 * parsed value (D28 keeps their `source` verbatim).
 *
 * ```ts
 * import { agentManifestSchema } from "./agent_schema.ts";
 * const m = agentManifestSchema.parse({
 *   min_engine_version: "0.1",
 *   identity: { process_names: ["mycli"] },
 *   capture: {},
 * });
 * m.rules; // []
 * ```
 *
 * Decisions the contract leaves open:
 * - `name` is optional. The filename stem is the agent's name (M2); a `name`
 *   key, when present, must equal the stem (checked by `parseAgentManifest`).
 * - `[identity].args_patterns` is ours (not in M6-M7): regexes over the full
 *   command line (argv joined by spaces) of any process in the pane's process
 *   tree. An argv match identifies the agent as firmly as a `process_names`
 *   match that passed the `title_patterns` gate, for agents whose process name
 *   is generic: npm Codex runs as `node …/bin/codex` with a native `codex`
 *   child, npm Gemini as `node …/gemini`, relaunched as a second `node`.
 * - Rules and hook claims may assert only `idle`, `working` or `blocked`:
 *   `unknown` is the absence of evidence and has no fold slot.
 * - A hook claim's state (or a lifecycle claim) must be listed in
 *   `[hooks].covers`, so the coverage gate and the map cannot disagree.
 * - Rule and claim details are folded through `[details]` aliases at load.
 * @module
 */

import { z } from "../../deps/zod.ts";
import { STATES } from "../state.ts";
import {
  CLAIM_STATES,
  type ClaimState,
  claimStateSchema,
  detailTokenSchema,
  nonEmptySchema,
  regexSchema,
  versionSchema,
} from "./fields.ts";
import { predicateSchema } from "./predicate_schema.ts";

/** The largest `tail_lines(N)`; a capture holds the viewport plus 50 lines. */
export const MAX_TAIL_LINES = 1000;

/** `[identity]` (M6, M7, D33) plus our `args_patterns`. */
export const identitySchema = z.strictObject({
  process_names: z.array(nonEmptySchema).min(1),
  title_patterns: z.array(regexSchema).default([]),
  args_patterns: z.array(regexSchema).default([]),
});

/**
 * A hook claim: `{ state, detail? }` or `{ lifecycle = "start" | "end" }`,
 * parsed into a union whose members are told apart by `"lifecycle" in claim`
 * (M12).
 */
export const claimSchema = z
  .strictObject({
    state: claimStateSchema.optional(),
    detail: detailTokenSchema.optional(),
    lifecycle: z.enum(["start", "end"]).optional(),
  })
  .superRefine((c, ctx) => {
    if (c.lifecycle !== undefined && (c.state !== undefined || c.detail !== undefined)) {
      ctx.addIssue({
        code: "custom",
        input: c,
        message: "a claim is either { state, detail } or { lifecycle }, not both; drop one",
      });
    } else if (c.lifecycle === undefined && c.state === undefined) {
      ctx.addIssue({
        code: "custom",
        input: c,
        message:
          'a claim needs state = "…" (with an optional detail) or lifecycle = "start" | "end"',
      });
    }
  })
  // The refinement above guarantees a state when there is no lifecycle.
  .transform((c) =>
    c.lifecycle !== undefined
      ? { lifecycle: c.lifecycle }
      : withDetail({ state: c.state as ClaimState }, c.detail)
  );

/**
 * `value` with `detail` set only when there is one: an absent detail is an
 * absent key, never `detail: undefined`, so the parsed manifest is plain
 * JSON data and survives the build-time encoding (src/core/prevalidated.ts).
 */
function withDetail<T extends object>(
  value: T,
  detail: string | undefined,
): T & { detail?: string } {
  return detail === undefined ? value : { ...value, detail };
}

/** A parsed hook claim. */
export type Claim = z.infer<typeof claimSchema>;

/** One `[[hooks.map]]` entry (M10-M13). */
export const hookMapEntrySchema = z.strictObject({
  event: nonEmptySchema,
  matcher: regexSchema.optional(),
  claim: claimSchema,
  turn_end: z.boolean().default(false),
  /**
   * The event's place in a turn, 0-9, for `[hooks.order]` (ours, D47 and
   * X10): two events of one turn and tool call are ordered by phase, not by
   * fire time, when their fire times are close (`core/hook/order.ts`).
   */
  phase: z.number().int().min(0).max(9).optional(),
});

/** A parsed `[[hooks.map]]` entry. */
export type HookMapEntry = z.infer<typeof hookMapEntrySchema>;

/** What `[hooks].covers` may list: the claim states plus `lifecycle` (M9). */
export const COVERS_TOKENS = [...CLAIM_STATES, "lifecycle"] as const;

/** `[hooks]`: present means hook-capable (M8, M9). */
export const hooksSchema = z.strictObject({
  covers: z.array(
    z.enum(COVERS_TOKENS, {
      error: (iss) =>
        iss.input === undefined
          ? undefined
          : `${
            JSON.stringify(iss.input)
          } cannot be covered; use idle, working, blocked or lifecycle`,
    }),
  ).default([]),
  map: z.array(hookMapEntrySchema).default([]),
  /**
   * Ours: the payload fields that name a turn (`turn`, the first present
   * wins) and a tool call (`call`, all present ones together), for the
   * entries' `phase`.
   */
  order: z.strictObject({
    turn: z.array(nonEmptySchema).min(1),
    call: z.array(nonEmptySchema).default([]),
  }).optional(),
});

/** `[capture]`: which states the screen rules reliably see (M14, M15). */
export const captureSchema = z.strictObject({
  visible: z.array(claimStateSchema).default([]),
});

/**
 * A rule region: `tail_lines(N)`, `visible` or `title`, parsed into a tagged
 * value that keeps the written `spec` (D27, M19).
 */
export const regionSchema = z.string().transform((spec, ctx) => {
  if (spec === "visible") return { kind: "visible" as const, spec };
  if (spec === "title") return { kind: "title" as const, spec };
  const m = /^tail_lines\((\d+)\)$/.exec(spec);
  const n = m ? Number(m[1]) : 0;
  if (m && n >= 1 && n <= MAX_TAIL_LINES) return { kind: "tail_lines" as const, lines: n, spec };
  ctx.issues.push({
    code: "custom",
    input: spec,
    message: `${JSON.stringify(spec)} is not a region; use tail_lines(N) with N from 1 to ` +
      `${MAX_TAIL_LINES}, visible or title`,
  });
  return z.NEVER;
});

/** A parsed region. */
export type Region = z.infer<typeof regionSchema>;

/**
 * One `[[rules]]` entry (M16-M21). `ends_turn` (D65) marks idle chrome that
 * proves the turn is over, such as an interrupt marker left as the last
 * transcript item: it may end a `working` hook claim that no hook ended.
 * Only an idle rule that is not a history view can carry it.
 */
export const ruleSchema = z.strictObject({
  state: claimStateSchema,
  detail: detailTokenSchema.optional(),
  priority: z.int().default(0),
  region: regionSchema,
  match: predicateSchema,
  skip_state_update: z.boolean().default(false),
  ends_turn: z.boolean().default(false),
}).superRefine((rule, ctx) => {
  if (!rule.ends_turn) return;
  const why = rule.state !== "idle"
    ? `a ${rule.state} rule cannot end a turn`
    : rule.skip_state_update
    ? "a history view (skip_state_update) claims no state"
    : null;
  if (why === null) return;
  ctx.addIssue({
    code: "custom",
    path: ["ends_turn"],
    message: `ends_turn marks idle chrome that proves a turn ended, and ${why}; ` +
      "remove ends_turn or make the rule a plain idle rule",
  });
});

/** A parsed screen rule. */
export type Rule = z.infer<typeof ruleSchema>;

/** The context channels (M23). */
export const CONTEXT_CHANNELS = ["event", "file-tail", "screen"] as const;

/** `[telemetry]`: only `[telemetry.context]` so far (M23). */
export const telemetrySchema = z.strictObject({
  context: z.strictObject({
    channel: z.enum(CONTEXT_CHANNELS, {
      error: (iss) =>
        iss.input === undefined
          ? undefined
          : `${JSON.stringify(iss.input)} is not a context channel; use event, file-tail or screen`,
    }),
    // Any name is accepted here and refused at read time (M23), so a manifest
    // written for a newer parser still loads everything else.
    format: nonEmptySchema,
  }).optional(),
});

/** `[details]`: `canonical = { aliases = [...] }` (M22). */
export const detailsSchema = z.record(
  z.string(),
  z.strictObject({ aliases: z.array(detailTokenSchema).default([]) }),
);

/** The whole agent manifest, before detail aliases are applied. */
const rawAgentManifestSchema = z.strictObject({
  min_engine_version: versionSchema,
  name: nonEmptySchema.optional(),
  identity: identitySchema,
  hooks: hooksSchema.optional(),
  capture: captureSchema,
  rules: z.array(ruleSchema).default([]),
  details: detailsSchema.default({}),
  telemetry: telemetrySchema.optional(),
});

/**
 * The agent manifest schema. Its output has compiled regexes, parsed regions
 * and claims, defaults filled in, and rule and claim details folded to their
 * canonical spelling.
 */
export const agentManifestSchema = rawAgentManifestSchema
  .superRefine((m, ctx) => {
    checkDetails(m.details, ctx);
    if (m.hooks) checkCoverage(m.hooks, ctx);
  })
  .transform((m) => {
    const index = aliasIndex(m.details);
    const fold = (
      d: string | undefined,
    ): string | undefined => (d === undefined ? d : index[d] ?? d);
    return {
      ...m,
      rules: m.rules.map(({ detail, ...r }) => withDetail(r, fold(detail))),
      hooks: m.hooks && {
        ...m.hooks,
        map: m.hooks.map.map((e) =>
          "lifecycle" in e.claim
            ? e
            : { ...e, claim: withDetail({ state: e.claim.state }, fold(e.claim.detail)) }
        ),
      },
    };
  });

/** A validated agent manifest (without its name and path; see `ParsedAgentManifest`). */
export type AgentManifest = z.infer<typeof agentManifestSchema>;

/**
 * The alias → canonical map of a `[details]` table.
 *
 * ```ts
 * aliasIndex({ rate_limit: { aliases: ["ratelimit"] } }); // { ratelimit: "rate_limit" }
 * ```
 */
export function aliasIndex(details: Record<string, { aliases: string[] }>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [canonical, { aliases }] of Object.entries(details)) {
    for (const alias of aliases) out[alias] = canonical;
  }
  return out;
}

/**
 * A detail token folded through a manifest's `[details]` aliases (M22).
 *
 * ```ts
 * canonicalDetail({ rate_limit: { aliases: ["ratelimit"] } }, "ratelimit"); // "rate_limit"
 * ```
 */
export function canonicalDetail(
  details: Record<string, { aliases: string[] }>,
  token: string,
): string {
  for (const [canonical, { aliases }] of Object.entries(details)) {
    if (aliases.includes(token)) return canonical;
  }
  return token;
}

type RefineCtx = z.RefinementCtx;

function checkDetails(details: Record<string, { aliases: string[] }>, ctx: RefineCtx): void {
  const owner = new Map<string, string>();
  for (const [key, { aliases }] of Object.entries(details)) {
    if ((STATES as readonly string[]).includes(key)) {
      ctx.addIssue({
        code: "custom",
        path: ["details", key],
        message: `"${key}" is a state token, and [details] only carries detail spellings ` +
          "(states cannot be remapped); rename the key",
      });
      return;
    }
    if (!detailTokenSchema.safeParse(key).success) {
      ctx.addIssue({
        code: "custom",
        path: ["details", key],
        message: `${JSON.stringify(key)} is not a valid detail token; ` +
          "use only lowercase a-z, digits, _ and -",
      });
      return;
    }
    for (const [i, alias] of aliases.entries()) {
      const owned = owner.get(alias);
      const clash = owned !== undefined
        ? `alias "${alias}" already belongs to "${owned}"`
        : alias !== key && alias in details
        ? `alias "${alias}" is itself a [details] key`
        : null;
      if (clash !== null) {
        ctx.addIssue({
          code: "custom",
          path: ["details", key, "aliases", i],
          message: `${clash}; list each spelling once`,
        });
        return;
      }
      owner.set(alias, key);
    }
  }
}

function checkCoverage(
  hooks: {
    covers: readonly string[];
    map: readonly { claim: Claim; phase?: number }[];
    order?: unknown;
  },
  ctx: RefineCtx,
): void {
  for (const [i, entry] of hooks.map.entries()) {
    if (entry.phase !== undefined && hooks.order === undefined) {
      ctx.addIssue({
        code: "custom",
        path: ["hooks", "map", i, "phase"],
        message: "orders nothing without [hooks.order]; add its turn (and call) fields " +
          "or drop the phase",
      });
      return;
    }
    const needed = "lifecycle" in entry.claim ? "lifecycle" : entry.claim.state;
    if (!hooks.covers.includes(needed)) {
      ctx.addIssue({
        code: "custom",
        path: ["hooks", "map", i, "claim"],
        message: `claims "${needed}", which [hooks].covers does not list; ` +
          `add "${needed}" to covers or change the claim`,
      });
      return;
    }
  }
}

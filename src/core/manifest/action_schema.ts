/**
 * The action manifest: a guarded key sequence, text delivery, hook-lane or
 * API reply (`kind = "keys"`), or a guarded process (`kind = "exec"`)
 * (M29-M46). Strict, with the structural rules of M45 enforced.
 *
 * ```ts
 * import { actionManifestSchema } from "./action_schema.ts";
 * const a = actionManifestSchema.parse({
 *   min_engine_version: "0.1",
 *   name: "interrupt",
 *   label: "Interrupt",
 *   kind: "keys",
 *   when: { state: ["working"] },
 *   keys: { claude: ["Escape"] },
 * });
 * a.timeout_ms; // 30000
 * ```
 *
 * Decisions the contract leaves open:
 * - `detach`, `command`, `text`, `[keys]` and `[api]` are refused by their
 *   presence where M45 forbids them, even when set to a harmless value.
 * - A `"{text}"` element in a non-text action is refused (it would be typed
 *   literally); set `text = true` instead.
 * - `context_pct_min` above `context_pct_max` is refused (no pane could pass).
 * @module
 */

import { z } from "../../deps/zod.ts";
import { detailTokenSchema, nonEmptySchema, stateSchema, versionSchema } from "./fields.ts";
import {
  ACTION_KINDS,
  API_OPS,
  DEFAULT_DETACH_TIMEOUT_MS,
  DEFAULT_TIMEOUT_MS,
  PERMISSION_REPLIES,
  REQUIRES_TOKENS,
  TEXT_PLACEHOLDER,
} from "./action_vocabulary.ts";

const percentSchema = z.number().min(0).max(100);

/** The `when` gate: every present key must hold (M34). */
export const whenSchema = z
  .strictObject({
    state: z.array(stateSchema).min(1).optional(),
    detail: z.array(detailTokenSchema).min(1).optional(),
    context_pct_min: percentSchema.optional(),
    context_pct_max: percentSchema.optional(),
  })
  .superRefine((w, ctx) => {
    if (
      w.context_pct_min !== undefined && w.context_pct_max !== undefined &&
      w.context_pct_min > w.context_pct_max
    ) {
      ctx.addIssue({
        code: "custom",
        path: ["context_pct_min"],
        message: `is above context_pct_max (${w.context_pct_min} > ${w.context_pct_max}), ` +
          "so no pane could pass; lower it or raise context_pct_max",
      });
    }
  });

/** A parsed `when` gate. */
export type ActionGate = z.infer<typeof whenSchema>;

/**
 * One `[api]` cell (M44), parsed into a union told apart by `op`:
 * `{ op: "permission-reply", reply }`, `{ op: "question-reject" }` or
 * `{ op: "question-reply" }`.
 */
export const apiOpSchema = z
  .strictObject({
    op: z.enum(API_OPS, {
      error: (iss) =>
        iss.input === undefined
          ? undefined
          : `${JSON.stringify(iss.input)} is not an API operation; ` +
            "use permission-reply, question-reject or question-reply",
    }),
    reply: z.enum(PERMISSION_REPLIES, {
      error: (iss) =>
        `${JSON.stringify(iss.input)} is not a permission reply; use once, always or reject`,
    }).optional(),
  })
  .superRefine((a, ctx) => {
    if (a.op === "permission-reply" && a.reply === undefined) {
      ctx.addIssue({
        code: "custom",
        path: ["reply"],
        message: 'permission-reply needs reply = "once", "always" or "reject"',
      });
    } else if (a.op !== "permission-reply" && a.reply !== undefined) {
      ctx.addIssue({
        code: "custom",
        path: ["reply"],
        message: `${a.op} takes no reply; remove it`,
      });
    }
  })
  // The refinement above guarantees a reply on permission-reply.
  .transform((a) =>
    a.op === "permission-reply"
      ? { op: a.op, reply: a.reply as (typeof PERMISSION_REPLIES)[number] }
      : { op: a.op }
  );

/** A parsed API operation. */
export type ApiOp = z.infer<typeof apiOpSchema>;

const rawActionSchema = z.strictObject({
  min_engine_version: versionSchema,
  name: nonEmptySchema,
  label: nonEmptySchema,
  kind: z.enum(ACTION_KINDS, {
    error: (iss) =>
      iss.input === undefined
        ? undefined
        : `${JSON.stringify(iss.input)} is not an action kind; use keys or exec`,
  }),
  when: whenSchema.optional(),
  agents: z.array(nonEmptySchema).default([]),
  requires: z.array(
    z.enum(REQUIRES_TOKENS, {
      error: (iss) =>
        `${JSON.stringify(iss.input)} cannot be required; use session, cwd, pid or title`,
    }),
  ).default([]),
  confirm: z.boolean().default(false),
  // D65, D67: a delivery ends the state the pane was gated in (an interrupt
  // ends working, an answer ends blocked), so the broker marks the pane and
  // the next cycle may settle it without waiting for a hook.
  settles: z.boolean().default(false),
  detach: z.boolean().optional(),
  timeout_ms: z.int().min(1).default(DEFAULT_TIMEOUT_MS),
  detach_timeout_ms: z.int().min(1).default(DEFAULT_DETACH_TIMEOUT_MS),
  command: nonEmptySchema.optional(),
  keys: z.record(z.string(), z.array(nonEmptySchema).min(1)).optional(),
  text: z.boolean().optional(),
  api: z.record(z.string(), apiOpSchema).optional(),
});

/**
 * The action manifest schema. Its output fills `detach`, `text`, `keys` and
 * `api` with their empty defaults, so consumers never test for absence.
 */
export const actionManifestSchema = rawActionSchema
  .superRefine((a, ctx) => {
    const problem = structuralProblem(a);
    if (problem) ctx.addIssue({ code: "custom", path: problem.path, message: problem.message });
  })
  .transform((a) => ({
    ...a,
    detach: a.detach ?? false,
    text: a.text ?? false,
    keys: a.keys ?? {},
    api: a.api ?? {},
  }));

/** A validated action manifest (without its path; see `ParsedActionManifest`). */
export type ActionManifest = z.infer<typeof actionManifestSchema>;

type RawAction = z.infer<typeof rawActionSchema>;

function structuralProblem(a: RawAction): { path: PropertyKey[]; message: string } | null {
  const keys = a.keys ?? {};
  const api = a.api ?? {};
  if (a.kind === "exec") {
    if (a.command === undefined) {
      return { path: ["command"], message: 'an exec action needs command = "…" (run as sh -c)' };
    }
    for (const key of ["keys", "api", "text"] as const) {
      if (a[key] !== undefined) {
        return {
          path: [key],
          message: `an exec action cannot have ${key === "text" ? "text" : `[${key}]`}; ` +
            'remove it or make the action kind = "keys"',
        };
      }
    }
    return null;
  }
  for (const key of ["command", "detach"] as const) {
    if (a[key] !== undefined) {
      return {
        path: [key],
        message: `a keys action cannot have ${key} (it runs no process); ` +
          'remove it or make the action kind = "exec"',
      };
    }
  }
  if (Object.keys(keys).length + Object.keys(api).length === 0) {
    return {
      path: ["keys"],
      message: "a keys action needs at least one agent under [keys] or [api]",
    };
  }
  for (const agent of Object.keys(api)) {
    if (agent in keys) {
      return {
        path: ["api", agent],
        message: `agent "${agent}" is in both [keys] and [api]; keep one (there is no fallback)`,
      };
    }
  }
  if (a.text === true) {
    if (Object.keys(api).length > 0) {
      return { path: ["api"], message: "a text action cannot have [api]; remove it" };
    }
    for (const [agent, seq] of Object.entries(keys)) {
      const n = seq.filter((k) => k === TEXT_PLACEHOLDER).length;
      if (n !== 1) {
        return {
          path: ["keys", agent],
          message: `a text action's sequence holds exactly one "${TEXT_PLACEHOLDER}", found ${n}`,
        };
      }
    }
    return null;
  }
  for (const [agent, seq] of Object.entries(keys)) {
    const at = seq.indexOf(TEXT_PLACEHOLDER);
    if (at >= 0) {
      return {
        path: ["keys", agent, at],
        message: `"${TEXT_PLACEHOLDER}" is only replaced in a text action; set text = true`,
      };
    }
  }
  return null;
}

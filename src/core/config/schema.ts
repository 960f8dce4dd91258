/**
 * The zod schema of `config.toml` (G1-G35) with every default, so an absent
 * or partial file yields a complete config (G2), and an unknown key or a
 * wrong type is a loud error (G3).
 * @module
 */
import { z } from "../../deps/zod.ts";

const positiveInt = z.number().int().positive();
const nonNegative = z.number().nonnegative();

function classStyle(glyph: string, color: string) {
  return z.strictObject({
    glyph: z.string().min(1).default(glyph),
    color: z.string().min(1).default(color),
  }).prefault({});
}

function classStyles(unknownColor: string) {
  return z.strictObject({
    blocked: classStyle("⚑", "red"),
    working: classStyle("●", "yellow"),
    idle: classStyle("○", "green"),
    done: classStyle("✓", "magenta"),
    unknown: classStyle("?", unknownColor),
  }).prefault({});
}

const commandOnly = z.strictObject({ command: z.string().min(1).optional() });

/** Model names seeded into `[telemetry.windows]` (G22); only names matter. */
export const SEEDED_WINDOWS: Record<string, number> = {
  "gemini-2.5-pro": 1_048_576,
  "gemini-2.5-flash": 1_048_576,
  "gemini-2.5-flash-lite": 1_048_576,
};

/** The config schema; `Config` is its output type. */
export const configSchema = z.strictObject({
  fold: z.strictObject({
    dwell_secs: nonNegative.default(3),
    hook_decay_secs: nonNegative.default(60),
    blocked_decay_secs: nonNegative.default(300),
    freshness_secs: nonNegative.default(3),
  }).prefault({}),
  status: classStyles("colour244"),
  picker: classStyles("darkgray"),
  notify: z.strictObject({
    from_event: z.boolean().default(false),
    /** Daemonless polling producers (`status`, `wait`, ...) dispatch too (U25). */
    from_poll: z.boolean().default(false),
    /** Seconds of client activity that count as looking at a pane; 0 never suppresses (X5). */
    looking_secs: nonNegative.default(30),
    command: z.string().min(1).optional(),
    on: z.array(z.enum(["blocked", "done"])).default(["blocked"]),
    bell: z.boolean().default(false),
    osc: z.boolean().default(false),
    log: z.string().min(1).optional(),
    blocked: commandOnly.optional(),
    done: commandOnly.optional(),
    context_high: z.strictObject({
      threshold: z.number().min(0).max(100),
      command: z.string().min(1).optional(),
    }).optional(),
  }).prefault({}),
  focus: z.strictObject({ events: z.boolean().default(false) }).prefault({}),
  install: z.strictObject({
    wrapper_ref: z.enum(["absolute", "bare"]).default("absolute"),
  }).prefault({}),
  tmux: z.strictObject({ bin: z.string().min(1).default("tmux") }).prefault({}),
  telemetry: z.strictObject({
    windows: z.record(z.string(), z.number()).default(SEEDED_WINDOWS),
  }).prefault({}),
  daemon: z.strictObject({
    sweep_secs: nonNegative.default(45),
    quiet_ms: nonNegative.default(1000),
    zero_member_recheck_secs: nonNegative.default(1),
    demote_edges: positiveInt.default(5),
    autostart: z.boolean().default(false),
  }).prefault({}),
  agent: z.array(z.strictObject({
    name: z.string().min(1),
    enabled: z.boolean().default(true),
    process_names: z.array(z.string().min(1)).default([]),
  })).default([]),
  api: z.record(z.string(), z.strictObject({ api_base: z.string().min(1) })).default({}),
  hooks: z.strictObject({
    claude_reply_lane: z.boolean().default(true),
    hold_ms: positiveInt.default(25000),
  }).prefault({}),
  /** Other machines whose agents `--host`/`--all-hosts` list (X9). */
  host: z.array(z.strictObject({
    /** What `--host NAME`, `act --host` and the rows' `host` key call it. */
    name: z.string().min(1).regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, {
      message: "a host name is letters, digits, '.', '_' and '-', starting with a letter or digit",
    }),
    /** The argv that reaches the host; tma appends the remote command line. Default `["ssh", name]`. */
    command: z.array(z.string().min(1)).min(1).optional(),
    /** The remote tma program, as the host's shell reads it. */
    tma: z.string().min(1).default("tma"),
    /** Hard deadline of the connection (ssh's `ConnectTimeout`). */
    connect_timeout_secs: z.number().positive().default(5),
    /** Hard deadline of a whole fetch; the ssh process group is killed past it. */
    timeout_secs: z.number().positive().default(10),
  })).superRefine((hosts, check) => {
    const seen = new Set<string>();
    hosts.forEach((host, i) => {
      if (seen.has(host.name)) {
        check.addIssue({
          code: "custom",
          path: [i, "name"],
          message: `"${host.name}" names two [[host]] entries: give each its own name`,
        });
      }
      seen.add(host.name);
    });
  }).default([]),
  fleet: z.strictObject({
    /** How often the background refresher of `status --all-hosts` reads every host. */
    refresh_secs: z.number().min(1).default(10),
  }).prefault({}),
});

/** A complete, validated configuration. */
export type Config = z.infer<typeof configSchema>;

/** The all-defaults configuration (G2). */
export function defaultConfig(): Config {
  return configSchema.parse({});
}

/**
 * The few config keys the hook intake reads (G11, G21, G28, G30, G31), taken
 * straight from the TOML text: `[hooks] claude_reply_lane`, `[hooks]
 * hold_ms`, `[tmux] bin`, `[notify] from_event` and the `[[agent]]`
 * overrides.
 *
 * The full config schema is not built here, for the same reason the full
 * manifest schema is not (see `hook_manifest.ts`): it would cost an event
 * more than everything else it does. Each key is checked as the schema
 * checks it; a config the intake cannot read falls back to the defaults with
 * the reply lane off, so a broken file still stamps state but never holds a
 * prompt on a guess.
 *
 * ```ts
 * import { readHookSettings } from "./settings.ts";
 * readHookSettings("[hooks]\nhold_ms = 500\n", "config.toml").holdMs; // 500
 * ```
 * @module
 */
import { parseToml } from "../../deps/toml.ts";
import type { Config } from "../config/schema.ts";
import { isObject } from "../object.ts";

/** The default `[hooks] hold_ms` (G31). */
export const DEFAULT_HOLD_MS = 25_000;

/** What the hook intake takes from config.toml. */
export interface HookSettings {
  /** `[hooks] claude_reply_lane` (G30). */
  replyLane: boolean;
  /** `[hooks] hold_ms` (G31). */
  holdMs: number;
  /** `[tmux] bin`, when set (G21). */
  tmuxBin: string | undefined;
  /** `[[agent]]` overrides (G28). */
  agents: Config["agent"];
  /** `[notify] from_event` (G11): the event fires notifications itself. */
  notifyFromEvent: boolean;
  /** What was wrong with the file, when it could not be read; null when fine or absent. */
  problem: string | null;
}

/** The settings of an absent config file (G2). */
export function defaultHookSettings(): HookSettings {
  return {
    replyLane: true,
    holdMs: DEFAULT_HOLD_MS,
    tmuxBin: undefined,
    agents: [],
    notifyFromEvent: false,
    problem: null,
  };
}

type Table = Record<string, unknown>;

/**
 * Reads the settings from a config file's text; null text means no file.
 *
 * ```ts
 * readHookSettings("[hooks]\nhold_ms = -1\n", "c.toml").problem; // "c.toml: hooks.hold_ms: …"
 * ```
 */
export function readHookSettings(text: string | null, path: string): HookSettings {
  const settings = defaultHookSettings();
  if (text === null) return settings;
  const fail = (key: string, problem: string): HookSettings => ({
    ...defaultHookSettings(),
    replyLane: false,
    problem: `${path}: ${key}${key ? ": " : ""}${problem}`,
  });
  let doc: Table;
  try {
    doc = parseToml(text) as Table;
  } catch (error) {
    return fail(
      "",
      `invalid TOML (${error instanceof Error ? error.message.split("\n")[0] : error})`,
    );
  }
  const hooks = doc.hooks ?? {};
  if (!isObject(hooks)) return fail("hooks", "must be a table");
  if (hooks.claude_reply_lane !== undefined) {
    if (typeof hooks.claude_reply_lane !== "boolean") {
      return fail("hooks.claude_reply_lane", "must be true or false");
    }
    settings.replyLane = hooks.claude_reply_lane;
  }
  if (hooks.hold_ms !== undefined) {
    const hold = hooks.hold_ms;
    if (typeof hold !== "number" || !Number.isSafeInteger(hold) || hold <= 0) {
      return fail("hooks.hold_ms", "must be a positive integer of milliseconds");
    }
    settings.holdMs = hold;
  }
  const tmux = doc.tmux ?? {};
  if (!isObject(tmux)) return fail("tmux", "must be a table");
  if (tmux.bin !== undefined) {
    if (typeof tmux.bin !== "string" || tmux.bin === "") return fail("tmux.bin", "must be a path");
    settings.tmuxBin = tmux.bin;
  }
  const notify = doc.notify ?? {};
  if (!isObject(notify)) return fail("notify", "must be a table");
  if (notify.from_event !== undefined) {
    if (typeof notify.from_event !== "boolean") {
      return fail("notify.from_event", "must be true or false");
    }
    settings.notifyFromEvent = notify.from_event;
  }
  const agents = doc.agent ?? [];
  if (!Array.isArray(agents)) return fail("agent", "must be an array of tables ([[agent]])");
  for (const [i, entry] of agents.entries()) {
    const names = isObject(entry) ? entry.process_names ?? [] : null;
    if (
      !isObject(entry) || typeof entry.name !== "string" || entry.name === "" ||
      (entry.enabled !== undefined && typeof entry.enabled !== "boolean") ||
      !Array.isArray(names) || !names.every((n) => typeof n === "string" && n !== "")
    ) {
      return fail(
        `agent[${i}]`,
        "needs a name, an optional enabled flag and process_names strings",
      );
    }
    settings.agents.push({
      name: entry.name,
      enabled: entry.enabled !== false,
      process_names: names as string[],
    });
  }
  return settings;
}

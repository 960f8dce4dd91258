/**
 * Phase order within one turn (D47, X10): where a manifest says in which
 * order an agent fires the events of a turn, two events of the same turn
 * and tool call are ordered by that, not by their fire times, when the
 * times are close.
 *
 * Why: Claude Code starts an `async` hook in the background, and its fire
 * time (taken when the hook's shell gets to run) can land after that of a
 * synchronous hook the agent fired later. In the real-agent suite the async
 * `PreToolUse` of a tool call read 28-32 ms later than the synchronous
 * `PermissionRequest` of the same call, so plain time order let the
 * working claim win over the prompt that was on screen. The payloads say
 * which turn (`prompt_id`) and which call (`tool_name`, `tool_input`) an
 * event belongs to, and the agent's lifecycle says the order: the prompt,
 * then each call's `PreToolUse`, `PermissionRequest`, `PostToolUse`, then
 * `Stop`. Outside `ORDER_WINDOW_MS` the clock decides as before: a call
 * repeated with the same input later in the turn must still raise its
 * prompt.
 *
 * The key of the claim that stamped a pane is kept in `@tma_hook_order` as
 * `turn.call.phase` (hex hashes, `-` for an event of the whole turn), so the
 * write's guard can compare it server side with fnmatch patterns (tmux's
 * `#{m:}`), and `relationTo` decides the same thing here.
 *
 * ```ts
 * import { orderKeyOf, relationTo, formatOrderKey } from "./order.ts";
 * const order = { turn: ["prompt_id"], call: ["tool_name", "tool_input"] };
 * const fields = { prompt_id: "p1", tool_name: "Bash", tool_input: { command: "ls" } };
 * const pre = orderKeyOf({ order, phase: 1, fields })!;
 * const ask = orderKeyOf({ order, phase: 2, fields })!;
 * relationTo(formatOrderKey(ask), pre); // "later": the stored prompt comes after this PreToolUse
 * ```
 * @module
 */
import { viewportHash } from "../hash.ts";
import { stringField } from "./payload.ts";

/**
 * How close two fire times must be for phase order to overrule them: well
 * above the lag of a background hook on a loaded machine, well below the
 * time between two tool calls of a real model.
 */
export const ORDER_WINDOW_MS = 1500;

/** `[hooks.order]`: the payload fields that name a turn and a tool call. */
export interface HookOrder {
  turn: readonly string[];
  call: readonly string[];
}

/** Where one event sits: its turn, its tool call (null: the whole turn), its phase. */
export interface OrderKey {
  turn: string;
  call: string | null;
  phase: number;
}

/** Where a stored key sits against an event: before it, after it, or unrelated. */
export type OrderRelation = "earlier" | "later" | null;

/**
 * The key of an event with a `phase`, or null when the manifest orders
 * nothing or the payload names no turn. The call is the hash of the call
 * fields the payload carries (objects as JSON), null when it carries none.
 */
export function orderKeyOf(input: {
  order: HookOrder | undefined;
  phase: number | undefined;
  fields: Readonly<Record<string, unknown>>;
}): OrderKey | null {
  const { order, phase, fields } = input;
  if (order === undefined || phase === undefined) return null;
  const turn = stringField(fields, order.turn);
  if (turn === null) return null;
  const parts = order.call.map((name) => fields[name]).filter((v) => v !== undefined);
  return {
    turn: viewportHash(turn),
    call: parts.length === 0 ? null : viewportHash(JSON.stringify(parts)),
    phase,
  };
}

/** The stored form, `turn.call.phase`. */
export function formatOrderKey(key: OrderKey): string {
  return `${key.turn}.${key.call ?? "-"}.${key.phase}`;
}

/**
 * Where the stored key sits against `mine`: the same turn, and either the
 * same call or one of the two an event of the whole turn, in a lower phase
 * ("earlier") or a higher one ("later"). Anything else is unrelated.
 */
export function relationTo(stored: string | undefined, mine: OrderKey): OrderRelation {
  const match = /^([0-9a-f]+)\.([0-9a-f]+|-)\.([0-9])$/.exec(stored ?? "");
  if (match === null || match[1] !== mine.turn) return null;
  const call = match[2] === "-" ? null : match[2];
  if (call !== null && mine.call !== null && call !== mine.call) return null;
  const phase = Number(match[3]);
  return phase < mine.phase ? "earlier" : phase > mine.phase ? "later" : null;
}

/**
 * The same test as fnmatch patterns over the stored key, for the write's
 * server-side guard: a stored key matching one of `earlier` sits before
 * `mine`, one matching `later` after it.
 */
export function orderPatterns(mine: OrderKey): { earlier: string[]; later: string[] } {
  const calls = mine.call === null ? ["*"] : [mine.call, "-"];
  const range = (from: number, to: number) => from > to ? null : `[${from}-${to}]`;
  const side = (phases: string | null) =>
    phases === null ? [] : calls.map((call) => `${mine.turn}.${call}.${phases}`);
  return { earlier: side(range(0, mine.phase - 1)), later: side(range(mine.phase + 1, 9)) };
}

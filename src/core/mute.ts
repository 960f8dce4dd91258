/**
 * The mute deadline `@agent_mute_until` (C56-C59, P31): ms epoch, or the
 * sentinel `99999999999999` for "until cleared". It silences every
 * notification sink and nothing else; detection and stamps go on.
 *
 * ```ts
 * import { muteWrite, isMuted } from "./mute.ts";
 * muteWrite({ nowMs: 1785100000000, forMs: 90_000 }); // { name: "@agent_mute_until", value: "1785100090000" }
 * isMuted({ "@agent_mute_until": "99999999999999" }, 1785100000000); // true
 * ```
 * @module
 */
import type { PaneOptions } from "./snapshot.ts";
import type { OptionWrite } from "./stamp.ts";
import { parseEpochMs } from "./time.ts";

/** The stored deadline of an indefinite mute (C57). */
export const MUTE_FOREVER = "99999999999999";

const MUTE_OPTION = "@agent_mute_until";

/** The write of a mute: for `forMs` from now, or until cleared when `forMs` is null. */
export function muteWrite(context: { nowMs: number; forMs: number | null }): OptionWrite {
  return {
    name: MUTE_OPTION,
    value: context.forMs === null ? MUTE_FOREVER : String(context.nowMs + context.forMs),
  };
}

/** The write of `mute --clear` (C58). */
export function unmuteWrite(): OptionWrite {
  return { name: MUTE_OPTION, value: null };
}

/** Whether a pane's mute deadline is still in the future (P51). */
export function isMuted(options: PaneOptions, nowMs: number): boolean {
  const until = parseEpochMs(options[MUTE_OPTION]);
  return until !== null && until > nowMs;
}

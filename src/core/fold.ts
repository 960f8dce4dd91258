/**
 * The fold: from the prior stamp, this cycle's evidence and the identity
 * facts to one verdict per pane (D10-D25). Deterministic and pure: every time
 * is passed in, and the order is fixed, not weighted:
 *
 * 1. a fresh hook claim; 2. visible blocker chrome; 3. working chrome;
 * 4. idle chrome; 5. otherwise hold, or `unknown` on first sight.
 *
 * A fresh hook claim yields to the screen only where the screen proves it
 * over: blocker chrome newer than it (D20), turn-end chrome after a working
 * claim (D65), a dialog gone after a blocked one (D67; see `settle.ts`).
 * @module
 */
import type { Identity } from "./identity.ts";
import { markLiftsDwell, screenEndsClaim } from "./settle.ts";
import type { Stamp } from "./stamp.ts";
import type { Source, State } from "./state.ts";

/** One screen rule that matched, reduced to what the fold needs. */
export interface ScreenClaim {
  state: State;
  detail: string | null;
  priority: number;
  /** Which rule, for `debug explain` (for example `rules[3] blocked/permission`). */
  label: string;
  /** The rule carries `ends_turn`: its match proves the turn ended (D65). */
  endsTurn?: boolean;
  /** The rule reads the pane title rather than the pane body. */
  fromTitle?: boolean;
}

/** What the screen said this cycle. */
export interface ScreenEvidence {
  /** The best claim by slot order, then priority (D16), or null. */
  best: ScreenClaim | null;
  /**
   * The best claim among rules that read the pane body (not its title), or
   * null: what may end a fresh hook claim (D65, D67). Absent means `best`
   * when that one is not from the title.
   */
  bestBody?: ScreenClaim | null;
  /** A matched history view (`skip_state_update`, D15), or null. */
  historyView: ScreenClaim | null;
}

/** The fold's windows, in seconds (G5-G8). */
export interface FoldWindows {
  dwellSecs: number;
  hookDecaySecs: number;
  blockedDecaySecs: number;
}

/** Everything one pane's fold reads. */
export interface FoldInput {
  prior: Stamp;
  identity: Identity;
  /** `[capture].visible` of the agent's manifest (M15). */
  visible: ReadonlySet<State>;
  /** The screen reading, or null when this cycle did not capture the pane. */
  screen: ScreenEvidence | null;
  /** The tmux scroll offset is above 0 (D14). */
  scrolled: boolean;
  nowMs: number;
  windows: FoldWindows;
  /**
   * The daemon demoted the pane's hooks (U9): its hook claim is not
   * evidence against the screen until a hook event lands again.
   */
  hookDemoted?: boolean;
}

/** The evidence that decided a verdict. */
export interface WinningEvidence {
  source: Source;
  at: number;
  label: string;
}

/** The fold's answer for one pane (glossary: verdict). */
export interface Verdict {
  action: "publish" | "hold" | "remove";
  state: State | null;
  detail: string | null;
  source: Source | null;
  evidenceAt: number | null;
  /** Raise `@agent_attention` (D4). */
  setAttention: boolean;
  /** The agent was replaced: reset the episode (D24). */
  episodeReset: boolean;
  /** Whether screen evidence was allowed to override a hook claim. */
  mayOverride: boolean;
  winning: WinningEvidence | null;
  /** A short reason for `debug explain`. */
  reason: string;
}

/** The decay window of a hook claim in a given state (D19). */
export function decayWindowMs(state: State, windows: FoldWindows): number {
  return (state === "blocked" ? windows.blockedDecaySecs : windows.hookDecaySecs) * 1000;
}

/**
 * Folds one pane.
 *
 * ```ts
 * import type { Identity } from "./identity.ts";
 * import type { Stamp } from "./stamp.ts";
 * declare const prior: Stamp, identity: Identity, screen: ScreenEvidence | null;
 * const windows = { dwellSecs: 3, hookDecaySecs: 60, blockedDecaySecs: 300 };
 * const verdict = fold({
 *   prior, identity, visible: new Set(["working", "idle"]), screen, scrolled: false,
 *   nowMs: 1_700_000_000_000, windows,
 * });
 * verdict.action; // "publish", "hold" or "remove"
 * ```
 */
export function fold(input: FoldInput): Verdict {
  const { prior, identity, nowMs } = input;
  if (!identity.agent || identity.ignored || (identity.outOfScope && !identity.source)) {
    return removal(identity.ignored ? "ignored (D38)" : "no agent in the pane (D40)");
  }
  const replaced = identity.source === "observed" && prior.pid !== null && prior.pid !== 0 &&
    prior.pid !== identity.pid;
  const replacedAgent = prior.agent !== null && prior.agent !== identity.agent;
  const episodeReset = replaced || replacedAgent;
  // A hook claim belongs to the process that made it: a replaced agent's
  // claim is not evidence about the new one.
  const hook = !episodeReset && !input.hookDemoted && prior.source === "hook" &&
      prior.state !== null
    ? { state: prior.state, detail: prior.detail, at: prior.evidenceAt ?? 0 }
    : null;
  const base = { episodeReset };
  // What the pane shows cannot be read: published as unknown, by process.
  const unknown = (label: string) =>
    publish(prior, {
      ...base,
      state: "unknown",
      detail: null,
      source: "process",
      at: nowMs,
      label,
    });

  if (identity.source === "registered") {
    // Capture stops behind a registration (D37): hooks are the only evidence.
    return hold(prior, episodeReset, "registered: hooks only");
  }
  if (input.scrolled) return hold(prior, episodeReset, "scrolled: frozen (D14)");
  if (input.screen?.historyView) {
    return hold(prior, episodeReset, `history view ${input.screen.historyView.label} (D15)`);
  }
  if (!identity.foregroundIsAgent) {
    // The foreground cap (D12): the screen is not the agent's.
    if (hook) return hold(prior, episodeReset, "foreground is not the agent; hook claim survives");
    return unknown("foreground is not the agent (D12)");
  }
  if (!input.screen) {
    if (prior.state === null) {
      return unknown("first sight, no capture");
    }
    return hold(prior, episodeReset, "not captured this cycle");
  }
  const claim = input.screen.best;

  if (hook) {
    // (2) Blocker chrome beats a working or idle hook claim whose evidence
    // is older than this capture (D20).
    if (claim?.state === "blocked" && hook.state !== "blocked" && hook.at < nowMs) {
      return publish(prior, { ...base, ...fromClaim(claim, nowMs), mayOverride: true });
    }
    const age = nowMs - hook.at;
    if (claim && claim.state === hook.state && (claim.detail ?? null) === hook.detail) {
      // Consistent chrome advances the evidence time (D22).
      return publish(prior, {
        ...base,
        state: hook.state,
        detail: hook.detail,
        source: "hook",
        at: Math.max(nowMs, hook.at),
        label: `hook claim confirmed by ${claim.label}`,
      });
    }
    // Only a screen that claims nothing of the hook's state may end it: a
    // title still saying so (Gemini's "Action Required") is weak evidence,
    // but evidence for, not against.
    const body = claim?.state === hook.state ? null : bodyClaim(input.screen);
    const ended = screenEndsClaim({
      hookState: hook.state,
      hookEventAt: prior.hookAt ?? hook.at,
      claim: body && {
        state: body.state,
        endsTurn: body.endsTurn ?? false,
        fromTitle: body.fromTitle ?? false,
      },
      delivered: prior.delivered,
      visible: input.visible,
      nowMs,
      dwellMs: input.windows.dwellSecs * 1000,
    });
    if (ended !== null && body) {
      return publish(prior, {
        ...base,
        ...fromClaim(body, nowMs),
        label: `${body.label}; ${ended}`,
        mayOverride: true,
      });
    }
    const decayed = age >= decayWindowMs(hook.state, input.windows);
    const contrary = claim !== null && claim.state !== hook.state;
    if (decayed && contrary && input.visible.has(hook.state)) {
      return publish(prior, { ...base, ...fromClaim(claim!, nowMs), mayOverride: true });
    }
    return hold(
      prior,
      episodeReset,
      decayed ? "hook claim held: no positive contrary chrome it may decay to" : "fresh hook claim",
    );
  }

  if (!claim) {
    if (prior.state === null) {
      return unknown("first sight, no rule matched");
    }
    return hold(prior, episodeReset, "no rule matched: hold");
  }
  // The asymmetric dwell (D21): working to idle waits until the working
  // evidence is dwell_secs old; everything else publishes at once.
  // A mark of an interrupt tma delivered itself lifts it, on idle chrome of
  // the pane body (D65).
  if (
    !episodeReset && prior.state === "working" && claim.state === "idle" &&
    prior.evidenceAt !== null && nowMs - prior.evidenceAt < input.windows.dwellSecs * 1000
  ) {
    const body = bodyClaim(input.screen);
    const context = { priorState: prior.state, since: prior.since, nowMs };
    if (body?.state === "idle" && markLiftsDwell(prior.delivered, context)) {
      return publish(prior, {
        ...base,
        ...fromClaim(body, nowMs),
        label: `${body.label}; D65: idle chrome after tma interrupted the turn`,
        mayOverride: true,
      });
    }
    return hold(prior, episodeReset, "dwell: working evidence too recent for idle (D21)");
  }
  return publish(prior, { ...base, ...fromClaim(claim, nowMs), mayOverride: true });
}

/**
 * The screen's best claim from the pane body: a title glyph some agents keep
 * in every state proves nothing, but it must not hide body chrome that does.
 */
function bodyClaim(screen: ScreenEvidence): ScreenClaim | null {
  if (screen.bestBody !== undefined) return screen.bestBody;
  return screen.best?.fromTitle ? null : screen.best;
}

function fromClaim(claim: ScreenClaim, at: number) {
  return {
    state: claim.state,
    detail: claim.detail,
    source: "capture" as Source,
    at,
    label: claim.label,
  };
}

interface PublishArgs {
  state: State;
  detail: string | null;
  source: Source;
  at: number;
  label: string;
  episodeReset: boolean;
  mayOverride?: boolean;
}

function publish(prior: Stamp, args: PublishArgs): Verdict {
  const previous = args.episodeReset ? null : prior.state;
  const enteringBlocked = args.state === "blocked" && previous !== "blocked";
  const completed = previous === "working" && args.state === "idle";
  return {
    action: "publish",
    state: args.state,
    detail: args.detail,
    source: args.source,
    evidenceAt: args.at,
    setAttention: enteringBlocked || completed,
    episodeReset: args.episodeReset,
    mayOverride: args.mayOverride ?? false,
    winning: { source: args.source, at: args.at, label: args.label },
    reason: previous === args.state
      ? "consistent evidence"
      : `${previous ?? "none"} -> ${args.state}`,
  };
}

/**
 * The verdict that keeps a pane's stamp as it stands: its state, detail,
 * source and evidence time, no attention, nothing to override.
 */
export function hold(prior: Stamp, episodeReset: boolean, reason: string): Verdict {
  return {
    action: "hold",
    state: prior.state,
    detail: prior.detail,
    source: prior.source,
    evidenceAt: prior.evidenceAt,
    setAttention: false,
    episodeReset,
    mayOverride: false,
    winning: null,
    reason,
  };
}

function removal(reason: string): Verdict {
  return {
    action: "remove",
    state: null,
    detail: null,
    source: null,
    evidenceAt: null,
    setAttention: false,
    episodeReset: false,
    mayOverride: false,
    winning: null,
    reason,
  };
}

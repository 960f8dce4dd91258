/**
 * Claude's hook reply lane: the hand-off protocol between the
 * `PermissionRequest` hook that holds a prompt and the broker that answers
 * it, over three pane options (A25, A26).
 *
 * - The hook mints an id onto `@agent_permission_request` with its blocked
 *   stamp and polls while it holds.
 * - The broker offers `@tma_verdict = <id>:allow|deny` (`offerVerdict`),
 *   only while the pane still holds that id.
 * - The hook takes it with one guarded chain (`takeVerdict`): while
 *   `@tma_verdict` still reads `<id>:<verdict>`, set `@tma_verdict_ack =
 *   <id>` and empty `@tma_verdict`. Only a committed take prints Claude's
 *   decision object.
 * - A broker that sees no ack in its hand-off bound withdraws the offer
 *   (`withdrawVerdict`), guarded on the same value, so the take and the
 *   withdrawal can never both win: the prompt is answered exactly once.
 * - The hold ends when a verdict is taken, the pane leaves blocked, the id
 *   is replaced or cleared, the pane vanishes, or `hold_ms` passes; the hook
 *   then clears its id, guarded on it still being its id.
 *
 * The broker's own hand-off loop (`src/actions/hook_lane.ts`) speaks the
 * same protocol over the same three options; the integration tests run it
 * against a held hook.
 *
 * ```ts
 * import { offerVerdict, withdrawVerdict } from "./reply_lane.ts";
 * const server = { bin: "tmux", socketName: "work" };
 * if (await offerVerdict(server, { pane: "%3", requestId: "tma_1f", verdict: "allow" })) {
 *   // wait for @tma_verdict_ack == "tma_1f", else:
 *   await withdrawVerdict(server, { pane: "%3", requestId: "tma_1f", verdict: "allow" });
 * }
 * ```
 * @module
 */
import { readVerdict, type Verdict, verdictToken } from "../../core/hook/decision.ts";
import { runTmux, type TmuxServer } from "../../tmux/exec.ts";
import { escapeFormat, writeChains } from "../../tmux/writer.ts";

export type { Verdict };

/** The option the broker offers a verdict in. */
export const VERDICT_OPTION = "@tma_verdict";

/** The option the hook acknowledges a taken verdict in. */
export const VERDICT_ACK_OPTION = "@tma_verdict_ack";

/** The option naming the request the hook holds (P27). */
export const REQUEST_OPTION = "@agent_permission_request";

/** How often the holding hook looks for a verdict. */
export const HOLD_POLL_MS = 100;

/** One verdict addressed to one request on one pane. */
export interface VerdictTarget {
  pane: string;
  requestId: string;
  verdict: Verdict;
}

/** A tmux condition: option `name` reads exactly `value`. */
function equals(name: string, value: string): string {
  return `#{==:#{${name}},${escapeFormat(value)}}`;
}

async function commit(
  server: TmuxServer,
  chain: { pane: string; guard: string; writes: { name: string; value: string | null }[] },
): Promise<boolean> {
  return (await writeChains(server, [chain])).get(chain.pane) ?? false;
}

/**
 * A fresh request id: `tma_` and 16 hex digits. Random, because Claude's
 * payload names no request of its own (P27).
 */
export function mintRequestId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(8));
  return `tma_${Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("")}`;
}

/**
 * The broker's offer: writes `@tma_verdict` only while the pane still holds
 * `requestId`. Returns whether it was offered.
 */
export function offerVerdict(server: TmuxServer, target: VerdictTarget): Promise<boolean> {
  return commit(server, {
    pane: target.pane,
    guard: equals(REQUEST_OPTION, target.requestId),
    writes: [{ name: VERDICT_OPTION, value: verdictToken(target.requestId, target.verdict) }],
  });
}

/**
 * The broker's withdrawal: empties `@tma_verdict` only while it still holds
 * this offer. Returns true when withdrawn (the hook never took it); false
 * when the hook took it first, or the pane is gone.
 */
export function withdrawVerdict(server: TmuxServer, target: VerdictTarget): Promise<boolean> {
  return commit(server, {
    pane: target.pane,
    guard: equals(VERDICT_OPTION, verdictToken(target.requestId, target.verdict)),
    writes: [{ name: VERDICT_OPTION, value: null }],
  });
}

/**
 * The hook's take: while `@tma_verdict` reads this offer, acknowledge it in
 * `@tma_verdict_ack` and empty `@tma_verdict`, in one chain. Returns whether
 * it committed; only then may the hook answer Claude.
 */
export function takeVerdict(server: TmuxServer, target: VerdictTarget): Promise<boolean> {
  return commit(server, {
    pane: target.pane,
    guard: equals(VERDICT_OPTION, verdictToken(target.requestId, target.verdict)),
    writes: [
      { name: VERDICT_ACK_OPTION, value: target.requestId },
      { name: VERDICT_OPTION, value: null },
    ],
  });
}

/** What the lane reads of a pane in one call. */
export interface LaneReading {
  state: string;
  requestId: string;
  verdict: string;
  ack: string;
}

const SEPARATOR = "<~|~>";

/** Reads the lane's options of a pane in one call, or null when the pane is gone. */
export async function readLane(server: TmuxServer, pane: string): Promise<LaneReading | null> {
  const format = ["@agent_state", REQUEST_OPTION, VERDICT_OPTION, VERDICT_ACK_OPTION]
    .map((name) => `#{${name}}`)
    .join(SEPARATOR);
  const { stdout, code } = await runTmux(server, ["display-message", "-p", "-t", pane, format], {
    allowFailure: true,
  });
  if (code !== 0) return null;
  const [state = "", requestId = "", verdict = "", ack = ""] = stdout.replace(/\n$/, "").split(
    SEPARATOR,
  );
  return { state, requestId, verdict, ack };
}

/** Options of `holdForVerdict`. */
export interface HoldOptions {
  pane: string;
  requestId: string;
  /** `[hooks] hold_ms` (G31). */
  holdMs: number;
  /** The clock, in ms. */
  now(): number;
  /** Waits between polls; tests may pass their own. */
  sleep?: (ms: number) => Promise<void>;
}

function defaultSleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * The hook's hold: polls every ~100 ms for a verdict addressed to `requestId`
 * and takes it; ends early when the pane leaves blocked, the id is no longer
 * the pane's, or the pane vanishes (A25). Clears the id on the way out
 * (guarded on it still being ours) and returns the verdict it took, or null.
 */
export async function holdForVerdict(
  server: TmuxServer,
  options: HoldOptions,
): Promise<Verdict | null> {
  const sleep = options.sleep ?? defaultSleep;
  const deadline = options.now() + options.holdMs;
  try {
    for (;;) {
      const lane = await readLane(server, options.pane);
      if (lane === null) return null;
      const verdict = readVerdict(lane.verdict, options.requestId);
      if (verdict !== null) {
        const target = { pane: options.pane, requestId: options.requestId, verdict };
        if (await takeVerdict(server, target)) return verdict;
        // Withdrawn between the read and the take: keep holding.
        continue;
      }
      if (lane.state !== "blocked" || lane.requestId !== options.requestId) return null;
      const left = deadline - options.now();
      if (left <= 0) return null;
      await sleep(Math.min(HOLD_POLL_MS, left));
    }
  } finally {
    await releaseRequest(server, { pane: options.pane, requestId: options.requestId }).catch(() => {
      // The pane may be gone; the answer (if any) stands either way.
    });
  }
}

/** Clears `@agent_permission_request` while it still holds `requestId`. */
export function releaseRequest(
  server: TmuxServer,
  options: { pane: string; requestId: string },
): Promise<boolean> {
  return commit(server, {
    pane: options.pane,
    guard: equals(REQUEST_OPTION, options.requestId),
    writes: [{ name: REQUEST_OPTION, value: null }],
  });
}

/**
 * Captures a blocked pane's dialog for the prompt fingerprint when the gate
 * passes; the send itself is guarded on the server by the same rows, and a
 * refusal is read from the capture taken in that same invocation (X1).
 * @module
 */
import type { ParsedActionManifest } from "../core/manifest/parse.ts";
import type { State } from "../core/state.ts";
import { capturePanes } from "../tmux/capture.ts";
import { fingerprint, guardRows, promptRows, type ScreenRow } from "../core/action/fingerprint.ts";
import { type BrokerEnv, modelOf } from "./observe.ts";
import type { Refusal } from "../core/action/gate.ts";
import type { PaneView } from "../core/action/view.ts";

/** One look at the pane's screen. */
export interface PromptLook {
  print: string;
  /** The dialog's rows and where they sit, for the server-side send guard. */
  rows: ScreenRow[];
  /** The agent's screen rules read blocker chrome on it. */
  showsBlocker: boolean;
  /** What the screen rules read, for a refusal message. */
  reading: { state: State; detail: string | null } | null;
}

/** Captures the pane and fingerprints its last rows; null when the pane is gone. */
export async function lookAtPrompt(env: BrokerEnv, view: PaneView): Promise<PromptLook | null> {
  const screens = await capturePanes(env.server, [view.pane]);
  const capture = screens.get(view.pane);
  if (capture === undefined) return null;
  return await readPrompt(env, { view, capture });
}

/** Fingerprints and classifies one capture of the pane. */
export async function readPrompt(
  env: BrokerEnv,
  context: { view: PaneView; capture: string },
): Promise<PromptLook> {
  const { view, capture } = context;
  const print = await fingerprint(promptRows(capture, view.height));
  const model = modelOf(env, view.agent);
  const best = model?.classify({ capture, title: view.title ?? "", height: view.height }).best ??
    null;
  return {
    print,
    rows: guardRows(capture, view.height),
    showsBlocker: best?.state === "blocked",
    reading: best ? { state: best.state, detail: best.detail } : null,
  };
}

/**
 * The fingerprint to hold for a keys action at a blocked pane, or null when
 * there is none to hold: the pane is not blocked, or its dialog is not on
 * screen yet (a hook stamps blocked before the agent draws, and a print of
 * the screen before the dialog would refuse the dialog itself).
 */
export async function recordPrompt(env: BrokerEnv, view: PaneView): Promise<PromptLook | null> {
  if (view.state !== "blocked") return null;
  const look = await lookAtPrompt(env, view);
  return look?.showsBlocker ? look : null;
}

/**
 * Why a send was refused, read from the screen it met instead of the held
 * one: `gated` when that screen no longer reads as the state the action
 * gates on, else `prompt-changed`.
 */
export function promptRefusal(
  options: { view: PaneView; action: ParsedActionManifest; force: boolean },
  look: PromptLook,
): Refusal {
  const { view, action } = options;
  const when = action.when;
  const reading = look.reading;
  const stillGated = reading !== null &&
    (!when?.state || when.state.includes(reading.state)) &&
    (!when?.detail || (reading.detail !== null && when.detail.includes(reading.detail)));
  if (!options.force && !stillGated) {
    return {
      reason: "gated",
      message: `pane ${view.pane} left ${view.state ?? "its state"} before the keys went out ` +
        `(the screen now reads ${reading ? reading.state : "no state"})`,
    };
  }
  return {
    reason: "prompt-changed",
    message: `pane ${view.pane} shows a different prompt than the one the gate passed on; ` +
      "nothing was sent (look at it and fire again)",
  };
}

/**
 * The keystroke adapter: the only module that builds a tmux `send-keys`
 * command (A19, A20, R6). Every key tma ever types into a pane goes through
 * here, and only `tma act` calls it; a source-guard test keeps the word out
 * of every other file under `src/`.
 *
 * ```ts
 * sendKeysArgs("%3", ["/compact", "Enter"]);
 * // ["send-keys", "-t", "%3", "--", "/compact", "Enter"]
 * ```
 * @module
 */
import { TEXT_PLACEHOLDER } from "../core/manifest/action_vocabulary.ts";
import { classifyFailure, runTmux, type TmuxServer } from "./exec.ts";

/** What a delivery did: the keys went out, or the pane was gone. */
export type KeysDelivery = "sent" | "vanished";

const SEND_KEYS = "send-keys";
const PANE_GONE = /can't find pane|can't find window|can't find session|no such pane/i;

/**
 * Makes one argument survive tmux's argv parsing unchanged. tmux reads an
 * argument that ends in `;` as a command separator (the `;` is dropped and
 * the command ends there); a `\` before that final `;` keeps it literal.
 *
 * ```ts
 * tmuxArg("ls;"); // "ls\\;"
 * ```
 */
export function tmuxArg(value: string): string {
  return value.endsWith(";") ? `${value.slice(0, -1)}\\;` : value;
}

/**
 * The arguments of one `send-keys` with named-key interpretation: each element
 * is one key name or string (`Enter`, `Escape`, `C-c`, `/compact`) (A19). `--`
 * ends the flags, so an element that starts with `-` is a key, not a flag.
 */
export function sendKeysArgs(pane: string, keys: readonly string[]): string[] {
  return [SEND_KEYS, "-t", pane, "--", ...keys.map(tmuxArg)];
}

/**
 * The pause between a text action's message and the keys after it. An agent
 * may take keys that arrive right behind a burst of typed text as part of a
 * paste: Codex 0.171 turns an Enter within 120 ms of paste-like input into a
 * newline (its PASTE_ENTER_SUPPRESS_WINDOW), so `steer` would leave the text
 * unsent in the composer.
 */
export const TEXT_SUBMIT_GAP_MS = 400;

/**
 * The tmux invocations of a text action (A20), sent in order with
 * {@linkcode TEXT_SUBMIT_GAP_MS} between them: the `{text}` element becomes
 * its own literal `send-keys -l` (no key-name lookup, so a message reading
 * `Enter` types the word) and ends its invocation; the named keys around it
 * stay named keys, chained with `;` inside one invocation. The message is an
 * argv element and never passes through a shell.
 *
 * ```ts
 * textDeliveryCalls("%3", { sequence: ["{text}", "Enter"], text: "fix the test" });
 * // [["send-keys", "-l", "-t", "%3", "--", "fix the test"],
 * //  ["send-keys", "-t", "%3", "--", "Enter"]]
 * ```
 */
export function textDeliveryCalls(
  pane: string,
  delivery: { sequence: readonly string[]; text: string },
): string[][] {
  const { sequence, text } = delivery;
  const calls: string[][][] = [[]];
  let named: string[] = [];
  const current = () => calls[calls.length - 1];
  const flush = () => {
    if (named.length > 0) current().push(sendKeysArgs(pane, named));
    named = [];
  };
  for (const element of sequence) {
    if (element !== TEXT_PLACEHOLDER) {
      named.push(element);
      continue;
    }
    flush();
    current().push([SEND_KEYS, "-l", "-t", pane, "--", tmuxArg(text)]);
    calls.push([]);
  }
  flush();
  return calls
    .filter((commands) => commands.length > 0)
    .map((commands) => commands.flatMap((command, i) => (i === 0 ? command : [";", ...command])));
}

/** The pause between two Escape presses that must reach the agent as two keys. */
export const ESCAPE_GAP_MS = 150;

/**
 * Splits a sequence where an `Escape` follows an `Escape`. Two ESC bytes that
 * arrive in one read are taken by terminal programs as Alt+Escape: the real
 * OpenCode 1.18 needs two separate presses to interrupt (one arms it, "esc
 * again to interrupt"), and ignored both when they came in one `send-keys`.
 *
 * ```ts
 * keyBursts(["Escape", "Escape"]); // [["Escape"], ["Escape"]]
 * ```
 */
export function keyBursts(keys: readonly string[]): string[][] {
  const bursts: string[][] = [];
  for (const key of keys) {
    const current = bursts[bursts.length - 1];
    if (!current || (key === "Escape" && current[current.length - 1] === "Escape")) {
      bursts.push([key]);
    } else {
      current.push(key);
    }
  }
  return bursts;
}

/**
 * Sends a key sequence to a pane as one `send-keys` (A19), except that
 * repeated Escapes go out as separate presses `ESCAPE_GAP_MS` apart.
 */
export async function sendKeys(
  server: TmuxServer,
  options: { pane: string; keys: readonly string[] },
): Promise<KeysDelivery> {
  const bursts = keyBursts(options.keys);
  for (const [i, burst] of bursts.entries()) {
    if (i > 0) await new Promise((resolve) => setTimeout(resolve, ESCAPE_GAP_MS));
    const delivery = await deliver(server, sendKeysArgs(options.pane, burst));
    if (delivery === "vanished") return delivery;
  }
  return "sent";
}

/** Delivers a text action's message inside its wrapping (A20), the keys after it a beat later. */
export async function sendText(
  server: TmuxServer,
  options: { pane: string; sequence: readonly string[]; text: string },
): Promise<KeysDelivery> {
  for (const [i, call] of textDeliveryCalls(options.pane, options).entries()) {
    if (i > 0) await new Promise((resolve) => setTimeout(resolve, TEXT_SUBMIT_GAP_MS));
    const delivery = await deliver(server, call);
    if (delivery === "vanished") return delivery;
  }
  return "sent";
}

async function deliver(server: TmuxServer, args: string[]): Promise<KeysDelivery> {
  const result = await runTmux(server, args, { allowFailure: true });
  if (result.code === 0) return "sent";
  if (PANE_GONE.test(result.stderr)) return "vanished";
  // Never retried: a second attempt could type the keys twice.
  throw classifyFailure(server, SEND_KEYS, result.stderr);
}

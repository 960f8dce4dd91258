/**
 * The keystroke adapter (A19, A20, R6): the only module that builds a tmux
 * `send-keys` command. Every key tma ever types into a pane goes through
 * here, and only `tma act` calls it; a source-guard test keeps the word out
 * of every other file under `src/`.
 *
 * ```ts
 * sendKeysArgs("%3", ["/compact", "Enter"]);
 * // ["send-keys", "-t", "%3", "--", "/compact", "Enter"]
 * ```
 * @module
 */
import { TEXT_PLACEHOLDER } from "../core/manifest/action_schema.ts";
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
 * The arguments of one `send-keys` with named-key interpretation (A19): each
 * element is one key name or string (`Enter`, `Escape`, `C-c`, `/compact`).
 * `--` ends the flags, so an element that starts with `-` is a key, not a flag.
 */
export function sendKeysArgs(pane: string, keys: readonly string[]): string[] {
  return [SEND_KEYS, "-t", pane, "--", ...keys.map(tmuxArg)];
}

/**
 * The command line of a text action (A20): the `{text}` element becomes its
 * own literal `send-keys -l` (no key-name lookup, so a message reading
 * `Enter` types the word), the wrapping elements around it stay named keys,
 * and all of it is one tmux invocation joined by `;`, in order. The message
 * is an argv element and never passes through a shell.
 *
 * ```ts
 * textDeliveryArgs("%3", { sequence: ["{text}", "Enter"], text: "fix the test" });
 * // ["send-keys", "-l", "-t", "%3", "--", "fix the test", ";",
 * //  "send-keys", "-t", "%3", "--", "Enter"]
 * ```
 */
export function textDeliveryArgs(
  pane: string,
  delivery: { sequence: readonly string[]; text: string },
): string[] {
  const { sequence, text } = delivery;
  const commands: string[][] = [];
  let named: string[] = [];
  const flush = () => {
    if (named.length > 0) commands.push(sendKeysArgs(pane, named));
    named = [];
  };
  for (const element of sequence) {
    if (element !== TEXT_PLACEHOLDER) {
      named.push(element);
      continue;
    }
    flush();
    commands.push([SEND_KEYS, "-l", "-t", pane, "--", tmuxArg(text)]);
  }
  flush();
  return commands.flatMap((command, i) => (i === 0 ? command : [";", ...command]));
}

/** Sends a key sequence to a pane as one `send-keys` (A19). */
export function sendKeys(
  server: TmuxServer,
  options: { pane: string; keys: readonly string[] },
): Promise<KeysDelivery> {
  return deliver(server, sendKeysArgs(options.pane, options.keys));
}

/** Delivers a text action's message inside its wrapping, in one tmux call (A20). */
export function sendText(
  server: TmuxServer,
  options: { pane: string; sequence: readonly string[]; text: string },
): Promise<KeysDelivery> {
  return deliver(server, textDeliveryArgs(options.pane, options));
}

async function deliver(server: TmuxServer, args: string[]): Promise<KeysDelivery> {
  const result = await runTmux(server, args, { allowFailure: true });
  if (result.code === 0) return "sent";
  if (PANE_GONE.test(result.stderr)) return "vanished";
  // Never retried: a second attempt could type the keys twice.
  throw classifyFailure(server, SEND_KEYS, result.stderr);
}

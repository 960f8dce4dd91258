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
import type { ScreenRow } from "../core/action/fingerprint.ts";
import { TEXT_PLACEHOLDER } from "../core/manifest/action_vocabulary.ts";
import {
  classifyFailure,
  quoteScriptArg,
  readMarkers,
  runTmux,
  runTmuxScript,
  type TmuxServer,
} from "./exec.ts";
import { escapeFormat } from "./writer.ts";

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

/** A guarded delivery that did not send: the screen the guard saw instead. */
export interface Held {
  held: true;
  /** `capture-pane -p -e -S -50`, taken in the same command list, just before the guard. */
  capture: string;
}

/** Escapes a row for a POSIX extended regex, so it matches only itself. */
function ereLiteral(text: string): string {
  return text.replace(/[\\^$.|?*+()[\]{}]/g, (ch) => `\\${ch}`);
}

/**
 * The tmux condition that holds while every row reads as it did: tmux
 * searches the pane's visible rows for each exact text (`#{C/r:…}` gives
 * the first row that matches) and compares the row number.
 *
 * ```ts
 * screenCondition([{ text: "a.b", line: 2 }]); // "#{==:#{C/r:^a\\.b$},2}"
 * ```
 */
export function screenCondition(rows: readonly ScreenRow[]): string {
  const checks = rows.map((row) =>
    `#{==:#{C/r:${escapeFormat(`^${ereLiteral(row.text)}$`)}},${row.line}}`
  );
  if (checks.length === 0) return "1";
  return checks.reduce((all, check) => `#{&&:${all},${check}}`);
}

/**
 * Sends `commands` (one delivery, several commands) only while the pane
 * still shows `rows`, in ONE tmux invocation: a last capture, then an
 * `if-shell -F` whose condition the server evaluates and whose branch it
 * runs in the same command list, with no pane output read in between (X1,
 * A18). What remains is the time the agent takes to read the key after tmux
 * decided; the README gives the measured figure.
 */
async function deliverIfScreen(
  server: TmuxServer,
  options: { pane: string; rows: readonly ScreenRow[]; commands: string[][] },
): Promise<KeysDelivery | Held> {
  const { pane } = options;
  const nonce = crypto.randomUUID();
  // Quoted for tmux's parser, where a ";" inside quotes is text: tmuxArg's
  // "\;" (for argv parsing) is undone.
  const literal = (arg: string) => arg.endsWith("\\;") ? `${arg.slice(0, -2)};` : arg;
  const inner = (commands: string[][]) =>
    commands.map((command) => command.map((a) => quoteScriptArg(literal(a))).join(" ")).join(
      " ; ",
    );
  const sent = [...options.commands, ["display-message", "-p", `${nonce}:1:sent`]];
  const result = await runTmuxScript(server, [[
    ["capture-pane", "-p", "-e", "-S", `-${CAPTURE_LINES}`, "-t", pane],
    ["display-message", "-p", `${nonce}:0`],
    [
      "if-shell",
      "-F",
      "-t",
      pane,
      screenCondition(options.rows),
      inner(sent),
      inner([["display-message", "-p", `${nonce}:1:held`]]),
    ],
  ]]);
  const markers = readMarkers(result.stdout, nonce);
  const capture = markers.find((m) => m.index === 0);
  const verdict = markers.find((m) => m.index === 1);
  if (verdict?.tail === "sent") return "sent";
  if (verdict?.tail === "held" && capture !== undefined) {
    return { held: true, capture: capture.body.join("\n") };
  }
  if (PANE_GONE.test(result.stderr)) return "vanished";
  throw classifyFailure(server, SEND_KEYS, result.stderr);
}

/** Scrollback lines of the guard's last capture, as the broker's captures take (D26). */
const CAPTURE_LINES = 50;

/**
 * {@linkcode sendKeys}, sent only while the pane still shows the dialog
 * `rows` describe (the first burst; later bursts follow it as usual).
 */
export async function sendKeysIfScreen(
  server: TmuxServer,
  options: { pane: string; keys: readonly string[]; rows: readonly ScreenRow[] },
): Promise<KeysDelivery | Held> {
  const [first, ...rest] = keyBursts(options.keys);
  const end = await deliverIfScreen(server, {
    pane: options.pane,
    rows: options.rows,
    commands: [sendKeysArgs(options.pane, first ?? [])],
  });
  if (end !== "sent" || rest.length === 0) return end;
  await new Promise((resolve) => setTimeout(resolve, ESCAPE_GAP_MS));
  return await sendKeys(server, { pane: options.pane, keys: rest.flat() });
}

/**
 * {@linkcode sendText}, sent only while the pane still shows the dialog
 * `rows` describe (the first invocation; the keys after the message follow
 * it a beat later, as usual).
 */
export async function sendTextIfScreen(
  server: TmuxServer,
  options: { pane: string; sequence: readonly string[]; text: string; rows: readonly ScreenRow[] },
): Promise<KeysDelivery | Held> {
  const [first, ...rest] = textDeliveryCalls(options.pane, options);
  const commands: string[][] = [[]];
  for (const arg of first ?? []) {
    if (arg === ";") commands.push([]);
    else commands[commands.length - 1].push(arg);
  }
  const end = await deliverIfScreen(server, { pane: options.pane, rows: options.rows, commands });
  if (end !== "sent") return end;
  for (const call of rest) {
    await new Promise((resolve) => setTimeout(resolve, TEXT_SUBMIT_GAP_MS));
    const delivery = await deliver(server, call);
    if (delivery === "vanished") return delivery;
  }
  return "sent";
}

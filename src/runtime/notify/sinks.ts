/**
 * The terminal and file sinks of a notification: the bell and OSC 9 written
 * to the firing pane's tty (U20, G14, G15), and the JSONL log (U22, G16).
 * Each is best-effort: an error is swallowed, a fire never fails over it.
 *
 * The OSC 9 sequence is wrapped in tmux's DCS passthrough
 * (`ESC P tmux; … ESC \`), because tmux itself does not forward an OSC 9
 * a pane prints: with `set -g allow-passthrough on` (tmux 3.3+) it reaches
 * the terminal of every client showing the pane, through ssh or mosh.
 *
 * ```ts
 * await ringPane("/dev/pts/7", { bell: true, osc: "claude blocked" });
 * appendLog("~/.local/state/tma/notify.jsonl", '{"schema":1}', (name) => Deno.env.get(name));
 * ```
 * @module
 */
import { type EnvReader, homeDir } from "../paths.ts";

const BEL = "\x07";

/** The bytes of an OSC 9 notification, wrapped for tmux passthrough. */
export function oscBytes(text: string): string {
  // deno-lint-ignore no-control-regex -- a control byte would end the sequence early
  const clean = text.replace(/[\x00-\x1f\x7f-\x9f]/g, " ");
  // Inside the passthrough every ESC of the wrapped sequence is doubled.
  return `\x1bPtmux;\x1b\x1b]9;${clean}${BEL}\x1b\\`;
}

/**
 * Writes the bell and/or the OSC 9 notification to a pane's tty. A small
 * `sh` does the write: Deno opens a device file only under `--allow-all`,
 * which tma never asks for. The bytes and the path travel as arguments,
 * never as shell text.
 */
export async function ringPane(
  tty: string,
  options: { bell: boolean; osc: string | null },
): Promise<void> {
  const bytes = (options.bell ? BEL : "") + (options.osc === null ? "" : oscBytes(options.osc));
  if (bytes === "" || !tty.startsWith("/dev/")) return;
  try {
    await new Deno.Command("sh", {
      args: ["-c", 'printf "%s" "$2" > "$1"', "tma-ring", tty, bytes],
      stdin: "null",
      stdout: "null",
      stderr: "null",
    }).output();
  } catch {
    // A pane that closed, a tty we may not write: nothing to ring.
  }
}

/** `~` and `~/…` expanded against the home folder (G16). */
export function expandHome(path: string, env: EnvReader): string {
  if (path === "~") return homeDir(env);
  return path.startsWith("~/") ? `${homeDir(env)}${path.slice(1)}` : path;
}

/** Appends one line to the JSONL log, creating parent folders (G16). Errors are silent. */
export function appendLog(path: string, line: string, env: EnvReader): void {
  try {
    const full = expandHome(path, env);
    const dir = full.slice(0, full.lastIndexOf("/"));
    if (dir !== "") Deno.mkdirSync(dir, { recursive: true });
    Deno.writeTextFileSync(full, `${line}\n`, { append: true });
  } catch {
    // G16: write errors are silent.
  }
}

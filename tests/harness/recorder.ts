/**
 * The recording stand-in agent: it proves what a pane received, byte for
 * byte. It is a shell started under the agent's process name that puts its
 * terminal in raw mode without echo and copies every input byte to a file
 * with `cat`, while a subshell of it draws the screens the test asks for.
 * Raw mode means the line discipline neither translates nor swallows
 * anything (`C-c` is byte 0x03, not a signal; `Enter` is 0x0d), so the file
 * holds exactly what tmux wrote to the pane. To read "everything the action
 * sent and nothing else", a test brackets the action with two unique markers
 * typed through the same adapter and takes the bytes between them.
 *
 * ```ts
 * import { tmuxTest } from "./tmux.ts";
 * tmuxTest("sendKeys() A19: keys arrive as typed", async (t) => {
 *   const agent = await recorder(t, "claude");
 *   await agent.draw(screen("claude_blocked_bash_w120"));
 *   const { bytes } = await agent.recordDuring(() => t.tmux("send-keys", "-t", agent.pane, "1"));
 *   bytes; // "1"
 * });
 * ```
 * @module
 */
import { parseScreenFile } from "../../src/core/rules/screen_file.ts";
import { runTmux } from "../../src/tmux/exec.ts";
import { sendText } from "../../src/tmux/keys.ts";
import type { ScratchTmux } from "./tmux.ts";

const RECORDER = `#!/bin/sh
# A recording stand-in agent: draws what its control FIFO says and records
# every byte typed at it. Started through a symlink named like the agent.
fifo="$1"
rec="$2"
stty raw -echo
cr=$(printf '\\r')
nl='
'
(
  exec 3<> "$fifo"
  while :; do
    if IFS=' ' read -r cmd arg <&3; then
      case "$cmd" in
        draw)
          printf '\\033[H\\033[2J'
          sep=''
          while IFS= read -r line || [ -n "$line" ]; do printf '%s%s' "$sep" "$line"; sep="$cr$nl"; done < "$arg"
          ;;
        title) printf '\\033]2;%s\\033\\\\' "$arg" ;;
      esac
    fi
  done
) &
cat > "$rec"
`;

/** A fixture screen from `fixtures/screens/`. */
export interface Screen {
  capture: string;
  title: string;
  height: number;
}

const SCREENS = new URL("../../fixtures/screens/", import.meta.url);

/** Reads a screen fixture by name (without `.txt`). */
export function screen(name: string): Screen {
  const path = new URL(`${name}.txt`, SCREENS);
  const file = parseScreenFile(Deno.readTextFileSync(path), path.pathname);
  return { capture: file.capture, title: file.title, height: file.height ?? 40 };
}

/** A recording stand-in. */
export interface Recorder {
  pane: string;
  /** Draws a screen and sets its title. */
  draw(s: Screen): Promise<void>;
  /**
   * Runs `fn` and returns exactly the bytes the pane received meanwhile,
   * bracketed by markers typed before and after.
   */
  recordDuring<T>(fn: () => Promise<T>): Promise<{ value: T; bytes: string }>;
  /** Everything received so far. */
  received(): Promise<string>;
}

let counter = 0;

/** Starts a recording stand-in named `name` (`claude`, `codex`, `agent` for Cursor, ...). */
export async function recorder(
  t: ScratchTmux,
  name: string,
  options: { width?: number; height?: number } = {},
): Promise<Recorder> {
  const id = `r${counter++}`;
  const binDir = `${t.dir}/bin-${id}`;
  await Deno.mkdir(binDir);
  await Deno.symlink("/bin/sh", `${binDir}/${name}`);
  const script = `${t.dir}/recorder-${id}.sh`;
  await Deno.writeTextFile(script, RECORDER);
  const fifo = `${t.dir}/control-${id}`;
  await new Deno.Command("mkfifo", { args: [fifo] }).output();
  const rec = `${t.dir}/received-${id}`;
  await Deno.writeTextFile(rec, "");
  const pane = await t.newWindow(
    ["sh", "-c", `exec '${binDir}/${name}' '${script}' '${fifo}' '${rec}'`],
    { width: options.width ?? 120, height: options.height ?? 40 },
  );
  await t.waitFor(async () =>
    (await t.tmux("display", "-p", "-t", pane, "#{pane_current_command}")).trim() === name
  );
  const send = async (line: string) => {
    const file = await Deno.open(fifo, { write: true });
    await file.write(new TextEncoder().encode(`${line}\n`));
    file.close();
  };
  const received = () => Deno.readTextFile(rec);
  const mark = async (marker: string) => {
    await sendText(t.server, { pane, sequence: ["{text}"], text: marker });
    await t.waitFor(async () => (await received()).includes(marker));
  };
  return {
    pane,
    async draw(s) {
      const file = `${t.dir}/screen-${id}-${crypto.randomUUID().slice(0, 6)}`;
      await Deno.writeTextFile(file, s.capture);
      await send(`title ${s.title}`);
      await send(`draw ${file}`);
      await t.settle(pane, s.capture);
      // Through the choke point (-u), so a non-ASCII title reads back intact.
      await t.waitFor(async () =>
        (await runTmux(t.server, ["display", "-p", "-t", pane, "#{pane_title}"])).stdout.trim() ===
          s.title.trim()
      );
      await t.tmux("clear-history", "-t", pane);
    },
    async recordDuring(fn) {
      const start = `<<start-${crypto.randomUUID().slice(0, 8)}>>`;
      const end = `<<end-${crypto.randomUUID().slice(0, 8)}>>`;
      await mark(start);
      const value = await fn();
      await mark(end);
      const all = await received();
      return { value, bytes: all.slice(all.indexOf(start) + start.length, all.indexOf(end)) };
    },
    received,
  };
}

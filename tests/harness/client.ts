/**
 * A real tmux client attached under a pseudo-terminal (util-linux
 * `script`), for the surfaces that need one: menus, jumps, status-line
 * messages, the bell and OSC 9. The test types at it and reads what tmux
 * drew on its terminal.
 *
 * ```ts
 * import { tmuxTest } from "./tmux.ts";
 * tmuxTest("a client sees a message", async (t) => {
 *   await withClient(t, async (client) => {
 *     await t.tmux("display-message", "hello");
 *     await client.waitDrawn("hello");
 *   });
 * }, { ignore: !HAS_SCRIPT });
 * ```
 * @module
 */
import type { ScratchTmux } from "./tmux.ts";

/** Whether util-linux `script` can give a tmux client a terminal here. */
export const HAS_SCRIPT: boolean = (() => {
  if (Deno.build.os !== "linux") return false;
  try {
    const out = new Deno.Command("script", { args: ["--version"], stdout: "piped", stderr: "null" })
      .outputSync();
    return out.success && new TextDecoder().decode(out.stdout).includes("util-linux");
  } catch {
    return false;
  }
})();

/** An attached client: type at it, wait for text on its terminal, read all it drew. */
export interface Client {
  type(text: string): Promise<void>;
  waitDrawn(text: string): Promise<void>;
  /** Everything tmux wrote to the client's terminal so far, escapes included. */
  drawn(): string;
}

/** Attaches a client to session `main`, runs `fn`, and always detaches it. */
export async function withClient(
  t: ScratchTmux,
  fn: (client: Client) => Promise<void>,
): Promise<void> {
  const child = new Deno.Command("script", {
    args: ["-qfec", `tmux -L ${t.socketName} attach -t main`, "/dev/null"],
    env: { ...t.env(), TERM: "xterm-256color", LANG: "C.UTF-8" },
    clearEnv: true,
    stdin: "piped",
    stdout: "piped",
    stderr: "null",
  }).spawn();
  const writer = child.stdin.getWriter();
  let drawn = "";
  const decoder = new TextDecoder();
  const reading = (async () => {
    for await (const chunk of child.stdout) drawn += decoder.decode(chunk, { stream: true });
  })();
  try {
    await t.waitFor(async () => (await t.tmux("list-clients")).trim() !== "");
    await fn({
      type: async (text) => {
        await writer.write(new TextEncoder().encode(text));
      },
      waitDrawn: async (text) => {
        const from = drawn.length;
        await t.waitFor(() =>
          Promise.resolve(drawn.slice(Math.max(0, from - text.length)).includes(text))
        );
      },
      drawn: () => drawn,
    });
  } finally {
    await writer.close().catch(() => undefined);
    child.kill("SIGKILL");
    await child.status;
    await reading.catch(() => undefined);
  }
}

/**
 * A real tmux client attached under a pseudo-terminal (util-linux `script`),
 * for the surfaces that need one: jumps, menus, popups. Type at it, watch
 * what it draws, and always `close()` it (the test's `finally`).
 *
 * ```ts
 * import { attachClient } from "./client.ts";
 * declare const t: import("./tmux.ts").ScratchTmux;
 * const client = await attachClient(t, "main");
 * try { await client.type("x"); } finally { await client.close(); }
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

/** An attached client. */
export interface AttachedClient {
  /** The client's name as tmux reports it (`/dev/pts/N`). */
  name: string;
  /** Writes bytes to the client's terminal, as a person typing. */
  type(text: string): Promise<void>;
  /** Waits until the client has drawn `text` since the call. */
  waitDrawn(text: string): Promise<void>;
  /** Everything the client drew so far. */
  drawn(): string;
  /** Kills the client. */
  close(): Promise<void>;
}

/**
 * Attaches a client to `session` of the scratch server under a
 * pseudo-terminal of `cols` x `rows`.
 */
export async function attachClient(
  t: ScratchTmux,
  session: string,
  options: { cols?: number; rows?: number } = {},
): Promise<AttachedClient> {
  const before = new Set(await clientNames(t));
  const size = `stty cols ${options.cols ?? 120} rows ${options.rows ?? 40} 2>/dev/null; `;
  const child = new Deno.Command("script", {
    args: ["-qfec", `${size}exec tmux -L ${t.socketName} attach -t '${session}'`, "/dev/null"],
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
  const close = async () => {
    await writer.close().catch(() => undefined);
    try {
      child.kill("SIGKILL");
    } catch {
      // Already gone.
    }
    await child.status;
    await reading.catch(() => undefined);
  };
  let name = "";
  try {
    await t.waitFor(async () => {
      name = (await clientNames(t)).find((n) => !before.has(n)) ?? "";
      return name !== "";
    });
  } catch (error) {
    await close();
    throw error;
  }
  return {
    name,
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
    close,
  };
}

async function clientNames(t: ScratchTmux): Promise<string[]> {
  return (await t.tmux("list-clients", "-F", "#{client_name}")).split("\n").filter((l) => l);
}

/** The pane a client shows now (its session's current window's active pane). */
export async function clientPane(t: ScratchTmux, client: string): Promise<string> {
  const lines = (await t.tmux("list-clients", "-F", "#{client_name} #{pane_id}")).split("\n");
  return lines.find((l) => l.startsWith(`${client} `))?.split(" ")[1] ?? "";
}

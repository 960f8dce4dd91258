/**
 * The control-mode transport (U4): one `tmux -C attach-session` per session,
 * read line by line. It is the second transport of this module, not a second
 * place that spawns tmux: the daemon reaches it only through here.
 *
 * Only what the daemon acts on is decoded: which pane printed (`%output`),
 * the lifecycle notices that change the pane set, a format subscription's
 * changes (`refresh-client -B`, tmux 3.2+), and the client's end. The bytes
 * a pane printed are never decoded (a capture reads the screen).
 * @module
 */
import { runTmux, serverArgs, type TmuxServer } from "./exec.ts";

/** What a control client reports. */
export interface ControlEvents {
  /** A pane of the session printed something. */
  output(pane: string): void;
  /** A notice that may change the set of panes or sessions (`%window-add`, ...). */
  lifecycle(notice: string): void;
  /**
   * A subscribed format changed its value on a pane of the session (tmux
   * checks about once a second, and reports every pane once on subscribing).
   */
  subscription?(name: string, pane: string): void;
  /** The client ended (its session closed, the server exited, or it was closed). */
  exit(): void;
}

/** The notices after which the daemon re-reads panes or sessions (U6). */
const LIFECYCLE = new Set([
  "%window-add",
  "%window-close",
  "%unlinked-window-add",
  "%unlinked-window-close",
  "%layout-change",
  "%sessions-changed",
  "%session-changed",
  "%session-window-changed",
  "%window-pane-changed",
  "%pane-mode-changed",
]);

/** One control-mode client attached to one session. */
export class ControlClient {
  readonly session: string;
  #child: Deno.ChildProcess;
  #closed = false;
  /** Resolves true at the first complete `%begin`/`%end` block, false if the client ends first. */
  readonly ready: Promise<boolean>;
  #readyResolve!: (ok: boolean) => void;

  /**
   * Attaches to `session`. `subscriptions` names formats to watch on every
   * pane of the session (`name` to format), reported through
   * `events.subscription`.
   */
  constructor(
    server: TmuxServer,
    session: string,
    events: ControlEvents,
    subscriptions: Readonly<Record<string, string>> = {},
  ) {
    this.session = session;
    this.ready = new Promise((resolve) => this.#readyResolve = resolve);
    // ignore-size: the control client must never shrink the user's windows.
    this.#child = new Deno.Command(server.bin, {
      args: [
        "-u",
        ...serverArgs(server),
        "-C",
        "attach-session",
        "-f",
        "ignore-size",
        "-t",
        session,
      ],
      stdin: "piped",
      stdout: "piped",
      stderr: "null",
    }).spawn();
    this.#read(events).finally(() => {
      this.#readyResolve(false);
      this.#closed = true;
      events.exit();
    });
    this.#child.status.catch(() => undefined);
    this.#subscribe(subscriptions);
  }

  /** Sends one `refresh-client -B` per subscription (quoted: `#` would start a comment). */
  #subscribe(subscriptions: Readonly<Record<string, string>>): void {
    const lines = Object.entries(subscriptions).map(([name, format]) =>
      `refresh-client -B '${name}:%*:${format.replaceAll("'", "")}'\n`
    );
    if (lines.length === 0) return;
    const writer = this.#child.stdin.getWriter();
    writer.write(new TextEncoder().encode(lines.join("")))
      .catch(() => undefined)
      .finally(() => writer.releaseLock());
  }

  async #read(events: ControlEvents): Promise<void> {
    const decoder = new TextDecoder();
    let rest = "";
    try {
      for await (const chunk of this.#child.stdout) {
        rest += decoder.decode(chunk, { stream: true });
        let nl: number;
        while ((nl = rest.indexOf("\n")) >= 0) {
          const line = rest.slice(0, nl);
          rest = rest.slice(nl + 1);
          this.#line(line, events);
        }
      }
    } catch {
      // The pipe broke: the client is gone either way.
    }
  }

  #line(line: string, events: ControlEvents): void {
    if (line.startsWith("%output ")) {
      const end = line.indexOf(" ", 8);
      events.output(end < 0 ? line.slice(8) : line.slice(8, end));
      return;
    }
    if (line.startsWith("%extended-output ")) {
      const end = line.indexOf(" ", 17);
      events.output(end < 0 ? line.slice(17) : line.slice(17, end));
      return;
    }
    if (line.startsWith("%end ") || line.startsWith("%error ")) {
      this.#readyResolve(true);
      return;
    }
    if (line.startsWith("%subscription-changed ")) {
      // %subscription-changed NAME $session @window index %pane ... : value
      const [, name, , , , pane] = line.split(" ", 6);
      if (name && pane?.startsWith("%")) events.subscription?.(name, pane);
      return;
    }
    const word = line.split(" ", 1)[0];
    if (LIFECYCLE.has(word)) events.lifecycle(word);
  }

  /** Whether the client has ended. */
  get closed(): boolean {
    return this.#closed;
  }

  /** Detaches: closing stdin ends a control client; a kill makes sure. */
  async close(): Promise<void> {
    if (this.#closed) return;
    try {
      await this.#child.stdin.close();
    } catch {
      // Already closed.
    }
    const timer = AbortSignal.timeout(500);
    await Promise.race([
      this.#child.status,
      new Promise((resolve) => timer.addEventListener("abort", resolve)),
    ]);
    try {
      this.#child.kill("SIGKILL");
    } catch {
      // It exited.
    }
    await this.#child.status.catch(() => undefined);
  }
}

/** The ids of the server's sessions (`$0`, ...), or null when the server is gone. */
export async function listSessionIds(server: TmuxServer): Promise<string[] | null> {
  const out = await runTmux(server, ["list-sessions", "-F", "#{session_id}"], {
    allowFailure: true,
  }).catch(() => null);
  if (out === null) return null;
  if (out.code !== 0) {
    // A server with no sessions says "no sessions"; a gone one "no server running".
    return /no server running|error connecting|No such file/.test(out.stderr) ? null : [];
  }
  return out.stdout.split("\n").filter((l) => l !== "");
}

/** The server's `#{socket_path}` and pid, or null when it is not running. */
export async function serverIdentity(
  server: TmuxServer,
): Promise<{ socketPath: string; pid: number } | null> {
  const out = await runTmux(server, ["display-message", "-p", "#{socket_path} #{pid}"], {
    allowFailure: true,
  }).catch(() => null);
  if (out === null || out.code !== 0) {
    // display-message needs a session; with none, start-server answers nothing.
    return null;
  }
  const line = out.stdout.trim();
  const space = line.lastIndexOf(" ");
  return { socketPath: line.slice(0, space), pid: Number(line.slice(space + 1)) };
}

/** Sets one server-scope user option (`@tma_status`), unguarded: it belongs to no pane. */
export async function setServerOptions(
  server: TmuxServer,
  values: Readonly<Record<string, string>>,
): Promise<void> {
  const args: string[] = [];
  for (const [name, value] of Object.entries(values)) {
    if (args.length > 0) args.push(";");
    args.push("set-option", "-s", name, value);
  }
  if (args.length > 0) await runTmux(server, args, { allowFailure: true });
}

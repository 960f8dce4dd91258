/**
 * Hosts over a real sshd for the fleet tests (X9): each "host" is its own
 * `/usr/sbin/sshd -D -e -f <scratch config>` on 127.0.0.1 at a random port,
 * with a generated host key and a generated client key, all in a scratch
 * folder. The host's session environment (`SetEnv`) puts a per-host `tma`
 * launcher first on `PATH`: it runs this checkout's `mod.ts` with the
 * documented permissions against that host's own scratch tmux server (by
 * `TMA_SOCKET_PATH`) and scratch HOME. The client side is one scratch `ssh_config` naming every
 * host, which a `[[host]]` entry passes with `-F`, so the real `~/.ssh` and
 * the real HOME are never read. Faults are real too: a host whose sshd is
 * stopped, a listener that accepts and never answers, one that answers
 * garbage. `close()` stops every sshd and listener and removes the folder.
 *
 * Without sshd (or ssh, ssh-keygen) the tests skip with the reason, unless
 * `TMA_REQUIRE_TMUX=1` or `CI` make it a failure (`.ci/run` installs
 * openssh-server).
 *
 * ```ts
 * import { SshFleet } from "./sshd.ts";
 * declare const remote: import("./tmux.ts").ScratchTmux;
 * const fleet = await SshFleet.create();
 * try {
 *   await fleet.addHost("alpha", remote);
 *   fleet.hostToml({ connectSecs: 2, timeoutSecs: 6 }); // the [[host]] entries
 * } finally {
 *   await fleet.close();
 * }
 * ```
 * @module
 */
import { RUN_PERMISSIONS } from "../../src/core/permissions.ts";
import { denoDir, HAS_TMUX, type ScratchTmux } from "./tmux.ts";

const SSHD = "/usr/sbin/sshd";

function runs(program: string, args: string[]): boolean {
  try {
    new Deno.Command(program, { args, stdout: "null", stderr: "null" }).outputSync();
    return true;
  } catch {
    return false;
  }
}

/** Why the fleet tests cannot run here, or null when they can. */
export const SSHD_MISSING: string | null = (() => {
  const missing = [
    ...(runs(SSHD, ["-V"]) ? [] : [SSHD]),
    ...(runs("ssh", ["-V"]) ? [] : ["ssh"]),
    ...(runs("ssh-keygen", ["-?"]) ? [] : ["ssh-keygen"]),
  ];
  return missing.length === 0 ? null : `${missing.join(", ")} missing (apt install openssh-server)`;
})();

/** Whether the fleet tests are skipped (and why, on stderr once). */
export const SKIP_SSH: boolean = (() => {
  if (SSHD_MISSING === null) return !HAS_TMUX;
  if (Deno.env.get("TMA_REQUIRE_TMUX") === "1" || Deno.env.get("CI")) {
    throw new Error(`the fleet tests need sshd: ${SSHD_MISSING}`);
  }
  console.error(`skipping the fleet tests: ${SSHD_MISSING}`);
  return true;
})();

/** A free loopback port (closed again, for sshd to bind). */
function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  return port;
}

async function run(program: string, args: string[]): Promise<string> {
  const out = await new Deno.Command(program, { args, stdin: "null" }).output();
  if (!out.success) {
    throw new Error(`${program} ${args.join(" ")}: ${new TextDecoder().decode(out.stderr)}`);
  }
  return new TextDecoder().decode(out.stdout);
}

/** One sshd host. */
export interface SshHost {
  name: string;
  port: number;
  /** The host's own folder: its sshd config, its `bin/tma` launcher. */
  dir: string;
  /** The scratch tmux server its tma talks to. */
  tmux: ScratchTmux;
  /** Stops its sshd (the host becomes "connection refused"). */
  stop(): Promise<void>;
  /** sshd's log so far (`-e`). */
  log(): string;
}

/** A listener that stands in for a broken host. */
interface FakeHost {
  name: string;
  port: number;
  close(): void;
}

/** Options of a host's remote tma. */
export interface HostOptions {
  /** Extra environment of the remote tma (`TMA_TMUX_BIN`, say). */
  env?: Record<string, string>;
  /** A launcher body of its own instead of the tma one (a host that prints garbage). */
  script?: string;
}

/** sshd hosts, fake hosts and the client config that names them all. */
export class SshFleet {
  readonly dir: string;
  readonly sshConfig: string;
  readonly #user: string;
  readonly #hosts = new Map<string, SshHost>();
  readonly #fakes: FakeHost[] = [];
  readonly #stops: (() => Promise<void>)[] = [];
  #clientEntries: string[] = [];
  #knownHosts: string[] = [];

  private constructor(dir: string, user: string) {
    this.dir = dir;
    this.sshConfig = `${dir}/ssh_config`;
    this.#user = user;
  }

  /** A scratch folder with a host key, a client key and an empty client config. */
  static async create(): Promise<SshFleet> {
    const dir = await Deno.makeTempDir({ prefix: "tma-ssh-" });
    await run("ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-f", `${dir}/host_key`]);
    await run("ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-f", `${dir}/id`]);
    await Deno.copyFile(`${dir}/id.pub`, `${dir}/authorized_keys`);
    const user = (await run("id", ["-un"])).trim();
    if ((await run("id", ["-u"])).trim() === "0") {
      // sshd run by root needs its privilege-separation folder (Debian makes it at boot).
      await Deno.mkdir("/run/sshd", { recursive: true, mode: 0o755 });
    }
    const fleet = new SshFleet(dir, user);
    await fleet.#writeClientConfig();
    return fleet;
  }

  /** The host of this name. */
  host(name: string): SshHost {
    const host = this.#hosts.get(name);
    if (!host) throw new Error(`no host ${name}`);
    return host;
  }

  async #writeClientConfig(): Promise<void> {
    await Deno.writeTextFile(`${this.dir}/known_hosts`, this.#knownHosts.join(""));
    await Deno.writeTextFile(this.sshConfig, this.#clientEntries.join(""));
  }

  #addClientEntry(name: string, port: number): void {
    this.#clientEntries.push(
      [
        `Host ${name}`,
        "  HostName 127.0.0.1",
        `  Port ${port}`,
        `  User ${this.#user}`,
        `  IdentityFile ${this.dir}/id`,
        "  IdentitiesOnly yes",
        "  IdentityAgent none",
        `  UserKnownHostsFile ${this.dir}/known_hosts`,
        "  GlobalKnownHostsFile /dev/null",
        "  StrictHostKeyChecking yes",
        "  PasswordAuthentication no",
        "  KbdInteractiveAuthentication no",
        "",
      ].join("\n"),
    );
  }

  /**
   * Starts an sshd host whose `tma` runs this checkout against `tmux` (a
   * scratch server with its own HOME), and names it in the client config.
   */
  async addHost(name: string, tmux: ScratchTmux, options: HostOptions = {}): Promise<SshHost> {
    const dir = `${this.dir}/${name}`;
    await Deno.mkdir(`${dir}/bin`, { recursive: true });
    const mod = new URL("../../mod.ts", import.meta.url).pathname;
    // The server by TMA_SOCKET_PATH, as a user's default would be: a jump's remote
    // `tma --socket-path <server> clear-attention` may name it too.
    const socketPath = (await tmux.tmux("display-message", "-p", "#{socket_path}")).trim();
    const env: Record<string, string> = {
      TMA_SOCKET_PATH: socketPath,
      HOME: tmux.home,
      XDG_CONFIG_HOME: `${tmux.home}/.config`,
      XDG_STATE_HOME: `${tmux.home}/.local/state`,
      XDG_RUNTIME_DIR: `${dir}/run`,
      TMA_CONFIG: `${tmux.home}/.config/tma/config.toml`,
      DENO_DIR: denoDir(),
      TERM: "xterm-256color",
      ...options.env,
    };
    await Deno.mkdir(`${dir}/run`, { recursive: true, mode: 0o700 });
    const exports = Object.entries(env).map(([k, v]) => `${k}='${v}'; export ${k}`).join("\n");
    const launcher = options.script ?? [
      "#!/bin/sh",
      "# This host's tma: this checkout, against this host's scratch tmux server.",
      exports,
      `exec '${Deno.execPath()}' run --quiet ${RUN_PERMISSIONS.join(" ")} '${mod}' "$@"`,
      "",
    ].join("\n");
    await Deno.writeTextFile(`${dir}/bin/tma`, launcher, { mode: 0o755 });
    const port = freePort();
    const config = [
      `Port ${port}`,
      "ListenAddress 127.0.0.1",
      `HostKey ${this.dir}/host_key`,
      `AuthorizedKeysFile ${this.dir}/authorized_keys`,
      "StrictModes no",
      "UsePAM no",
      "PidFile none",
      "PermitRootLogin prohibit-password",
      "PasswordAuthentication no",
      "KbdInteractiveAuthentication no",
      "MaxStartups 100",
      "LogLevel INFO",
      `SetEnv PATH=${dir}/bin:/usr/local/bin:/usr/bin:/bin HOME=${tmux.home}`,
      "",
    ].join("\n");
    await Deno.writeTextFile(`${dir}/sshd_config`, config);
    const child = new Deno.Command(SSHD, {
      args: ["-D", "-e", "-f", `${dir}/sshd_config`],
      stdin: "null",
      stdout: "null",
      stderr: "piped",
    }).spawn();
    let log = "";
    let resolveReady: () => void = () => {};
    const ready = new Promise<void>((resolve) => (resolveReady = resolve));
    const reading = (async () => {
      const decoder = new TextDecoder();
      for await (const chunk of child.stderr) {
        log += decoder.decode(chunk, { stream: true });
        if (log.includes("Server listening")) resolveReady();
      }
      resolveReady();
    })();
    let stopped = false;
    const stop = async () => {
      if (stopped) return;
      stopped = true;
      try {
        child.kill("SIGTERM");
      } catch {
        // Already gone.
      }
      await child.status;
      await reading.catch(() => undefined);
    };
    this.#stops.push(stop);
    await ready;
    if (!log.includes("Server listening")) {
      await stop();
      throw new Error(`sshd for ${name} did not start: ${log}`);
    }
    const key = (await Deno.readTextFile(`${this.dir}/host_key.pub`)).trim();
    this.#knownHosts.push(`[127.0.0.1]:${port} ${key}\n`);
    this.#addClientEntry(name, port);
    await this.#writeClientConfig();
    const host: SshHost = { name, port, dir, tmux, stop, log: () => log };
    this.#hosts.set(name, host);
    return host;
  }

  /** A host that accepts the connection, reads, and never says a word. */
  silentHost(name: string): void {
    this.#fake(name, async (conn) => {
      const buffer = new Uint8Array(4096);
      while ((await conn.read(buffer)) !== null) {
        // Read and say nothing.
      }
    });
  }

  /** A host that answers the connection with bytes no ssh server sends. */
  garbageHost(name: string): void {
    this.#fake(name, async (conn) => {
      const junk = new Uint8Array(256).map((_, i) => (i * 37 + 11) % 256);
      await conn.write(junk);
      const buffer = new Uint8Array(4096);
      while ((await conn.read(buffer)) !== null) {
        // Keep the line open.
      }
    });
  }

  #fake(name: string, serve: (conn: Deno.Conn) => Promise<void>): void {
    const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
    const port = (listener.addr as Deno.NetAddr).port;
    const conns = new Set<Deno.Conn>();
    (async () => {
      try {
        for await (const conn of listener) {
          conns.add(conn);
          serve(conn).catch(() => undefined).finally(() => {
            conns.delete(conn);
            try {
              conn.close();
            } catch {
              // Closed by the peer.
            }
          });
        }
      } catch {
        // The listener closed.
      }
    })();
    const key = Deno.readTextFileSync(`${this.dir}/host_key.pub`).trim();
    this.#knownHosts.push(`[127.0.0.1]:${port} ${key}\n`);
    this.#addClientEntry(name, port);
    Deno.writeTextFileSync(`${this.dir}/known_hosts`, this.#knownHosts.join(""));
    Deno.writeTextFileSync(this.sshConfig, this.#clientEntries.join(""));
    this.#fakes.push({
      name,
      port,
      close: () => {
        try {
          listener.close();
        } catch {
          // Already closed.
        }
        for (const conn of conns) {
          try {
            conn.close();
          } catch {
            // Already closed.
          }
        }
      },
    });
  }

  /**
   * The `[[host]]` entries of config.toml for `names` (default every host,
   * fake ones included), each reached through this fleet's client config.
   */
  hostToml(
    options: { connectSecs: number; timeoutSecs: number; names?: readonly string[] },
  ): string {
    const names = options.names ??
      [...this.#hosts.keys(), ...this.#fakes.map((f) => f.name)];
    return names.map((name) =>
      [
        "[[host]]",
        `name = "${name}"`,
        `command = ["ssh", "-F", "${this.sshConfig}", "${name}"]`,
        `connect_timeout_secs = ${options.connectSecs}`,
        `timeout_secs = ${options.timeoutSecs}`,
        "",
      ].join("\n")
    ).join("\n");
  }

  /** The ssh client processes running over this fleet's config now (a leak count). */
  async sshProcesses(): Promise<string[]> {
    const out = await run("ps", ["-eo", "pid=,args="]);
    return out.split("\n").filter((line) =>
      /^\s*\d+\s+(\S*\/)?ssh\s/.test(line) && line.includes(this.sshConfig)
    );
  }

  /** Stops every sshd and listener and removes the scratch folder. */
  async close(): Promise<void> {
    for (const fake of this.#fakes) fake.close();
    for (const stop of this.#stops) await stop().catch(() => undefined);
    await Deno.remove(this.dir, { recursive: true }).catch(() => undefined);
  }
}

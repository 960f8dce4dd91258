/**
 * The hosts of a fleet view (X9): the `[[host]]` entries of config as
 * specs, and which of them `--host NAME` (repeatable) or `--all-hosts`
 * selects. Pure: no process is started here.
 *
 * ```ts
 * import { defaultConfig } from "../config/schema.ts";
 * const config = { ...defaultConfig(), host: [{ name: "build", tma: "tma", connect_timeout_secs: 5, timeout_secs: 10 }] };
 * selectHosts(config, { names: ["build"], all: false }).map((h) => h.command); // [["ssh", "build"]]
 * ```
 * @module
 */
import type { Config } from "../config/schema.ts";
import { UsageError } from "../errors.ts";
import { viewportHash } from "../hash.ts";

/** One host, as a fetch, an act or a jump reaches it. */
export interface HostSpec {
  /** The name `--host`, `act --host` and the rows' `host` key use. */
  name: string;
  /** The argv that reaches the host; the remote command line is appended. */
  command: string[];
  /** The remote tma program, as the host's shell reads it (`tma`, `~/.deno/bin/tma`). */
  tma: string;
  /** The connection's deadline (ssh's `ConnectTimeout`). */
  connectMs: number;
  /** A whole fetch's deadline. */
  timeoutMs: number;
}

/** Which hosts the flags name. */
export interface HostChoice {
  /** `--host NAME`, in the order given. */
  names: readonly string[];
  /** `--all-hosts`. */
  all: boolean;
}

/** Every `[[host]]` entry of the config, in config order. */
export function hostSpecs(config: Pick<Config, "host">): HostSpec[] {
  return config.host.map((host) => ({
    name: host.name,
    command: host.command ? [...host.command] : ["ssh", host.name],
    tma: host.tma,
    connectMs: Math.round(host.connect_timeout_secs * 1000),
    timeoutMs: Math.round(host.timeout_secs * 1000),
  }));
}

/** Whether the flags ask for a fleet view at all. */
export function wantsFleet(choice: HostChoice): boolean {
  return choice.all || choice.names.length > 0;
}

/**
 * The hosts the flags select: every `[[host]]` for `--all-hosts`, else the
 * named ones in the order given (each once). A name with no `[[host]]`
 * entry, or `--all-hosts` with none configured, is a usage error that says
 * where hosts are declared.
 */
export function selectHosts(config: Pick<Config, "host">, choice: HostChoice): HostSpec[] {
  const specs = hostSpecs(config);
  if (choice.all && choice.names.length > 0) {
    throw new UsageError("--all-hosts already names every host: drop --host, or --all-hosts");
  }
  if (choice.all) {
    if (specs.length === 0) {
      throw new UsageError(
        '--all-hosts: no [[host]] entries in config.toml (add one: [[host]] name = "build")',
      );
    }
    return specs;
  }
  const chosen: HostSpec[] = [];
  for (const name of choice.names) {
    const spec = specs.find((s) => s.name === name);
    if (!spec) {
      const known = specs.map((s) => s.name).join(", ");
      throw new UsageError(
        `--host ${name}: no [[host]] entry named "${name}" in config.toml (${
          known ? `declared: ${known}` : "none is declared"
        })`,
      );
    }
    if (!chosen.includes(spec)) chosen.push(spec);
  }
  return chosen;
}

/** The one host `act --host` and `jump --host` name, or a usage error. */
export function oneHost(config: Pick<Config, "host">, name: string): HostSpec {
  return selectHosts(config, { names: [name], all: false })[0];
}

/**
 * A short key of what reaches a host (its name, argv and remote program),
 * so a cached reading taken over another command is not reused.
 */
export function hostKey(spec: HostSpec): string {
  return viewportHash(JSON.stringify([spec.name, spec.command, spec.tma]));
}

/**
 * Installs the pinned real agents of the end-to-end suite into `.cache/e2e-agents/<agent>`.
 *
 * Run it as `deno task e2e:install [agent…]` (no names = all five). Each agent gets its own npm
 * `--prefix`, never a global install. npm runs package postinstall scripts with whatever HOME and
 * temporary folder it is given, and some of them write there (opencode-ai creates
 * `~/.config/opencode` and `<tmp>/opencode`), so every install runs with a throwaway HOME and
 * TMPDIR and a scrubbed environment. An agent whose pinned version is already in place is
 * skipped. Exits 1 if any install or version check fails.
 *
 * @module
 */

import {
  AGENT_NAMES,
  AGENT_PINS,
  agentBin,
  type AgentName,
  agentPrefix,
  AGENTS_ROOT,
  isAgentName,
} from "../tests/e2e/pins.ts";

/** How long one `npm install` may take before it is abandoned. */
const INSTALL_TIMEOUT_MS = 15 * 60_000;

/** The version recorded in an installed package's package.json, or undefined. */
async function installedVersion(agent: AgentName): Promise<string | undefined> {
  const pin = AGENT_PINS[agent];
  const file = `${agentPrefix(agent)}/node_modules/${pin.pkg}/package.json`;
  try {
    const parsed: unknown = JSON.parse(await Deno.readTextFile(file));
    if (parsed && typeof parsed === "object" && "version" in parsed) {
      return String(parsed.version);
    }
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
  return undefined;
}

/**
 * Variables passed through to npm: how this machine reaches the registry (its CA bundle and any
 * proxy). Everything else, HOME and XDG above all, is replaced.
 */
const PASS_THROUGH =
  /^(NODE_EXTRA_CA_CERTS|SSL_CERT_FILE|SSL_CERT_DIR|https?_proxy|HTTPS?_PROXY|no_proxy|NO_PROXY)$/;

/** A minimal environment for npm and the agents: no inherited HOME, XDG or npm state. */
export function scrubbedEnv(scratch: string): Record<string, string> {
  const env: Record<string, string> = {
    PATH: Deno.env.get("PATH") ?? "/usr/local/bin:/usr/bin:/bin",
    HOME: `${scratch}/home`,
    TMPDIR: `${scratch}/tmp`,
    LANG: "C.UTF-8",
    npm_config_cache: `${AGENTS_ROOT}/.npm-cache`,
    npm_config_update_notifier: "false",
    npm_config_fund: "false",
    npm_config_audit: "false",
    DISABLE_AUTOUPDATER: "1",
  };
  for (const [name, value] of Object.entries(Deno.env.toObject())) {
    if (PASS_THROUGH.test(name)) env[name] = value;
  }
  // The user's npmrc says how to reach the registry (CA file, registry URL); with HOME replaced
  // npm would no longer find it, so name it explicitly. npm only reads it.
  const realHome = Deno.env.get("HOME");
  if (realHome) {
    try {
      if (Deno.statSync(`${realHome}/.npmrc`).isFile) {
        env.npm_config_userconfig = `${realHome}/.npmrc`;
      }
    } catch {
      // no user npmrc: the global one and the defaults apply
    }
  }
  return env;
}

/** Runs a command with a time limit and returns its exit code and combined output. */
async function run(
  cmd: string[],
  options: { env: Record<string, string>; cwd?: string; timeoutMs: number },
): Promise<{ code: number; output: string }> {
  const child = new Deno.Command(cmd[0], {
    args: cmd.slice(1),
    env: options.env,
    clearEnv: true,
    cwd: options.cwd,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
    // Its own process group: the deadline kills npm and every script it ran.
    detached: true,
  }).spawn();
  const timer = setTimeout(() => {
    for (const pid of [-child.pid, child.pid]) {
      try {
        Deno.kill(pid, "SIGKILL");
      } catch {
        // Already gone.
      }
    }
  }, options.timeoutMs);
  const result = await child.output().finally(() => clearTimeout(timer));
  const decoder = new TextDecoder();
  const output = decoder.decode(result.stdout) + decoder.decode(result.stderr);
  return { code: result.code, output };
}

/** Installs one agent; returns a line describing the outcome, or throws with the npm output. */
async function installAgent(agent: AgentName): Promise<string> {
  const pin = AGENT_PINS[agent];
  const before = await installedVersion(agent);
  if (before === pin.version) return `${agent}: ${pin.pkg}@${pin.version} already installed`;

  const scratch = await Deno.makeTempDir({ prefix: `tma-e2e-install-${agent}-` });
  try {
    await Deno.mkdir(`${scratch}/home`, { recursive: true });
    await Deno.mkdir(`${scratch}/tmp`, { recursive: true });
    const prefix = agentPrefix(agent);
    await Deno.mkdir(prefix, { recursive: true });
    const env = scrubbedEnv(scratch);
    const started = Date.now();
    const npm = await run(
      ["npm", "install", "--prefix", prefix, "--save-exact", `${pin.pkg}@${pin.version}`],
      { env, cwd: prefix, timeoutMs: INSTALL_TIMEOUT_MS },
    );
    if (npm.code !== 0) {
      throw new Error(`npm install of ${pin.pkg}@${pin.version} failed:\n${npm.output}`);
    }
    const after = await installedVersion(agent);
    if (after !== pin.version) {
      throw new Error(
        `${prefix}/node_modules/${pin.pkg}/package.json reports ${after}, expected ${pin.version}`,
      );
    }
    // The binary must start; `--version` reads no model and the updater is off in `env`.
    const version = await run([agentBin(agent), "--version"], { env, timeoutMs: 60_000 });
    if (version.code !== 0 || !version.output.includes(pin.version)) {
      throw new Error(
        `${agentBin(agent)} --version did not report ${pin.version}:\n${version.output}`,
      );
    }
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    const from = before ? ` (replacing ${before})` : "";
    return `${agent}: installed ${pin.pkg}@${pin.version}${from} in ${seconds}s; --version: ${
      version.output.trim().split("\n").at(-1)
    }`;
  } finally {
    await Deno.remove(scratch, { recursive: true });
  }
}

/** Installs the agents named on the command line (all of them when none is named). */
async function main(args: string[]): Promise<number> {
  const unknown = args.filter((name) => !isAgentName(name));
  if (unknown.length > 0) {
    console.error(`unknown agent(s): ${unknown.join(", ")}; expected ${AGENT_NAMES.join(", ")}`);
    return 2;
  }
  const agents = args.length > 0 ? args.filter(isAgentName) : [...AGENT_NAMES];
  let failed = 0;
  for (const agent of agents) {
    try {
      console.log(await installAgent(agent));
    } catch (error) {
      failed += 1;
      console.error(`${agent}: FAILED: ${error instanceof Error ? error.message : error}`);
    }
  }
  console.log(`e2e agents in ${AGENTS_ROOT}: ${agents.length - failed} ok, ${failed} failed`);
  return failed === 0 ? 0 : 1;
}

if (import.meta.main) Deno.exit(await main(Deno.args));

/**
 * Launchers for the real agents of the end-to-end suite: for each agent, a scratch HOME with the
 * settings it needs to run offline against the mock model (every auto-updater off), a git project
 * folder, the pane environment and the command line, the first-run dialogs to get past, and the
 * screen text that marks its idle, blocked and interrupted states.
 *
 * Facts come from real-agents.md (the versions pinned in `pins.ts`). The settings files are
 * written here, by us; nothing is copied from the probe's kit.
 *
 * ```ts
 * import { AGENTS } from "./agents.ts";
 * import { AgentPane } from "./pane.ts";
 * const run = await AGENTS.pi.prepare({ root: "/tmp/x", mockUrl: mock.url, tag: "w100" });
 * const pane = await AgentPane.launch(run, { tmux, width: 100, height: 40 });
 * await pane.passFirstRun(AGENTS.pi);
 * await pane.sendPrompt("hello", { mock });
 * ```
 * @module
 */

import { AGENT_PINS, type AgentName, agentPrefix } from "./pins.ts";
import { shellQuote } from "./tmux.ts";

/** A prepared agent: where it lives and how to start it. */
export interface AgentRun {
  /** Which agent. */
  agent: AgentName;
  /** The scratch folder of this run (HOME, TMPDIR and the project are inside it). */
  dir: string;
  /** The scratch HOME. */
  home: string;
  /** The git project the agent is started in. */
  project: string;
  /** Variables for the pane (on top of the tmux server's scrubbed environment). */
  env: Record<string, string>;
  /** The command line typed into the pane's shell. */
  argv: string[];
  /** The pane's shell: bash with our own rc file (a fixed `$ ` prompt, nothing else). */
  shell: string[];
}

/** A screen that may appear before the main screen, and the keys that get past it. */
export interface Dialog {
  /** A short name, used in fixture variants (`trust`, `api_key`, `hooks`). */
  name: string;
  /** Text that identifies the dialog on the plain screen. */
  match: RegExp;
  /** The keys to send, one `send-keys` call each, with a short pause between. */
  keys: string[];
  /** Text that shows the dialog was answered, when its own text stays on screen. */
  answered?: RegExp;
}

/** Options of {@link AgentDriver.prepare}. */
export interface PrepareOptions {
  /** The scratch root of the whole run; the agent gets `<root>/<agent>-<tag>`. */
  root: string;
  /** The mock model's root URL, `http://127.0.0.1:<port>`. */
  mockUrl: string;
  /** Distinguishes several runs of one agent (for example the width, `w100`). */
  tag: string;
}

/** Everything the suite knows about driving one agent. */
export interface AgentDriver {
  /** Which agent. */
  agent: AgentName;
  /** Writes the scratch HOME and project; returns how to start the agent. */
  prepare(options: PrepareOptions): Promise<AgentRun>;
  /** First-run dialogs, answered in whatever order they appear. */
  dialogs: Dialog[];
  /** Text on the main screen once the agent takes prompts. */
  ready: RegExp;
  /** Text of the permission prompt raised by `probe-tool`. */
  blocked: RegExp;
  /** Keys that approve that prompt once (the bundled approve sequence where there is one). */
  approve: string[];
  /** Keys that interrupt a running turn. */
  interrupt: string[];
  /** Text shown once an interrupt has landed, if the agent prints any. */
  interrupted?: RegExp;
  /** Text that shows a turn is running (the working chrome). */
  working: RegExp;
}

/** The project folder name: neutral, so titles that show it never name an agent. */
export const PROJECT_NAME = "tma-demo";

/** A fake API key: the mock ignores credentials, the agents only need one to be set. */
export const FAKE_KEY = "sk-ant-api03-mock-e2e-key-000000000000000000000000";

async function write(path: string, text: string): Promise<void> {
  await Deno.mkdir(path.slice(0, path.lastIndexOf("/")), { recursive: true });
  await Deno.writeTextFile(path, text);
}

async function git(project: string, ...args: string[]): Promise<void> {
  const out = await new Deno.Command("git", {
    args,
    cwd: project,
    env: {
      GIT_CONFIG_GLOBAL: "/dev/null",
      GIT_CONFIG_NOSYSTEM: "1",
      GIT_AUTHOR_NAME: "tma e2e",
      GIT_AUTHOR_EMAIL: "e2e@example.invalid",
      GIT_COMMITTER_NAME: "tma e2e",
      GIT_COMMITTER_EMAIL: "e2e@example.invalid",
      PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
    },
    clearEnv: true,
    stdout: "null",
    stderr: "piped",
  }).output();
  if (!out.success) {
    throw new Error(`git ${args.join(" ")} in ${project}: ${new TextDecoder().decode(out.stderr)}`);
  }
}

/** Creates the scratch folders and a one-commit git project shared by every agent. */
async function scaffold(agent: AgentName, options: PrepareOptions) {
  const dir = `${options.root}/${agent}-${options.tag}`;
  const home = `${dir}/home`;
  const tmp = `${dir}/tmp`;
  const project = `${dir}/${PROJECT_NAME}`;
  for (const folder of [home, tmp, project]) await Deno.mkdir(folder, { recursive: true });
  await write(`${project}/README.md`, "# tma-demo\n\nA scratch project for the tma e2e suite.\n");
  await git(project, "init", "-q", "-b", "main");
  await git(project, "add", "README.md");
  await git(project, "commit", "-q", "-m", "init");
  const env: Record<string, string> = {
    HOME: home,
    TMPDIR: tmp,
    PATH: `${agentPrefix(agent)}/node_modules/.bin:${Deno.env.get("PATH") ?? "/usr/bin:/bin"}`,
  };
  // bash ignores PS1 from the environment here, and tmux gives a new session the PATH of the
  // client that created it, so the prompt and PATH are set in an rc file of our own.
  const rc = `${dir}/shellrc`;
  await write(rc, `PS1='$ '\nunset PROMPT_COMMAND\nexport PATH=${shellQuote(env.PATH)}\n`);
  const shell = ["bash", "--noprofile", "--rcfile", rc, "-i"];
  return { dir, home, tmp, project, env, shell };
}

function json(value: unknown): string {
  return JSON.stringify(value, null, 2) + "\n";
}

/** Claude Code: Anthropic Messages through ANTHROPIC_BASE_URL. */
const claude: AgentDriver = {
  agent: "claude",
  async prepare(options) {
    const s = await scaffold("claude", options);
    // Without this the onboarding connectivity check fails offline and the CLI exits.
    await write(`${s.home}/.claude.json`, json({ hasCompletedOnboarding: true }));
    // From 2.1.3xx "auto mode" is the default and runs the probe command without asking;
    // the suite needs the permission prompt, so pin the classic mode.
    await write(
      `${s.home}/.claude/settings.json`,
      json({ permissions: { defaultMode: "default" } }),
    );
    return {
      agent: "claude",
      dir: s.dir,
      home: s.home,
      project: s.project,
      env: {
        ...s.env,
        ANTHROPIC_BASE_URL: options.mockUrl,
        ANTHROPIC_API_KEY: FAKE_KEY,
        // The updater once ran `npm install -g` on the real machine: it must never run.
        DISABLE_AUTOUPDATER: "1",
        DISABLE_TELEMETRY: "1",
        DISABLE_ERROR_REPORTING: "1",
      },
      shell: s.shell,
      argv: [AGENT_PINS.claude.bin],
    };
  },
  dialogs: [
    // Its default is "No": Up selects "Yes".
    { name: "api_key", match: /Detected a custom API key/, keys: ["Up", "Enter"] },
    // From 2.1.2xx the list has no numbers and the cursor starts on "No, exit".
    { name: "trust", match: /Yes, I trust this folder/, keys: ["Down", "Enter"] },
    // Shown when the settings pin the classic mode; the cursor starts on "Yes".
    { name: "auto_mode", match: /No, keep manual mode/, keys: ["Down", "Enter"] },
  ],
  // With tma's statusline shim installed the footer shows only the mode ("⏸ manual mode on").
  ready: /\? for shortcuts|⏵⏵|Try "|⏸ manual mode on/,
  blocked: /Do you want to proceed\?/,
  approve: ["1"],
  interrupt: ["Escape"],
  interrupted: /Interrupted/,
  working: /esc to interrupt/,
};

/** Codex: OpenAI Responses through a custom provider in config.toml. */
const codex: AgentDriver = {
  agent: "codex",
  async prepare(options) {
    const s = await scaffold("codex", options);
    const codexHome = `${s.home}/.codex`;
    const config = [
      `model = "mock-model"`,
      `model_provider = "mock"`,
      `check_for_update_on_startup = false`,
      ``,
      `[model_providers.mock]`,
      `name = "Mock"`,
      `base_url = ${JSON.stringify(`${options.mockUrl}/v1`)}`,
      `env_key = "MOCK_API_KEY"`,
      `wire_api = "responses"`,
      ``,
      `[tui]`,
      `screen_reader_detection_done = true`,
      ``,
      `[analytics]`,
      `enabled = false`,
      ``,
    ].join("\n");
    await write(`${codexHome}/config.toml`, config);
    return {
      agent: "codex",
      dir: s.dir,
      home: s.home,
      project: s.project,
      env: { ...s.env, CODEX_HOME: codexHome, MOCK_API_KEY: "sk-mock-e2e" },
      // The default app-server daemon outlives the TUI and tmux (setsid): run without it.
      shell: s.shell,
      argv: [AGENT_PINS.codex.bin, "--no-daemon"],
    };
  },
  dialogs: [
    { name: "trust", match: /Trust and continue|trust this folder/i, keys: ["Enter"] },
    { name: "hooks", match: /Hooks need review/, keys: ["2", "Enter"] },
  ],
  ready: /›|context left|Ask Codex/,
  blocked: /Would you like to run the following command\?/,
  approve: ["y"],
  interrupt: ["Escape"],
  interrupted: /Conversation interrupted|interrupted/i,
  working: /esc to interrupt|Working/,
};

/** Gemini CLI: generateContent through GOOGLE_GEMINI_BASE_URL. */
const gemini: AgentDriver = {
  agent: "gemini",
  async prepare(options) {
    const s = await scaffold("gemini", options);
    await write(
      `${s.home}/.gemini/settings.json`,
      json({
        general: { enableAutoUpdate: false, enableAutoUpdateNotification: false },
        privacy: { usageStatisticsEnabled: false },
        security: { auth: { selectedType: "gemini-api-key" } },
        telemetry: { enabled: false },
      }),
    );
    return {
      agent: "gemini",
      dir: s.dir,
      home: s.home,
      project: s.project,
      env: {
        ...s.env,
        GEMINI_API_KEY: "mock-e2e-key",
        GOOGLE_GEMINI_BASE_URL: options.mockUrl,
      },
      shell: s.shell,
      argv: [AGENT_PINS.gemini.bin],
    };
  },
  dialogs: [
    // Gemini restarts itself after this one (a new pid).
    {
      name: "trust",
      match: /Do you trust the files in this folder/,
      keys: ["Enter"],
      answered: /restarting to apply the trust changes/,
    },
  ],
  ready: /Type your message|YOLO|no sandbox/,
  blocked: /Allow execution/,
  approve: ["Enter"],
  interrupt: ["Escape"],
  interrupted: /Request cancelled/,
  working: /esc to cancel/,
};

/** OpenCode: Chat Completions through an openai-compatible provider. */
const opencode: AgentDriver = {
  agent: "opencode",
  async prepare(options) {
    const s = await scaffold("opencode", options);
    await write(
      `${s.home}/.config/opencode/opencode.json`,
      json({
        $schema: "https://opencode.ai/config.json",
        autoupdate: false,
        share: "disabled",
        model: "mock/mock-model",
        provider: {
          mock: {
            npm: "@ai-sdk/openai-compatible",
            name: "Mock",
            options: { baseURL: `${options.mockUrl}/v1`, apiKey: "sk-mock-e2e" },
            models: { "mock-model": { name: "Mock Model", tool_call: true } },
          },
        },
        // The build agent runs bash without asking by default; the suite needs the prompt.
        permission: { bash: "ask" },
      }),
    );
    const npmrc = npmrcForAgents();
    if (npmrc) await write(`${s.home}/.npmrc`, npmrc);
    return {
      agent: "opencode",
      dir: s.dir,
      home: s.home,
      project: s.project,
      env: {
        ...s.env,
        OPENCODE_DISABLE_AUTOUPDATE: "1",
        OPENCODE_DISABLE_MODELS_FETCH: "1",
        OPENCODE_DISABLE_LSP_DOWNLOAD: "1",
        OPENCODE_DISABLE_SHARE: "1",
      },
      shell: s.shell,
      argv: [AGENT_PINS.opencode.bin],
    };
  },
  dialogs: [],
  ready: /ctrl\+p commands|Ask anything/,
  blocked: /Permission required/,
  approve: ["Enter"],
  interrupt: ["Escape"],
  working: /esc interrupt/,
};

/**
 * Our confirm gate for pi, which has no permission prompt of its own: it asks before every bash
 * tool call, so pi gets a real waiting-for-the-user state the suite can capture.
 */
const PI_CONFIRM_EXTENSION =
  `// tma e2e: ask before each bash tool call (pi has no built-in permission prompt).
export default function confirmBash(pi: any) {
  pi.on("tool_call", async (event: any, ctx: any) => {
    if (event.toolName !== "bash") return undefined;
    const command = String(event.input?.command ?? "");
    const allowed = await ctx.ui.confirm("Run this bash command?", command);
    return allowed ? undefined : { block: true, reason: "Refused at the tma e2e confirm gate" };
  });
}
`;

/** pi: Chat Completions through models.json. */
const pi: AgentDriver = {
  agent: "pi",
  async prepare(options) {
    const s = await scaffold("pi", options);
    const agentDir = `${s.home}/.pi/agent`;
    await write(
      `${agentDir}/models.json`,
      json({
        providers: {
          mock: {
            baseUrl: `${options.mockUrl}/v1`,
            api: "openai-completions",
            apiKey: "sk-mock-e2e",
            compat: { supportsDeveloperRole: false, supportsReasoningEffort: false },
            models: [{ id: "mock-model", name: "Mock Model", reasoning: false }],
          },
        },
      }),
    );
    await write(`${agentDir}/extensions/tma_e2e_confirm.ts`, PI_CONFIRM_EXTENSION);
    return {
      agent: "pi",
      dir: s.dir,
      home: s.home,
      project: s.project,
      // Offline: no fd/ripgrep download at start.
      env: { ...s.env, PI_OFFLINE: "1" },
      shell: s.shell,
      argv: [AGENT_PINS.pi.bin, "--offline", "--provider", "mock", "--model", "mock-model"],
    };
  },
  dialogs: [],
  // The footer's context gauge (`0.0%/128k`) or the key help; never in the typed command line.
  ready: /\d+(\.\d+)?%\/\d+k|ctrl\+c\/ctrl\+d clear\/exit/,
  blocked: /Run this bash command\?/,
  approve: ["Enter"],
  interrupt: ["Escape"],
  interrupted: /Operation aborted/,
  working: /Working\.\.\./,
};

/** Every agent's driver. */
export const AGENTS: Readonly<Record<AgentName, AgentDriver>> = {
  claude,
  codex,
  gemini,
  opencode,
  pi,
};

/**
 * An npmrc for agents that install packages at run time (OpenCode fetches its plugin SDK and
 * provider package on first start): only how to reach the registry, taken from this machine's
 * CA setting. Undefined when nothing special is needed.
 */
export function npmrcForAgents(): string | undefined {
  const ca = Deno.env.get("NODE_EXTRA_CA_CERTS");
  return ca ? `cafile=${ca}\n` : undefined;
}

/** The environment of the scratch tmux server: only what every pane may inherit. */
export function serverEnv(root: string): Record<string, string> {
  const env: Record<string, string> = {
    PATH: Deno.env.get("PATH") ?? "/usr/local/bin:/usr/bin:/bin",
    HOME: root,
    LANG: "C.UTF-8",
    LC_ALL: "C.UTF-8",
    TMPDIR: root,
  };
  // How this machine reaches the npm registry (OpenCode installs packages on first start).
  for (const name of ["NODE_EXTRA_CA_CERTS", "SSL_CERT_FILE", "SSL_CERT_DIR"]) {
    const value = Deno.env.get(name);
    if (value) env[name] = value;
  }
  return env;
}

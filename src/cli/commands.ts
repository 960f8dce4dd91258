/**
 * The command table: every subcommand's name, summary and flags, with its
 * implementation loaded lazily so a command imports only what it needs (the
 * hook intake above all).
 * @module
 */
import type { FlagSpec, ParsedArgs } from "./args.ts";
import type { CommandContext } from "./context.ts";
import type { TableEntry, TableView } from "./table_view.ts";

/** What a command module exports. */
export interface CommandModule {
  /** `table` is the command table as data (`help` and `completions` read it). */
  run(ctx: CommandContext, args: ParsedArgs, table?: TableView): Promise<number>;
}

/** One entry of the command table. */
export interface CommandSpec extends TableEntry {
  flags: FlagSpec[];
  /** Runs a detection cycle: main starts its snapshot before loading it (D64). */
  cycles?: boolean;
  load(): Promise<CommandModule>;
}

/** The selector flags shared by every command that lists or targets agents (C11-C16). */
export const SELECTOR_FLAGS: FlagSpec[] = [
  { name: "session", kind: "string", help: "only agents in this tmux session" },
  { name: "repo", kind: "string", help: "only agents whose cwd is in this git repo" },
  { name: "branch", kind: "string", help: "only agents on this git branch" },
  { name: "agent", kind: "string", help: "only agents with this manifest name" },
  {
    name: "state",
    kind: "string",
    help: "comma list of idle, working, blocked, unknown, done",
  },
];

/** The flags that reach other hosts (X9): `ls`, `status`, `watch`, `wait` and `subscribe`. */
export const HOST_FLAGS: FlagSpec[] = [
  {
    name: "host",
    kind: "multi",
    help: "agents of this [[host]] of config (repeatable; without this machine's)",
  },
  { name: "all-hosts", kind: "boolean", help: "this machine's agents and every [[host]]'s" },
];

/** The global flags of C2-C10, accepted before or after the subcommand. */
export const GLOBAL_FLAGS: FlagSpec[] = [
  { name: "manifest-dir", kind: "string", help: "load agent manifests only from this directory" },
  { name: "socket-name", short: "L", kind: "string", help: "tmux server socket name (-L)" },
  { name: "socket-path", short: "S", kind: "string", help: "tmux server socket path (-S)" },
  { name: "config", kind: "string", help: "config file (default ~/.config/tma/config.toml)" },
  { name: "no-config", kind: "boolean", help: "ignore every config file: built-in defaults" },
  { name: "client", short: "c", kind: "string", help: "the invoking tmux client" },
  { name: "debug-timing", kind: "boolean", help: "print cycle timing and counts to stderr" },
  { name: "help", short: "h", kind: "boolean", help: "show help" },
  { name: "version", short: "V", kind: "boolean", help: "print the version" },
];

/** The command table. */
export const COMMANDS: CommandSpec[] = [
  {
    name: "ls",
    summary: "list agent panes and their state",
    usage: "tma ls [--json] [--pane ID] [selector] [--host NAME ... | --all-hosts]",
    examples: [
      ["tma ls", "one line per agent pane"],
      ["tma ls --json --state blocked", "the blocked agents, as the JSON feed"],
      ["tma ls --all-hosts", "this machine's agents and every [[host]]'s"],
    ],
    flags: [
      { name: "json", kind: "boolean", help: "print the schema-1 JSON document" },
      { name: "pane", kind: "string", help: "only this pane" },
      ...SELECTOR_FLAGS,
      ...HOST_FLAGS,
      {
        name: "identity",
        kind: "boolean",
        help: "with --json: identity keys and pane ids, for another host's fleet view",
        hidden: true,
      },
    ],
    cycles: true,
    load: () => import("./commands/ls.ts"),
  },
  {
    name: "status",
    summary: "run a detection cycle and print counts for a status line",
    usage: "tma status [--format tmux|plain|json|prom] [selector] [--host NAME ... | --all-hosts]",
    examples: [
      ["tma status", "counts for #(tma status) in status-right"],
      ["tma status --format json --session work", "one session's counts as JSON"],
      ["tma status --all-hosts", "fleet counts from cached readings (never waits on ssh)"],
    ],
    flags: [
      {
        name: "format",
        kind: "string",
        choices: ["tmux", "plain", "json", "prom"],
        help: "output format (default tmux)",
      },
      ...SELECTOR_FLAGS,
      ...HOST_FLAGS,
    ],
    cycles: true,
    load: () => import("./commands/status.ts"),
  },
  {
    name: "wait",
    summary: "block until agents reach a state (for scripts)",
    usage:
      "tma wait (--pane ID | --agent NAME | --any | --all | --count N) --until STATES [--since MS] [--timeout SECS] [--json] [selector] [--host NAME ... | --all-hosts]",
    flags: [
      { name: "pane", kind: "string", help: "wait on this pane" },
      { name: "any", kind: "boolean", help: "the first in-scope agent to match" },
      { name: "all", kind: "boolean", help: "every in-scope agent at once (a barrier)" },
      { name: "count", kind: "string", help: "at least N in-scope agents at once" },
      {
        name: "until",
        kind: "string",
        help: "target states: comma list of idle, working, blocked, unknown, done",
      },
      { name: "since", kind: "string", help: "only an episode newer than this epoch ms counts" },
      { name: "timeout", kind: "string", help: "give up after SECS (exit 124)" },
      { name: "json", kind: "boolean", help: "print the matched row (or rows) as JSON" },
      ...SELECTOR_FLAGS,
      ...HOST_FLAGS,
    ],
    cycles: true,
    load: () => import("./commands/wait.ts"),
  },
  {
    name: "subscribe",
    summary: "stream agent state as JSON lines (for scripts)",
    usage:
      "tma subscribe --json [--interval SECS] [--changes-only] [--events] [selector] [--host NAME ... | --all-hosts]",
    flags: [
      { name: "json", kind: "boolean", help: "one JSON document per line (required)" },
      { name: "interval", kind: "string", help: "seconds between cycles (default 1, minimum 1)" },
      { name: "changes-only", kind: "boolean", help: "skip a document identical to the last" },
      { name: "events", kind: "boolean", help: "one record per state transition instead" },
      ...SELECTOR_FLAGS,
      ...HOST_FLAGS,
    ],
    cycles: true,
    load: () => import("./commands/subscribe.ts"),
  },
  {
    name: "mute",
    summary: "silence a pane's notifications (for a while, or until cleared)",
    usage: "tma mute [--pane ID | selector] [--for 90s|15m|2h|1d] [--clear]",
    flags: [
      { name: "pane", kind: "string", help: "the pane to mute (default the current pane)" },
      {
        name: "for",
        kind: "string",
        help: "how long: N with s, m, h or d (default until cleared)",
      },
      { name: "clear", kind: "boolean", help: "remove the mute" },
      ...SELECTOR_FLAGS,
    ],
    cycles: true,
    load: () => import("./commands/mute.ts"),
  },
  {
    name: "event",
    summary: "the hook bridge agents call through tma-hook (internal)",
    usage: "tma event --agent NAME --kind EVENT [--pane ID] [--payload -|PATH] | tma event --drain",
    internal: true,
    flags: [
      { name: "agent", kind: "string", help: "agent manifest name" },
      { name: "kind", kind: "string", help: "event name, or context" },
      { name: "pane", kind: "string", help: "pane to stamp (default $TMUX_PANE)" },
      { name: "payload", kind: "string", help: "- for stdin, or a file path" },
      {
        name: "print-status",
        kind: "boolean",
        help: "with --kind context: print the statusline shim's own line",
      },
      {
        name: "drain",
        kind: "boolean",
        help: "stamp the events tma-hook queued for this server, then exit (X10)",
      },
    ],
    load: () => import("./commands/event.ts"),
  },
  {
    name: "clear-attention",
    summary: "clear attention on the arrival and departed panes (tmux focus hooks)",
    usage: "tma clear-attention PANE",
    flags: [],
    hidden: true,
    load: () => import("./commands/clear_attention.ts"),
  },
  {
    name: "fleet-refresh",
    summary: "keep the fleet cache of status --all-hosts fresh (started by status, internal)",
    usage: "tma fleet-refresh",
    flags: [],
    hidden: true,
    load: () => import("./commands/fleet_refresh.ts"),
  },
  {
    name: "install-hooks",
    summary: "wire tma into an agent's own config files",
    usage: "tma install-hooks [AGENT] [--check|--uninstall|--all] [--yes]",
    examples: [
      ["tma install-hooks claude", "show the diff, ask, write"],
      ["tma install-hooks --check", "verify every agent's wiring"],
      ["tma install-hooks --all --yes", "rewire every agent already wired (after moving tma)"],
    ],
    // install/agents.ts AGENT_NAMES, restated so the table loads nothing (a test holds them equal).
    args: ["claude", "codex", "gemini", "cursor", "opencode", "pi"],
    flags: [
      { name: "check", kind: "boolean", help: "verify the wiring; exit 1 on drift" },
      { name: "uninstall", kind: "boolean", help: "remove every tma entry" },
      { name: "all", kind: "boolean", help: "act on every agent already wired" },
      { name: "yes", kind: "boolean", help: "apply without asking" },
      { name: "no-statusline", kind: "boolean", help: "opt out of the statusline context shim" },
      { name: "statusline", kind: "boolean", help: "reverse a recorded statusline opt-out" },
      {
        name: "wrapper-ref",
        kind: "string",
        choices: ["absolute", "bare"],
        help: "how agent configs name the wrapper",
      },
      { name: "settings", kind: "string", help: "Claude settings.json" },
      { name: "gemini-settings", kind: "string", help: "Gemini settings.json" },
      { name: "config-dir", kind: "string", help: "tma's install bookkeeping directory" },
      { name: "wrapper-path", kind: "string", help: "where to write tma-hook" },
      { name: "opencode-plugin", kind: "string", help: "OpenCode plugin path" },
      { name: "codex-config", kind: "string", help: "Codex config.toml" },
      { name: "codex-hooks", kind: "string", help: "Codex hooks.json" },
      { name: "cursor-hooks", kind: "string", help: "Cursor hooks.json" },
      { name: "cursor-cli-config", kind: "string", help: "Cursor cli-config.json" },
      { name: "pi-extension", kind: "string", help: "pi extension path" },
    ],
    load: () => import("./commands/install_hooks.ts"),
  },
  {
    name: "install-keys",
    summary: "bind tma's keys in tmux (a managed tmux.conf your config sources)",
    usage: "tma install-keys [--check|--uninstall] [--mouse] [--no-daemon] [--yes]",
    examples: [
      ["tma install-keys", "write ~/.config/tma/tmux.conf and source it from your tmux.conf"],
      ["tma install-keys --mouse --yes", "also bind clicks on the status counts"],
    ],
    flags: [
      { name: "check", kind: "boolean", help: "verify the managed file and its source line" },
      { name: "uninstall", kind: "boolean", help: "remove the managed file and the marked line" },
      { name: "mouse", kind: "boolean", help: "also bind clicks on tma's status counts" },
      { name: "no-daemon", kind: "boolean", help: "leave out the daemon launcher line" },
      { name: "yes", kind: "boolean", help: "apply without asking" },
      { name: "conf", kind: "string", help: "the tmux config to mark" },
      { name: "config-dir", kind: "string", help: "where the managed tmux.conf goes" },
    ],
    load: () => import("./commands/install_keys.ts"),
  },
  {
    name: "act",
    summary: "fire an action (approve, deny, interrupt, ...) at a pane",
    usage:
      "tma act NAME [--pane ID | selector [--all]] [--host NAME] [--text MSG] [--dry-run] [--json]",
    examples: [
      ["tma act approve --pane %3", "answer pane %3's permission prompt"],
      ["tma act --list --pane %3", "what can be fired there now"],
      ["tma act approve --host build --pane %3", "answer pane %3 of host build, over ssh"],
    ],
    flags: [
      { name: "pane", kind: "string", help: "target pane (default the current pane)" },
      { name: "all", kind: "boolean", help: "fire at every matched pane" },
      { name: "text", kind: "string", help: "the message of a text action" },
      { name: "arg", kind: "multi", help: "a value for an exec action (repeatable)" },
      { name: "dry-run", kind: "boolean", help: "show what would happen; send nothing" },
      { name: "force", kind: "boolean", help: "skip the when gate" },
      { name: "yes", kind: "boolean", help: "satisfy a confirm action" },
      { name: "json", kind: "boolean", help: "print the result object" },
      { name: "list", kind: "boolean", help: "list actions (with --pane: fireability)" },
      { name: "menu", kind: "boolean", help: "show a tmux menu of fireable actions" },
      { name: "log", kind: "boolean", help: "print recent audit log entries" },
      { name: "host", kind: "string", help: "fire on this [[host]] of config, over ssh" },
      ...SELECTOR_FLAGS,
    ],
    load: () => import("./commands/act.ts"),
  },
  {
    name: "jump",
    summary: "take your tmux client to the agent that wants you",
    usage:
      "tma jump [--attention|--blocked|--next|--back|--home|--pane ID [--host NAME]|--menu] [selector]",
    examples: [
      ["tma jump --attention", "the agent that has waited longest for you"],
      ["tma jump --back", "back where you were"],
      ["tma jump --host build --pane %3", "a local window attached to pane %3 of host build"],
    ],
    flags: [
      { name: "attention", kind: "boolean", help: "blocked first (longest first), then done" },
      { name: "blocked", kind: "boolean", help: "the longest-blocked agent" },
      { name: "next", kind: "boolean", help: "the next agent in session order (the default)" },
      { name: "back", kind: "boolean", help: "one step back along your return trail" },
      { name: "home", kind: "boolean", help: "the oldest trail entry; empties the trail" },
      { name: "pane", kind: "string", help: "this pane" },
      { name: "menu", kind: "boolean", help: "a tmux menu of every agent" },
      { name: "host", kind: "string", help: "with --pane: that pane of this [[host]] of config" },
      ...SELECTOR_FLAGS,
    ],
    cycles: true,
    load: () => import("./commands/jump.ts"),
  },
  {
    name: "watch",
    summary: "a live dashboard of every agent, for a pane of its own",
    usage: "tma watch [--table] [selector] [--host NAME ... | --all-hosts]",
    examples: [
      ["tma watch", "the live list with a preview"],
      ["tma watch --table --session work", "the telemetry table of one session"],
    ],
    flags: [
      { name: "table", kind: "boolean", help: "open on the full-width table" },
      ...SELECTOR_FLAGS,
      ...HOST_FLAGS,
    ],
    load: () => import("./commands/watch.ts"),
  },
  {
    name: "init",
    summary: "first run: wire every agent found, bind the keys, report (six steps)",
    usage: "tma init [--yes] [--daemon|--no-daemon] [--config-dir DIR] [--conf PATH]",
    examples: [
      ["tma init", "every step with its diff and a question"],
      ["tma init --yes --no-daemon", "apply all, no daemon"],
    ],
    flags: [
      { name: "yes", kind: "boolean", help: "apply every step without asking" },
      { name: "daemon", kind: "boolean", help: "also start the daemon" },
      { name: "no-daemon", kind: "boolean", help: "no daemon launcher line, no start" },
      { name: "config-dir", kind: "string", help: "tma's bookkeeping directory (TMA_CONFIG_DIR)" },
      { name: "conf", kind: "string", help: "the tmux config install-keys marks" },
    ],
    load: () => import("./commands/init.ts"),
  },
  {
    name: "doctor",
    summary: "say why a pane is not at its best tier, and what to fix (read-only)",
    usage: "tma doctor [--json] [--exit-code]",
    examples: [
      ["tma doctor", "the report for people"],
      ["tma doctor --json --exit-code", "for CI: JSON on stdout, exit 1 on a counted warning"],
    ],
    flags: [
      { name: "json", kind: "boolean", help: "print the schema-1 diagnosis" },
      {
        name: "exit-code",
        kind: "boolean",
        help: "exit 1 on a counted warning (summary on stderr)",
      },
      { name: "config-dir", kind: "string", help: "tma's install bookkeeping directory" },
    ],
    load: () => import("./commands/doctor.ts"),
  },
  {
    name: "debug",
    summary: "capture, explain, classify and redact (for rule authors); notify-test; transitions",
    usage: "tma debug capture|explain|classify|redact|notify-test|transitions ...",
    examples: [
      ["tma debug explain %3", "why pane %3 reads as it does"],
      ["tma debug capture %3 > screen.txt", "save what the detector saw"],
      ["tma debug transitions --json", "the daemon's recent state changes"],
    ],
    // `stamp` (C100) is an internal test harness: left out of completions.
    args: ["capture", "explain", "classify", "redact", "notify-test", "transitions"],
    flags: [
      { name: "json", kind: "boolean", help: "JSON output (explain)" },
      { name: "agent", kind: "string", help: "agent manifest (classify)" },
      { name: "title", kind: "string", help: "pane title (classify)" },
      { name: "command", kind: "string", help: "pane command (classify)" },
      { name: "height", kind: "string", help: "pane height (classify)" },
      { name: "pattern", kind: "multi", help: "extra regex to redact (redact)" },
      { name: "state", kind: "string", help: "header state (capture)" },
      {
        name: "trigger",
        kind: "string",
        choices: ["blocked", "done", "context_high"],
        help: "which trigger's command (notify-test; default blocked)",
      },
      // C100: the stamp harness's flags, for tests; hidden from help.
      { name: "detail", kind: "string", help: "detail token (stamp)", hidden: true },
      { name: "source", kind: "string", help: "hook, capture or process (stamp)", hidden: true },
      { name: "attention", kind: "boolean", help: "raise attention (stamp)", hidden: true },
      { name: "at", kind: "string", help: "evidence time, epoch ms (stamp)", hidden: true },
      {
        name: "if-stamped-at",
        kind: "string",
        help: "the guard's @agent_stamped_at (stamp)",
        hidden: true,
      },
    ],
    load: () => import("./commands/debug.ts"),
  },
  {
    name: "completions",
    summary: "print a shell completion script (bash, zsh, fish, elvish, powershell)",
    usage: "tma completions bash|zsh|fish|elvish|powershell",
    examples: [
      ["tma completions bash > ~/.local/share/bash-completion/completions/tma", "bash"],
      ["tma completions fish > ~/.config/fish/completions/tma.fish", "fish"],
    ],
    // core/completions.ts SHELLS, restated so the table loads nothing (a test holds them equal).
    args: ["bash", "zsh", "fish", "elvish", "powershell"],
    flags: [],
    load: () => import("./commands/completions.ts"),
  },
  {
    name: "help",
    summary: "show help for tma or one command",
    usage: "tma help [COMMAND]",
    examples: [
      ["tma help doctor", "doctor's flags and examples"],
    ],
    flags: [],
    load: () => import("./commands/help.ts"),
  },
  {
    name: "daemon",
    summary: "run the optional event-hub daemon for this tmux server",
    usage: "tma daemon [--ensure]",
    flags: [
      { name: "ensure", kind: "boolean", help: "start a detached daemon unless one runs" },
      // C71: a test flag, hidden from help.
      { name: "sweep-ms", kind: "string", help: "the sweep interval in ms", hidden: true },
    ],
    load: () => import("./commands/daemon.ts"),
  },
  {
    name: "supervise",
    summary: "the supervisor of a detached exec action (internal; tma act starts it)",
    usage: "tma supervise",
    flags: [],
    hidden: true,
    load: () => import("./commands/supervise.ts"),
  },
  {
    name: "reload",
    summary: "make this server's daemon reload its config and manifests",
    usage: "tma reload",
    flags: [],
    load: () => import("./commands/reload.ts"),
  },
  {
    name: "version",
    summary: "print the version",
    usage: "tma version",
    examples: [
      ["tma version", "prints tma 0.1.0"],
    ],
    flags: [],
    load: () => import("./commands/version.ts"),
  },
];

/** Finds a command by name. */
export function findCommand(name: string): CommandSpec | undefined {
  return COMMANDS.find((command) => command.name === name);
}

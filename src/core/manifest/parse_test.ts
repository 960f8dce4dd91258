import {
  assert,
  assertEquals,
  assertStrictEquals,
  assertThrows,
} from "../../../tests/harness/assert.ts";
import { ENGINE_VERSION } from "../version.ts";
import { ManifestError } from "./errors.ts";
import { parseActionManifest, parseAgentManifest } from "./parse.ts";

const PATH = "/home/u/.config/tma/agents/mycli.toml";
const ORIGIN = { path: PATH, stem: "mycli" };

const BASE = `min_engine_version = "0.1"
[identity]
process_names = ["mycli"]
[capture]
`;

const RULE = `
[[rules]]
state = "working"
region = "visible"
match = { contains = "esc to cancel" }
`;

/** Parses `text` expecting a ManifestError; returns it after checking it names file and key. */
function agentError(text: string, keyPath: string, pattern?: RegExp): ManifestError {
  let caught: unknown;
  try {
    parseAgentManifest(text, ORIGIN);
  } catch (err) {
    caught = err;
  }
  assert(caught instanceof ManifestError, `expected a ManifestError, got ${caught}`);
  assertStrictEquals(caught.path, PATH);
  assertStrictEquals(caught.keyPath, keyPath);
  assert(caught.message.startsWith(`${PATH}: `), caught.message);
  if (keyPath !== "") assert(caught.message.includes(keyPath), caught.message);
  assert(!caught.message.includes("\n"), "one line");
  if (pattern) assert(pattern.test(caught.message), caught.message);
  return caught;
}

Deno.test("manifest parse M1: a minimal agent manifest parses, with defaults and the stem as name", () => {
  const m = parseAgentManifest(BASE, ORIGIN);
  assertStrictEquals(m.name, "mycli");
  assertStrictEquals(m.path, PATH);
  assertEquals(m.identity.title_patterns, []);
  assertEquals(m.identity.args_patterns, []);
  assertEquals(m.capture.visible, []);
  assertEquals(m.rules, []);
  assertStrictEquals(m.hooks, undefined);
  assertStrictEquals(m.telemetry, undefined);
});

Deno.test("manifest parse M1: a name key equal to the stem is accepted; another name is refused", () => {
  assertStrictEquals(parseAgentManifest(`name = "mycli"\n${BASE}`, ORIGIN).name, "mycli");
  agentError(`name = "other"\n${BASE}`, "name", /stem is the agent's name/);
});

Deno.test("manifest parse M3: bad TOML names the file, the line and the fix", () => {
  const err = agentError(`${BASE}\n[[rules]\n`, "", /invalid TOML at line \d+, column \d+/);
  assert(err.message.includes("fix the syntax"));
});

Deno.test("manifest parse M4: an unknown key at the top level names the key", () => {
  agentError(`colour = "red"\n${BASE}`, "colour", /unknown key "colour"; remove it/);
});

Deno.test("manifest parse M4: an unknown key deep inside a predicate names its whole path", () => {
  const text = `${BASE}
[[rules]]
state = "idle"
region = "visible"
match = { all = [ { contains = "a" }, { not = { contians = "b" } } ] }
`;
  agentError(text, "rules[0].match.all[1].not.contians", /unknown key/);
});

Deno.test("manifest parse M4: unknown keys in identity, hooks.map, capture and telemetry are refused", () => {
  agentError(BASE.replace("process_names", "process_name"), "identity.process_name");
  agentError(
    `${BASE}[hooks]\ncovers = ["idle"]\n[[hooks.map]]\nevent = "Stop"\nclaim = { state = "idle" }\nturnend = true\n`,
    "hooks.map[0].turnend",
  );
  agentError(BASE.replace("[capture]", "[capture]\nvisibel = []"), "capture.visibel");
  agentError(
    `${BASE}[telemetry.context]\nchannel = "event"\nformat = "x"\nwindow = 1\n`,
    "telemetry.context.window",
  );
  agentError(`${BASE}[telemetry.gauge]\nchannel = "event"\n`, "telemetry.gauge");
});

Deno.test("manifest parse M5: a newer min_engine_version says upgrade tma, before any strict check", () => {
  const text =
    `min_engine_version = "99.0"\nfuture_key = true\n[identity]\nprocess_names = ["x"]\n`;
  const err = agentError(text, "min_engine_version", /upgrade tma/);
  assert(err.message.includes("99.0") && err.message.includes(ENGINE_VERSION), err.message);
});

Deno.test("manifest parse M5: min_engine_version is required and must be a version", () => {
  agentError(
    BASE.replace('min_engine_version = "0.1"\n', ""),
    "min_engine_version",
    /add min_engine_version/,
  );
  agentError(BASE.replace('"0.1"', '"one"'), "min_engine_version", /not a version/);
  agentError(BASE.replace('"0.1"', "1"), "min_engine_version", /not a version/);
  assertStrictEquals(
    parseAgentManifest(BASE.replace('"0.1"', `"${ENGINE_VERSION}"`), ORIGIN).name,
    "mycli",
  );
});

Deno.test("manifest parse M6: identity.process_names is required and non-empty", () => {
  agentError(
    BASE.replace('process_names = ["mycli"]', ""),
    "identity.process_names",
    /missing required key/,
  );
  agentError(BASE.replace('["mycli"]', "[]"), "identity.process_names", /at least 1/);
  agentError(BASE.replace('[identity]\nprocess_names = ["mycli"]\n', ""), "identity", /missing/);
});

Deno.test("manifest parse M7: a bad title_patterns regex names the file and the pattern", () => {
  agentError(
    BASE.replace(
      'process_names = ["mycli"]',
      'process_names = ["node"]\ntitle_patterns = ["^ok", "(oops"]',
    ),
    "identity.title_patterns[1]",
    /invalid regex "\(oops"/,
  );
});

Deno.test("manifest parse M7: title and args patterns are compiled once, at load", () => {
  const m = parseAgentManifest(
    BASE.replace(
      'process_names = ["mycli"]',
      `process_names = ["node"]\ntitle_patterns = ['^π ']\nargs_patterns = ['^node\\s+\\S*/mycli']`,
    ),
    ORIGIN,
  );
  assert(m.identity.title_patterns[0].re.test("π - proj"));
  assertStrictEquals(m.identity.title_patterns[0].source, "^π ");
  assert(m.identity.args_patterns[0].re.test("node /usr/lib/mycli/bin.js"));
});

Deno.test("manifest parse M14: [capture] is required", () => {
  agentError(BASE.replace("[capture]\n", ""), "capture", /missing required key/);
});

Deno.test("manifest parse M16: a rule state outside idle, working and blocked is refused (M25)", () => {
  agentError(
    `${BASE}${RULE.replace('"working"', '"thinking"')}`,
    "rules[0].state",
    /idle, working or blocked/,
  );
  agentError(
    `${BASE}${RULE.replace('"working"', '"unknown"')}`,
    "rules[0].state",
    /cannot be added or remapped/,
  );
});

Deno.test("manifest parse M17/M24: a detail token with uppercase is refused", () => {
  agentError(
    `${BASE}${RULE.replace('state = "working"', 'state = "working"\ndetail = "RateLimit"')}`,
    "rules[0].detail",
    /"RateLimit" is not a valid detail token.*lowercase/,
  );
  agentError(
    `${BASE}${RULE.replace('state = "working"', 'state = "working"\ndetail = ""')}`,
    "rules[0].detail",
  );
});

Deno.test("manifest parse M18: priority defaults to 0 and must be an integer", () => {
  assertStrictEquals(parseAgentManifest(`${BASE}${RULE}`, ORIGIN).rules[0].priority, 0);
  agentError(`${BASE}${RULE}priority = 1.5\n`, "rules[0].priority", /integer/);
});

Deno.test("manifest parse M19: a bad region names the three forms", () => {
  agentError(
    `${BASE}${RULE.replace('"visible"', '"tail(5)"')}`,
    "rules[0].region",
    /"tail\(5\)" is not a region; use tail_lines\(N\).*visible or title/,
  );
  agentError(`${BASE}${RULE.replace('"visible"', '"tail_lines(0)"')}`, "rules[0].region");
  agentError(`${BASE}${RULE.replace('"visible"', '"Visible"')}`, "rules[0].region");
  const m = parseAgentManifest(`${BASE}${RULE.replace('"visible"', '"tail_lines(12)"')}`, ORIGIN);
  assertEquals(m.rules[0].region, { kind: "tail_lines", lines: 12, spec: "tail_lines(12)" });
});

Deno.test("manifest parse M20: a bad regex in a rule names its key path", () => {
  agentError(
    `${BASE}${RULE.replace('{ contains = "esc to cancel" }', "{ regex = '[a-' }")}`,
    "rules[0].match.regex",
    /invalid regex "\[a-"/,
  );
  agentError(
    `${BASE}${
      RULE.replace(
        '{ contains = "esc to cancel" }',
        "{ last_line = { select = '(', match = { contains = 'x' } } }",
      )
    }`,
    "rules[0].match.last_line.select",
  );
});

Deno.test("manifest parse M20: a predicate takes exactly one key", () => {
  agentError(
    `${BASE}${RULE.replace('{ contains = "esc to cancel" }', '{ contains = "a", regex = "b" }')}`,
    "rules[0].match",
    /exactly one key, found contains and regex/,
  );
  agentError(
    `${BASE}${RULE.replace('{ contains = "esc to cancel" }', "{}")}`,
    "rules[0].match",
    /empty/,
  );
  agentError(
    `${BASE}${RULE.replace('{ contains = "esc to cancel" }', "{ any = [] }")}`,
    "rules[0].match.any",
  );
});

Deno.test("manifest parse M21: skip_state_update defaults to false", () => {
  assertStrictEquals(
    parseAgentManifest(`${BASE}${RULE}`, ORIGIN).rules[0].skip_state_update,
    false,
  );
});

Deno.test("manifest parse D65: ends_turn defaults to false and is only for plain idle rules", () => {
  assertStrictEquals(parseAgentManifest(`${BASE}${RULE}`, ORIGIN).rules[0].ends_turn, false);
  const idle = RULE.replace('"working"', '"idle"');
  assertStrictEquals(
    parseAgentManifest(`${BASE}${idle}ends_turn = true\n`, ORIGIN).rules[0].ends_turn,
    true,
  );
  agentError(`${BASE}${RULE}ends_turn = true\n`, "rules[0].ends_turn", /a working rule/);
  agentError(
    `${BASE}${idle}ends_turn = true\nskip_state_update = true\n`,
    "rules[0].ends_turn",
    /history view/,
  );
});

Deno.test("manifest parse M22: a [details] key that collides with a state token is refused", () => {
  agentError(`${BASE}[details]\nidle = { aliases = ["resting"] }\n`, "details.idle", /state token/);
  agentError(`${BASE}[details]\nRate = { aliases = [] }\n`, "details.Rate", /detail token/);
  agentError(
    `${BASE}[details]\nrate_limit = { aliases = ["Rate"] }\n`,
    "details.rate_limit.aliases[0]",
  );
  agentError(
    `${BASE}[details]\na = { aliases = ["x"] }\nb = { aliases = ["x"] }\n`,
    "details.b.aliases[0]",
    /already belongs to "a"/,
  );
  agentError(
    `${BASE}[details]\na = { aliases = ["b"] }\nb = { aliases = [] }\n`,
    "details.a.aliases[0]",
    /is itself a \[details\] key/,
  );
});

Deno.test("manifest parse M23: channel must be event, file-tail or screen; any format loads", () => {
  agentError(
    `${BASE}[telemetry.context]\nchannel = "socket"\nformat = "x"\n`,
    "telemetry.context.channel",
    /event, file-tail or screen/,
  );
  const m = parseAgentManifest(
    `${BASE}[telemetry.context]\nchannel = "file-tail"\nformat = "future-format-v9"\n`,
    ORIGIN,
  );
  assertEquals(m.telemetry?.context, { channel: "file-tail", format: "future-format-v9" });
});

Deno.test("manifest parse M9-M13: hooks parse into claims with compiled matchers", () => {
  const m = parseAgentManifest(
    `${BASE}[hooks]
covers = ["working", "idle", "lifecycle"]
[[hooks.map]]
event = "start"
claim = { lifecycle = "start" }
[[hooks.map]]
event = "Notification"
matcher = 'usage_limit'
claim = { state = "working", detail = "rate_limit" }
[[hooks.map]]
event = "Stop"
claim = { state = "idle" }
turn_end = true
`,
    ORIGIN,
  );
  const map = m.hooks!.map;
  assertEquals(map[0].claim, { lifecycle: "start" });
  assertEquals(map[1].claim, { state: "working", detail: "rate_limit" });
  assert(map[1].matcher!.re.test('{"notification_type":"usage_limit"}'));
  assertStrictEquals(map[0].turn_end, false);
  assertStrictEquals(map[2].turn_end, true);
});

Deno.test("manifest parse M12: a claim is either a state or a lifecycle", () => {
  const hooks = (claim: string) =>
    `${BASE}[hooks]\ncovers = ["idle", "lifecycle"]\n[[hooks.map]]\nevent = "e"\nclaim = ${claim}\n`;
  agentError(hooks('{ state = "idle", lifecycle = "end" }'), "hooks.map[0].claim", /not both/);
  agentError(hooks("{ }"), "hooks.map[0].claim", /needs state/);
  agentError(hooks('{ lifecycle = "restart" }'), "hooks.map[0].claim.lifecycle", /start, end/);
  agentError(hooks('{ state = "idle", detail = "Bad" }'), "hooks.map[0].claim.detail");
  agentError(
    hooks('{ state = "idle" }').replace("[[hooks.map]]", "[[hooks.map]]\nmatcher = '(('"),
    "hooks.map[0].matcher",
    /invalid regex/,
  );
});

Deno.test("manifest parse M9: a claimed state missing from [hooks].covers is refused", () => {
  agentError(
    `${BASE}[hooks]\ncovers = ["idle"]\n[[hooks.map]]\nevent = "e"\nclaim = { state = "blocked" }\n`,
    "hooks.map[0].claim",
    /add "blocked" to covers/,
  );
  agentError(
    `${BASE}[hooks]\ncovers = ["done"]\n`,
    "hooks.covers[0]",
    /idle, working, blocked or lifecycle/,
  );
});

// ---- action manifests ----

const APATH = "/home/u/.config/tma/actions/nudge.toml";
const AORIGIN = { path: APATH, stem: "nudge" };
const AHEAD = `min_engine_version = "0.1"\nname = "nudge"\nlabel = "Nudge"\n`;

function actionError(text: string, keyPath: string, pattern?: RegExp): ManifestError {
  let caught: unknown;
  try {
    parseActionManifest(text, AORIGIN);
  } catch (err) {
    caught = err;
  }
  assert(caught instanceof ManifestError, `expected a ManifestError, got ${caught}`);
  assertStrictEquals(caught.keyPath, keyPath);
  assert(caught.message.startsWith(`${APATH}: `), caught.message);
  if (pattern) assert(pattern.test(caught.message), caught.message);
  return caught;
}

Deno.test("manifest parse M33-M40: a keys action parses with its defaults", () => {
  const a = parseActionManifest(`${AHEAD}kind = "keys"\n[keys]\nclaude = ["Escape"]\n`, AORIGIN);
  assertStrictEquals(a.confirm, false);
  assertStrictEquals(a.detach, false);
  assertStrictEquals(a.text, false);
  assertStrictEquals(a.timeout_ms, 30000);
  assertStrictEquals(a.detach_timeout_ms, 900000);
  assertEquals(a.agents, []);
  assertEquals(a.requires, []);
  assertEquals(a.api, {});
  assertStrictEquals(a.when, undefined);
  assertStrictEquals(a.path, APATH);
});

Deno.test("manifest parse M31: the action name is required and must equal the stem", () => {
  actionError(
    `min_engine_version = "0.1"\nlabel = "x"\nkind = "keys"\n[keys]\na = ["x"]\n`,
    "name",
    /missing/,
  );
  actionError(
    `${AHEAD.replace('"nudge"', '"poke"')}kind = "keys"\n[keys]\na = ["x"]\n`,
    "name",
    /stem "nudge"/,
  );
});

Deno.test("manifest parse M30: a newer action min_engine_version says upgrade tma", () => {
  actionError(`min_engine_version = "7.2.1"\nwhatever = 1\n`, "min_engine_version", /upgrade tma/);
});

Deno.test("manifest parse M33/M4: a bad kind and unknown keys are refused", () => {
  actionError(`${AHEAD}kind = "macro"\n`, "kind", /keys or exec/);
  actionError(`${AHEAD}kind = "keys"\nlabels = "x"\n[keys]\na = ["x"]\n`, "labels", /unknown key/);
  actionError(
    `${AHEAD}kind = "keys"\n[when]\nstates = ["idle"]\n[keys]\na = ["x"]\n`,
    "when.states",
  );
});

Deno.test("manifest parse M34: when takes states, details and fail-closed context bounds", () => {
  const a = parseActionManifest(
    `${AHEAD}kind = "keys"\n[when]\nstate = ["idle"]\ndetail = ["permission"]\ncontext_pct_min = 75\n[keys]\nclaude = ["x"]\n`,
    AORIGIN,
  );
  assertEquals(a.when, { state: ["idle"], detail: ["permission"], context_pct_min: 75 });
  actionError(
    `${AHEAD}kind = "keys"\n[when]\nstate = ["done"]\n[keys]\na = ["x"]\n`,
    "when.state[0]",
    /not a state/,
  );
  actionError(
    `${AHEAD}kind = "keys"\n[when]\ncontext_pct_min = 120\n[keys]\na = ["x"]\n`,
    "when.context_pct_min",
  );
  actionError(
    `${AHEAD}kind = "keys"\n[when]\ncontext_pct_min = 80\ncontext_pct_max = 20\n[keys]\na = ["x"]\n`,
    "when.context_pct_min",
    /above context_pct_max/,
  );
});

Deno.test("manifest parse M36: an unknown requires token is refused", () => {
  actionError(
    `${AHEAD}kind = "exec"\ncommand = "true"\nrequires = ["session", "window"]\n`,
    "requires[1]",
    /session, cwd, pid or title/,
  );
});

Deno.test("manifest parse M44: the API vocabulary is closed and reply rules hold", () => {
  const api = (cell: string) => `${AHEAD}kind = "keys"\n[api]\nopencode = ${cell}\n`;
  assertEquals(
    parseActionManifest(api('{ op = "permission-reply", reply = "always" }'), AORIGIN).api,
    {
      opencode: { op: "permission-reply", reply: "always" },
    },
  );
  assertEquals(parseActionManifest(api('{ op = "question-reply" }'), AORIGIN).api, {
    opencode: { op: "question-reply" },
  });
  actionError(
    api('{ op = "session-abort" }'),
    "api.opencode.op",
    /permission-reply, question-reject or question-reply/,
  );
  actionError(api('{ op = "permission-reply" }'), "api.opencode.reply", /needs reply/);
  actionError(
    api('{ op = "permission-reply", reply = "maybe" }'),
    "api.opencode.reply",
    /once, always or reject/,
  );
  actionError(
    api('{ op = "question-reject", reply = "once" }'),
    "api.opencode.reply",
    /takes no reply/,
  );
});

Deno.test("manifest parse M45: keys needs an agent under [keys] or [api], and forbids command and detach", () => {
  actionError(`${AHEAD}kind = "keys"\n`, "keys", /at least one agent/);
  actionError(
    `${AHEAD}kind = "keys"\ncommand = "x"\n[keys]\na = ["x"]\n`,
    "command",
    /keys action cannot/,
  );
  actionError(`${AHEAD}kind = "keys"\ndetach = false\n[keys]\na = ["x"]\n`, "detach");
  // API-only is allowed.
  parseActionManifest(
    `${AHEAD}kind = "keys"\n[api]\nopencode = { op = "question-reject" }\n`,
    AORIGIN,
  );
});

Deno.test("manifest parse M45: exec needs command and forbids [keys], [api] and text", () => {
  actionError(`${AHEAD}kind = "exec"\n`, "command", /needs command/);
  actionError(
    `${AHEAD}kind = "exec"\ncommand = "x"\n[keys]\na = ["x"]\n`,
    "keys",
    /exec action cannot/,
  );
  actionError(
    `${AHEAD}kind = "exec"\ncommand = "x"\n[api]\na = { op = "question-reject" }\n`,
    "api",
  );
  actionError(`${AHEAD}kind = "exec"\ncommand = "x"\ntext = false\n`, "text");
  const a = parseActionManifest(
    `${AHEAD}kind = "exec"\ncommand = "x"\ndetach = true\nagents = ["claude"]\n`,
    AORIGIN,
  );
  assertStrictEquals(a.detach, true);
  assertEquals(a.agents, ["claude"]);
});

Deno.test("manifest parse M45: an agent in both [keys] and [api] is refused", () => {
  actionError(
    `${AHEAD}kind = "keys"\n[keys]\nopencode = ["y"]\n[api]\nopencode = { op = "question-reject" }\n`,
    "api.opencode",
    /both \[keys\] and \[api\]/,
  );
});

Deno.test("manifest parse M43/M45: a text action holds exactly one {text} per sequence and no [api]", () => {
  const ok1 = parseActionManifest(
    `${AHEAD}kind = "keys"\ntext = true\n[keys]\nclaude = ["{text}", "Enter"]\n`,
    AORIGIN,
  );
  assertStrictEquals(ok1.text, true);
  actionError(
    `${AHEAD}kind = "keys"\ntext = true\n[keys]\nclaude = ["Enter"]\n`,
    "keys.claude",
    /exactly one "\{text\}", found 0/,
  );
  actionError(
    `${AHEAD}kind = "keys"\ntext = true\n[keys]\nclaude = ["{text}", "{text}"]\n`,
    "keys.claude",
    /found 2/,
  );
  actionError(
    `${AHEAD}kind = "keys"\ntext = true\n[keys]\nclaude = ["{text}"]\n[api]\nopencode = { op = "question-reject" }\n`,
    "api",
    /text action cannot have \[api\]/,
  );
  actionError(
    `${AHEAD}kind = "keys"\n[keys]\nclaude = ["{text}", "Enter"]\n`,
    "keys.claude[0]",
    /set text = true/,
  );
});

Deno.test("manifest parse M42: an empty key sequence or key is refused", () => {
  actionError(`${AHEAD}kind = "keys"\n[keys]\nclaude = []\n`, "keys.claude", /at least 1/);
  actionError(
    `${AHEAD}kind = "keys"\n[keys]\nclaude = [""]\n`,
    "keys.claude[0]",
    /must not be empty/,
  );
});

Deno.test("ManifestError.reason omits the file for a line that already names it", () => {
  const err = agentError(`colour = 1\n${BASE}`, "colour");
  assertStrictEquals(err.reason, 'colour: unknown key "colour"; remove it or fix its spelling');
  assertStrictEquals(err.message, `${PATH}: ${err.reason}`);
  const e = assertThrows(() => parseAgentManifest("x = ", ORIGIN), ManifestError);
  assertStrictEquals(e.keyPath, "");
});

/**
 * Issue 13's fuzz test: random and adversarial payloads, titles and screens
 * thrown at the rule engine, the fold and the hook intake, seeded and
 * bounded so every run is the same run. It checks that nothing throws, that
 * every case ends within a bound, that a hook exits 0 with nothing on stdout,
 * and that a payload the manifest does not map stamps nothing.
 *
 * `TMA_FUZZ_SEED` replays another seed (a failure prints its seed and case);
 * `TMA_FUZZ_CASES` scales the in-process cases (the child-process ones stay
 * few: each starts a Deno).
 * @module
 */
import { assert, assertEquals } from "./harness/assert.ts";
import { agentOptions, fireHook, quietPane, tmaScript } from "./harness/hook.ts";
import { seededRandom } from "./harness/random.ts";
import { tmuxTest } from "./harness/tmux.ts";
import { BUNDLED_AGENTS } from "../src/assets/bundled.ts";
import { buildModels } from "../src/core/agent_model.ts";
import { fold } from "../src/core/fold.ts";
import { readHookManifest } from "../src/core/hook/hook_manifest.ts";
import { resolveHookAction } from "../src/core/hook/mapping.ts";
import { parsePayload } from "../src/core/hook/payload.ts";
import { planHookEvent } from "../src/core/hook/plan.ts";
import type { Identity } from "../src/core/identity.ts";
import { parseAgentManifest } from "../src/core/manifest/parse.ts";
import { PANE_OPTIONS, type PaneOptions } from "../src/core/snapshot.ts";
import { readStamp } from "../src/core/stamp.ts";
import { STATES } from "../src/core/state.ts";
import { bundledManifests } from "../src/runtime/manifest/load.ts";

const SEED = Number(Deno.env.get("TMA_FUZZ_SEED") ?? "20261201");
const CASES = Number(Deno.env.get("TMA_FUZZ_CASES") ?? "300");
/** No case may take longer, however loaded the machine (a normal one takes milliseconds). */
const CASE_BOUND_MS = 2_000;

class Fuzz {
  readonly next: () => number;
  constructor(seed: number) {
    this.next = seededRandom(seed);
  }
  int(n: number): number {
    return Math.floor(this.next() * n);
  }
  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)];
  }

  /** Pieces real screens and payloads are made of, and the patterns' pump strings. */
  static readonly PIECES = [
    "❯ 1. Yes",
    " ❯ 1. Yes, I trust this folder",
    "⏵⏵ accept edits on",
    "✻ Churned for 3s",
    "· Actioning… (4s · ↓ 1k tokens)",
    "esc to interrupt",
    "(esc to cancel, 3s)",
    "Allow once",
    "△ Permission required",
    "ctrl+p commands",
    "workspace (/directory)",
    "/model",
    "0.3%/262k",
    "─".repeat(30),
    "▀".repeat(12),
    "▄".repeat(25),
    "\u2800\u2801",
    "\x1b[31m",
    "\x1b[0m",
    "\x1b]2;title\x07",
    "\x1b]8;;http://x\x1b\\",
    "\r",
    "\t",
    "\u00a0",
    "\u3000",
    "😀",
    "e\u0301",
    "中文字",
    "\u202e",
    "\0",
    "%",
    "#{pane_id}",
    "$(rm -rf /)",
    '"notification_type": "',
    "usage_limit",
    "permission_prompt",
    "is_interrupt",
  ];

  /** A run a backtracking engine would choke on. */
  pump(): string {
    const unit = this.pick(["a", " ", "1", "usage_limit", "/@google/gemini-cli/", "-x ", "\t"]);
    return unit.repeat(1 + this.int(this.next() < 0.2 ? 5000 : 60)) +
      this.pick(["!", "", "x", "%"]);
  }

  text(maxPieces = 12): string {
    let out = "";
    for (let i = this.int(maxPieces); i >= 0; i--) {
      const roll = this.next();
      if (roll < 0.4) out += Fuzz.PIECES[this.int(Fuzz.PIECES.length)];
      else if (roll < 0.55) out += this.pump();
      else if (roll < 0.75) out += String.fromCharCode(32 + this.int(95));
      else if (roll < 0.85) out += String.fromCodePoint(this.int(0x2ffff));
      else out += "\n";
    }
    return out;
  }

  screen(): string {
    return Array.from({ length: this.int(60) }, () => this.text(6)).join("\n");
  }

  /** A payload: valid JSON of odd shapes, or garbage. */
  payload(): string {
    const roll = this.next();
    if (roll < 0.15) return this.text(20); // not JSON at all
    if (roll < 0.25) return "[".repeat(5000 + this.int(5000)); // deep, unterminated
    if (roll < 0.35) return JSON.stringify(this.text()); // a JSON string, not an object
    const value: Record<string, unknown> = {};
    for (let i = this.int(8); i >= 0; i--) {
      const key = this.pick([
        "session_id",
        "notification_type",
        "message",
        "cwd",
        "model",
        "hook_event_name",
        "transcript_path",
        this.text(2),
      ]);
      value[key] = this.pick<() => unknown>([
        () => this.text(),
        () => this.pump(),
        () => this.int(1e9),
        () => null,
        () => [this.text(), { nested: this.text() }],
        () => ({ deep: { deeper: this.text() } }),
      ])();
    }
    const text = JSON.stringify(value);
    return roll < 0.45 ? text.slice(0, this.int(text.length)) : text; // truncated now and then
  }

  options(): PaneOptions {
    const out: Record<string, string> = {};
    for (const name of PANE_OPTIONS) {
      if (this.next() < 0.5) continue;
      out[name] = this.pick([
        this.text(2),
        String(1_800_000_000_000 + this.int(1e6)),
        this.pick([...STATES]),
        "",
        "1",
      ]);
    }
    return out as PaneOptions;
  }
}

/** Runs `fn` and fails when it throws or outlives the bound. */
function within<T>(what: string, fn: () => T): T {
  const start = performance.now();
  let out: T;
  try {
    out = fn();
  } catch (error) {
    throw new Error(`${what} threw: ${error instanceof Error ? error.stack : error}`);
  }
  const took = performance.now() - start;
  assert(took < CASE_BOUND_MS, `${what} took ${Math.round(took)} ms (bound ${CASE_BOUND_MS})`);
  return out;
}

/** A user manifest whose patterns would hang a backtracking engine (linear engine here). */
const HOSTILE = parseAgentManifest(
  `min_engine_version = "0.1.0"
[identity]
process_names = ["hostile"]
title_patterns = ['(a+)+$']
[capture]
visible = ["working", "blocked"]
[[rules]]
state = "blocked"
priority = 10
region = "visible"
match = { line_regex = '(\\s*\\s*)+x$' }
[[rules]]
state = "working"
priority = 5
region = "title"
match = { regex = '(a|a)*b' }
`,
  { path: "hostile.toml", stem: "hostile" },
);

const MODELS = buildModels([...bundledManifests().agents.values(), HOSTILE]);

const IDENTITY: Identity = {
  agent: "claude",
  source: "observed",
  pid: 100,
  foregroundIsAgent: true,
  outOfScope: null,
  ignored: false,
  titleMatchPid: null,
  matched: null,
};

Deno.test(`fuzz R10, R11: screens and titles through every agent's rules and the fold (seed ${SEED})`, () => {
  const fuzz = new Fuzz(SEED);
  for (let n = 0; n < CASES; n++) {
    const capture = fuzz.screen();
    const title = fuzz.next() < 0.3 ? fuzz.pump() : fuzz.text(3);
    const height = fuzz.pick([null, 0, 1, 24, 40, 200]);
    for (const model of MODELS) {
      const where = `seed ${SEED} case ${n} ${model.profile.name}`;
      const evidence = within(
        `${where} classify`,
        () => model.classify({ capture, title, height }),
      );
      const options = fuzz.options();
      const verdict = within(`${where} fold`, () =>
        fold({
          prior: readStamp(options),
          identity: { ...IDENTITY, agent: model.profile.name },
          visible: model.visible,
          screen: evidence,
          scrolled: fuzz.next() < 0.1,
          nowMs: 1_800_000_000_000 + fuzz.int(1e7),
          windows: { dwellSecs: 3, hookDecaySecs: 60, blockedDecaySecs: 300 },
        }));
      assert(
        verdict.state === null || (STATES as readonly string[]).includes(verdict.state),
        `${where}: fold published ${JSON.stringify(verdict.state)}`,
      );
    }
  }
});

Deno.test(`fuzz C101, R10: payloads through every agent's hook map and planner (seed ${SEED})`, () => {
  const fuzz = new Fuzz(SEED + 1);
  const manifests = Object.entries(BUNDLED_AGENTS).map(([stem, text]) =>
    readHookManifest(text, { path: stem, stem })
  );
  for (let n = 0; n < CASES; n++) {
    const raw = fuzz.payload();
    const payload = parsePayload(raw);
    for (const manifest of manifests) {
      const where = `seed ${SEED + 1} case ${n} ${manifest.name}`;
      const mapped = manifest.hooks?.map.map((e) => e.event) ?? [];
      // An event name the manifest does not map, or one it does.
      const unmapped = `Fuzz${fuzz.int(1e6)}`;
      const kind = fuzz.next() < 0.5 ? unmapped : fuzz.pick([...mapped, unmapped]);
      const action = within(
        `${where} map`,
        () => resolveHookAction(kind, { hooks: manifest.hooks, raw: payload?.raw ?? raw }),
      );
      if (!mapped.includes(kind) && !/^Subagent(Start|Stop)$/.test(kind)) {
        assertEquals(action, null, `${where}: ${kind} is not mapped yet resolved`);
      }
      if (action === null || payload === null) continue;
      within(`${where} plan`, () =>
        planHookEvent({
          agent: manifest.name,
          options: fuzz.options(),
          action,
          payload,
          evidenceAtMs: 1_800_000_000_000 + fuzz.int(1e7),
          stampedAtMs: 1_800_000_000_000 + fuzz.int(1e7),
        }));
    }
  }
});

tmuxTest(
  `fuzz C101, R10: tma-hook with hostile payloads exits 0, prints nothing, stamps nothing unmapped (seed ${SEED})`,
  async (t) => {
    const fuzz = new Fuzz(SEED + 2);
    const pane = await quietPane(t);
    const bin = await tmaScript(t);
    const agents = Object.keys(BUNDLED_AGENTS);
    for (let n = 0; n < 6; n++) {
      const agent = fuzz.pick(agents);
      const event = fuzz.pick([`Fuzz${fuzz.int(1e6)}`, "Notification", "notify", "context"]);
      const stdin = fuzz.payload();
      const before = await agentOptions(t, pane);
      const start = performance.now();
      const fired = await fireHook(t, { agent, event, pane, bin, stdin, deadlineMs: 60_000 });
      const where = `seed ${SEED + 2} case ${n}: ${agent} ${event}`;
      assert(!fired.timedOut, `${where} was still running after 60 s`);
      assertEquals([fired.code, fired.stdout], [0, ""], where);
      assert(performance.now() - start < 60_000, where);
      const mapped =
        readHookManifest(BUNDLED_AGENTS[agent], { path: agent, stem: agent }).hooks?.map
          .some((e) => e.event === event) ?? false;
      const action = mapped && parsePayload(stdin) !== null
        ? resolveHookAction(event, {
          hooks: readHookManifest(BUNDLED_AGENTS[agent], { path: agent, stem: agent }).hooks,
          raw: stdin,
        })
        : null;
      if (action === null && event !== "context") {
        assertEquals(await agentOptions(t, pane), before, `${where} stamped an unmapped payload`);
      }
    }
  },
);

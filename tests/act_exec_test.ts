/**
 * The exec transport (A21, A22, C48, R4): `sh -c` verbatim in tma's cwd, the
 * context only as `TMA_*` values, hostile titles and args inert, the
 * child's code passed through, a timeout killing the whole group.
 */
import { exists } from "./harness/fs.ts";
import { assert, assertEquals, assertMatch } from "./harness/assert.ts";
import { runTma, type ScratchTmux, tmuxTest } from "./harness/tmux.ts";
import { parseActionManifest, type ParsedActionManifest } from "../src/core/manifest/parse.ts";
import { fire } from "../src/actions/broker.ts";
import { brokerEnv, setOptions } from "./harness/act.ts";
import { recorder, screen } from "./harness/recorder.ts";

function execAction(name: string, lines: string[]): ParsedActionManifest {
  const text = [
    'min_engine_version = "0.1.0"',
    `name = "${name}"`,
    `label = "${name}"`,
    'kind = "exec"',
    ...lines,
  ].join("\n");
  return parseActionManifest(text, { path: `${name}.toml`, stem: name });
}

/** Writes a user action file, for runs through the CLI. */
async function userAction(t: ScratchTmux, name: string, lines: string[]): Promise<void> {
  const dir = `${t.home}/.config/tma/actions`;
  await Deno.mkdir(dir, { recursive: true });
  await Deno.writeTextFile(
    `${dir}/${name}.toml`,
    [
      'min_engine_version = "0.1.0"',
      `name = "${name}"`,
      `label = "${name}"`,
      'kind = "exec"',
      ...lines,
    ]
      .join("\n"),
  );
}

async function idleClaude(t: ScratchTmux, title?: string) {
  const s = screen("claude_idle_fresh_w120");
  const r = await recorder(t, "claude", { height: s.height });
  await r.draw(title === undefined ? s : { ...s, title });
  return r;
}

tmuxTest(
  "fire() exec R4, A22: a hostile title and hostile args reach the command only as env values",
  async (t) => {
    const d = t.dir;
    // A title is one line (tmux refuses control characters in it); the
    // args carry the newline.
    const title =
      `✳ it's "q" $(touch ${d}/pwn1) \`touch ${d}/pwn2\` ; touch ${d}/pwn3 #{pane_id} \\ $HOME`;
    const arg = `line one\n$(touch ${d}/pwn4)'; touch ${d}/pwn5 "\``;
    const r = await idleClaude(t, title);
    const action = execAction("inspect", [
      "command = '''",
      `printf '%s' "$TMA_TITLE" > '${d}/title'`,
      `printf '%s' "$TMA_ARG_1" > '${d}/arg1'`,
      `printf '%s' "$TMA_ARG" > '${d}/arg'`,
      `printf '%s' "$TMA_ARG_2" > '${d}/arg2'`,
      `printf '%s' "$TMA_ARG_COUNT" > '${d}/count'`,
      `pwd > '${d}/pwd'`,
      `env > '${d}/env'`,
      "'''",
    ]);
    const report = await fire(brokerEnv(t), { action, pane: r.pane, args: [arg, "second"] });
    assertEquals(report.result, {
      schema: 1,
      action: "inspect",
      pane: r.pane,
      outcome: "exited",
      exit_code: 0,
      reason: null,
    });
    assertEquals(await Deno.readTextFile(`${d}/title`), title);
    assertEquals(await Deno.readTextFile(`${d}/arg1`), arg);
    assertEquals(await Deno.readTextFile(`${d}/arg`), arg);
    assertEquals(await Deno.readTextFile(`${d}/arg2`), "second");
    assertEquals(await Deno.readTextFile(`${d}/count`), "2");
    assertEquals((await Deno.readTextFile(`${d}/pwd`)).trim(), Deno.cwd(), "A21: tma's cwd");
    for (const n of [1, 2, 3, 4, 5]) assertEquals(await exists(`${d}/pwn${n}`), false, `pwn${n}`);
    const env = await Deno.readTextFile(`${d}/env`);
    for (
      const name of [
        "TMA_PANE",
        "TMA_AGENT",
        "TMA_STATE",
        "TMA_DETAIL",
        "TMA_LOCATOR",
        "TMA_ACTION",
      ]
    ) {
      assertMatch(env, new RegExp(`^${name}=`, "m"));
    }
    assertMatch(env, new RegExp(`^TMA_PANE=${r.pane}$`, "m"));
    assertMatch(env, /^TMA_AGENT=claude$/m);
    assertMatch(env, /^TMA_STATE=idle$/m);
    assertMatch(env, /^TMA_ACTION=inspect$/m);
    assertMatch(env, /^TMA_PID=\d+$/m);
    assertMatch(env, /^TMA_CWD=\//m);
  },
);

tmuxTest(
  "fire() exec A22, C48: without --arg, TMA_ARG* are unset even when tma's own env has them",
  async (t) => {
    const r = await idleClaude(t);
    await userAction(t, "probe", [
      "command = '''" +
      ["TMA_ARG", "TMA_ARG_1", "TMA_ARG_COUNT"].map((v) => `[ -n "\${${v}+x}" ] && echo ${v}; `)
        .join("") +
      "echo done'''",
    ]);
    const out = await runTma(t, ["act", "probe", "--pane", r.pane], {
      env: { TMA_ARG: "leak", TMA_ARG_1: "leak", TMA_ARG_COUNT: "1" },
    });
    assertEquals(out.code, 0, out.stderr);
    assertEquals(
      out.stdout,
      "done\n",
      "A21: the child's stdout passes through, and nothing leaked",
    );
  },
);

tmuxTest(
  "fire() exec A21, C55: the child's exit code passes through; --json keeps stdout for the result",
  async (t) => {
    const r = await idleClaude(t);
    await userAction(t, "fail7", ["command = 'echo from-child; exit 7'"]);
    const plain = await runTma(t, ["act", "fail7", "--pane", r.pane]);
    assertEquals(plain.code, 7);
    assertEquals(plain.stdout, "from-child\n");
    const json = await runTma(t, ["act", "fail7", "--pane", r.pane, "--json"]);
    assertEquals(json.code, 7);
    assertEquals(JSON.parse(json.stdout), {
      schema: 1,
      action: "fail7",
      pane: r.pane,
      outcome: "exited",
      exit_code: 7,
      reason: null,
    });
    assert(json.stderr.includes("from-child"), json.stderr);
  },
);

/** Whether a pid is gone or a zombie (Linux /proc; elsewhere, kill -0). */
async function gone(pid: number): Promise<boolean> {
  try {
    const stat = await Deno.readTextFile(`/proc/${pid}/stat`);
    return stat.slice(stat.lastIndexOf(")") + 2).startsWith("Z");
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return true;
    try {
      Deno.kill(pid, 0);
      return false;
    } catch {
      return true;
    }
  }
}

tmuxTest(
  "fire() exec A21: a timeout kills the whole process group: outcome timeout, exit 124",
  async (t) => {
    const r = await idleClaude(t);
    const bg = `${t.dir}/bg`;
    const action = execAction("slow", [
      "timeout_ms = 300",
      `command = "sleep 600 & echo $! > '${bg}'; sleep 600"`,
    ]);
    const report = await fire(brokerEnv(t), { action, pane: r.pane });
    assertEquals([report.result.outcome, report.result.exit_code, report.result.reason], [
      "timeout",
      124,
      null,
    ]);
    const pid = Number((await Deno.readTextFile(bg)).trim());
    assert(pid > 0);
    await t.waitFor(() => gone(pid));
    assertEquals(await t.option(r.pane, "@agent_action"), "", "released after the timeout");
  },
);

tmuxTest(
  "fire() exec M35, M36, M34: exec agents, requires and when gate before anything runs",
  async (t) => {
    const r = await idleClaude(t);
    const ran = `${t.dir}/ran`;
    const touch = `command = "touch '${ran}'"`;
    const env = brokerEnv(t);
    const codexOnly = execAction("x1", ['agents = ["codex"]', touch]);
    assertEquals(
      (await fire(env, { action: codexOnly, pane: r.pane })).result.reason,
      "wrong-agent",
    );
    const needsSession = execAction("x2", ['requires = ["session"]', touch]);
    assertEquals(
      (await fire(env, { action: needsSession, pane: r.pane })).result.reason,
      "requires-unmet",
    );
    // Top-level keys come before the [when] table.
    const gated = execAction("x3", [touch, "[when]", 'state = ["working"]']);
    assertEquals((await fire(env, { action: gated, pane: r.pane })).result.reason, "gated");
    assertEquals(await exists(ran), false, "nothing ran");
    await setOptions(t, r.pane, { "@agent_session": "sess-42" });
    const sessionEcho = execAction("x4", [
      'requires = ["session"]',
      `command = "printf '%s' \\"$TMA_SESSION_ID\\" > '${ran}'"`,
    ]);
    assertEquals(
      (await fire(env, { action: sessionEcho, pane: r.pane })).result.outcome,
      "exited",
    );
    assertEquals(await Deno.readTextFile(ran), "sess-42");
  },
);

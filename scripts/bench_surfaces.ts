/**
 * The surfaces' figures for `deno task bench` (issue 15), each paired run
 * by run with `tma --version` under the same conditions:
 *
 * - the picker's first painted frame with 100 stand-in agent panes: from
 *   spawning `tma` on a pseudo-terminal to the frame's bytes arriving
 *   (budget 1.5x `tma --version` run the same way);
 * - one `tma jump --attention` at 100 panes with a client attached.
 * @module
 */
import { attachClient, HAS_SCRIPT } from "../tests/harness/client.ts";
import { runTma, type ScratchTmux, tmaCommand, withScratchTmux } from "../tests/harness/tmux.ts";
import { middle } from "./bench_pairs.ts";

const RUNS = Number(Deno.env.get("TMA_BENCH_RUNS") ?? "9");

const IDLE = "❯ \n" + "─".repeat(78) + "\n  ⏵⏵ accept edits on (shift+tab to cycle)";

/**
 * Milliseconds from spawning `args` on a 120x40 pseudo-terminal until its
 * output holds `until`; the process is killed then.
 */
async function timeToOutput(t: ScratchTmux, args: string[], until: string): Promise<number> {
  const tma = tmaCommand(t, args);
  const started = performance.now();
  const child = new Deno.Command("script", {
    args: ["-qfec", `stty cols 120 rows 40; exec ${tma}`, "/dev/null"],
    env: t.env({ TERM: "xterm-256color", LANG: "C.UTF-8" }),
    clearEnv: true,
    stdin: "piped",
    stdout: "piped",
    stderr: "null",
  }).spawn();
  let seen = "";
  let at = -1;
  const decoder = new TextDecoder();
  for await (const chunk of child.stdout) {
    seen += decoder.decode(chunk, { stream: true });
    if (seen.includes(until)) {
      at = performance.now() - started;
      break;
    }
  }
  try {
    child.kill("SIGKILL");
  } catch {
    // Already ended (--version).
  }
  await child.status;
  await child.stdin.close().catch(() => undefined);
  if (at < 0) throw new Error(`never saw ${JSON.stringify(until)} from tma ${args.join(" ")}`);
  return at;
}

async function fleet(t: ScratchTmux, panes: number): Promise<void> {
  for (let i = 0; i < panes; i++) {
    const standIn = await t.standIn("claude", { title: "✳ Claude Code" });
    await standIn.draw(IDLE);
  }
  await runTma(t, ["status"]); // stamps on the server, as a status line leaves them
}

/** The picker's first frame at `panes` panes, paired with `tma --version`. */
async function firstFrame(t: ScratchTmux, panes: number) {
  const frame: number[] = [];
  const version: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    version.push(await timeToOutput(t, ["--version"], "tma "));
    frame.push(await timeToOutput(t, [], `${panes} agents`));
  }
  return {
    panes,
    first_frame_ms: Math.round(middle(frame)),
    version_ms: Math.round(middle(version)),
    over_version: Number(middle(frame.map((ms, i) => ms / version[i])).toFixed(2)),
  };
}

/** One `jump --attention` at `panes` panes with a client attached, paired with `tma --version`. */
async function jumpAttention(t: ScratchTmux, panes: number) {
  // Two blocked panes, so every jump has somewhere to go.
  for (
    const pane of (await t.tmux("list-panes", "-a", "-F", "#{pane_id}")).trim().split("\n").slice(
      1,
      3,
    )
  ) {
    await t.tmux("set-option", "-p", "-t", pane, "@agent_attention", "1");
  }
  const client = await attachClient(t, "main");
  try {
    const jump: number[] = [];
    const version: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      let start = performance.now();
      await runTma(t, ["--version"]);
      version.push(performance.now() - start);
      start = performance.now();
      const out = await runTma(t, ["jump", "--attention", "--client", client.name]);
      jump.push(performance.now() - start);
      if (out.code !== 0) throw new Error(`jump failed: ${out.stderr}`);
      // Re-raise so the next run has the same work.
      for (
        const pane of (await t.tmux("list-panes", "-a", "-F", "#{pane_id}")).trim().split("\n")
          .slice(1, 3)
      ) {
        await t.tmux("set-option", "-p", "-t", pane, "@agent_attention", "1");
      }
    }
    return {
      panes,
      jump_ms: Math.round(middle(jump)),
      version_ms: Math.round(middle(version)),
      over_version: Number(middle(jump.map((ms, i) => ms / version[i])).toFixed(2)),
    };
  } finally {
    await client.close();
  }
}

/** Both figures at 100 panes; null where `script` (util-linux) is missing. */
export async function benchSurfaces(panes = 100) {
  if (!HAS_SCRIPT) return null;
  return await withScratchTmux(async (t) => {
    await fleet(t, panes);
    return { picker: await firstFrame(t, panes), jump: await jumpAttention(t, panes) };
  });
}

if (import.meta.main) console.log(JSON.stringify(await benchSurfaces()));

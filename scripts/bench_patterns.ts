/**
 * What a user manifest's patterns cost at start-up (issue 13 item 1): a
 * user manifest is read with its patterns compiled for the linear-time
 * engine (re2js, loaded then), while the bundled ones keep the native
 * engine. The user manifest here is a copy of the bundled `claude.toml`
 * under `$XDG_CONFIG_HOME/tma/agents/`, so both sides read the same rules and
 * differ only in the loader and the engine.
 *
 * Each run measures, back to back under the same load:
 *
 * - the floors: `deno run --no-config` of an empty file outside the
 *   repository, and `sh -c :`;
 * - `tma status` over 10 stand-in claude panes with the bundled manifests,
 *   then with the user copy;
 * - `tma event --agent claude --kind PreToolUse` on one pane, the same way.
 *
 * Figures are medians of the per-run ratios (user copy over bundled; each
 * over the empty Deno run beside it).
 *
 * ```sh
 * deno run --allow-read --allow-write --allow-env --allow-run --allow-sys=hostname scripts/bench_patterns.ts
 * ```
 * @module
 */
import { BUNDLED_AGENTS } from "../src/assets/bundled.ts";
import { payload } from "../tests/harness/hook.ts";
import { runTma, type ScratchTmux, withScratchTmux } from "../tests/harness/tmux.ts";
import { middle, timed } from "./bench_pairs.ts";

const RUNS = Number(Deno.env.get("TMA_BENCH_RUNS") ?? "9");
const PANES = 10;

/** A ratio rounded for the report. */
function ratio(values: number[]): number {
  return Number(middle(values).toFixed(2));
}

const IDLE = "❯ \n" + "─".repeat(78) + "\n  ⏵⏵ accept edits on (shift+tab to cycle)";

/** The figures, or throws when a measured run fails. */
export async function benchPatterns() {
  const outside = await Deno.makeTempDir({ prefix: "tma-bench-floor-" });
  const empty = `${outside}/empty.ts`;
  await Deno.writeTextFile(empty, "\n");
  try {
    return await withScratchTmux(async (t: ScratchTmux) => {
      const panes: string[] = [];
      for (let i = 0; i < PANES; i++) {
        const standIn = await t.standIn("claude", { title: "✳ Claude Code" });
        await standIn.draw(IDLE);
        panes.push(standIn.pane);
      }
      const userConfig = `${t.dir}/user-config`;
      await Deno.mkdir(`${userConfig}/tma/agents`, { recursive: true });
      await Deno.writeTextFile(`${userConfig}/tma/agents/claude.toml`, BUNDLED_AGENTS.claude);
      const user = { XDG_CONFIG_HOME: userConfig };
      const checked = async (args: string[], env: Record<string, string> = {}, stdin = "") => {
        const ran = await runTma(t, args, { env, stdin });
        if (ran.code !== 0 || ran.stderr.includes("claude.toml")) {
          throw new Error(`tma ${args.join(" ")}: exit ${ran.code}: ${ran.stderr}`);
        }
      };
      const event = [
        "event",
        "--agent",
        "claude",
        "--kind",
        "PreToolUse",
        "--pane",
        panes[0],
        "--payload",
        "-",
      ];
      const hookPayload = payload("claude", "PreToolUse");
      const rows = {
        floor_deno: [] as number[],
        floor_sh: [] as number[],
        status_bundled: [] as number[],
        status_user: [] as number[],
        event_bundled: [] as number[],
        event_user: [] as number[],
      };
      for (let run = 0; run < RUNS; run++) {
        rows.floor_deno.push(
          await timed(() =>
            new Deno.Command(Deno.execPath(), {
              args: ["run", "--no-config", "--quiet", empty],
              cwd: outside,
            }).output()
          ),
        );
        rows.floor_sh.push(
          await timed(() => new Deno.Command("sh", { args: ["-c", ":"] }).output()),
        );
        rows.status_bundled.push(await timed(() => checked(["status"])));
        rows.status_user.push(await timed(() => checked(["status"], user)));
        rows.event_bundled.push(await timed(() => checked(event, {}, hookPayload)));
        rows.event_user.push(await timed(() => checked(event, user, hookPayload)));
      }
      const ms = (values: number[]) => Math.round(middle(values));
      const over = (a: number[], b: number[]) => ratio(a.map((v, i) => v / b[i]));
      return {
        runs: RUNS,
        panes: PANES,
        floor_deno_ms: ms(rows.floor_deno),
        floor_sh_ms: ms(rows.floor_sh),
        status_bundled_ms: ms(rows.status_bundled),
        status_user_ms: ms(rows.status_user),
        status_user_over_bundled: over(rows.status_user, rows.status_bundled),
        status_bundled_over_floor: over(rows.status_bundled, rows.floor_deno),
        status_user_over_floor: over(rows.status_user, rows.floor_deno),
        event_bundled_ms: ms(rows.event_bundled),
        event_user_ms: ms(rows.event_user),
        event_user_over_bundled: over(rows.event_user, rows.event_bundled),
        event_bundled_over_floor: over(rows.event_bundled, rows.floor_deno),
        event_user_over_floor: over(rows.event_user, rows.floor_deno),
      };
    });
  } finally {
    await Deno.remove(outside, { recursive: true });
  }
}

if (import.meta.main) console.log(JSON.stringify(await benchPatterns(), null, 2));

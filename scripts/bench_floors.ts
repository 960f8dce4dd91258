/**
 * The floors under issue 14's budgets: what any Deno program pays to do the
 * outside work a hook fire and a quiet status poll must do, with none of
 * tma's own code. Each floor is a `tma` stand-in (a flavor of
 * scripts/bench_subjects.ts) that runs a few lines of Deno from a folder with
 * no deno.json (`deno run --no-config`, like the empty-script reference):
 *
 * - the hook floor reads the payload from stdin and makes the intake's two
 *   tmux calls, the `list-panes -a` of every pane with its options and one
 *   guarded write chain of a working claim fed to `source-file -`;
 * - the status floor makes a cycle's two outside reads at once, the
 *   `list-panes -a` carrying the poll mark and the one `ps -A`.
 *
 * Timed through the same wrapper and against the same references as tma, a
 * floor over its reference is the least the budget's figure could be.
 *
 * ```ts
 * const floors = await floorTmas();
 * floors.hook.bin; // a tma stand-in to put on the wrapper's PATH
 * await floors.dispose();
 * ```
 * @module
 */
import { PS_ARGS } from "../src/tmux/ps.ts";
import { formatOf } from "../src/tmux/panes.ts";
import { PANE_OPTIONS } from "../src/core/snapshot.ts";
import { chainCommands } from "../src/tmux/writer.ts";
import { quoteScriptArg } from "../src/tmux/exec.ts";
import type { TmaFlavor } from "./bench_subjects.ts";

/** The two floors, and the folder that holds them. */
export interface Floors {
  hook: TmaFlavor;
  status: TmaFlavor;
  dispose(): Promise<void>;
}

/**
 * The floor program: runs its calls (argv and optional stdin) in order, or
 * all at once, reading stdin first when it has one. Of the arguments after
 * the calls file (tma's own flags, passed by the wrapper), `--socket-name`
 * goes to every tmux call and `--pane` replaces `@pane`; `@now` becomes the
 * time of the run.
 */
const FLOOR_PROGRAM = `
const [callsFile, ...rest] = Deno.args;
const { calls, together, readsStdin } = JSON.parse(Deno.readTextFileSync(callsFile));
const flag = (name) => rest.includes(name) ? rest[rest.indexOf(name) + 1] : undefined;
const socket = flag("--socket-name");
const pane = flag("--pane") ?? "";
const now = String(Date.now());
const fill = (text) => text.replaceAll("@now", now).replaceAll("@pane", pane);
if (readsStdin) {
  const buffer = new Uint8Array(65536);
  while ((await Deno.stdin.read(buffer)) !== null);
}
async function call({ program, args: template, stdin: input }) {
  const args = template.map(fill);
  const stdin = input === undefined ? undefined : fill(input);
  const argv = program === "tmux" ? ["-u", "-L", socket, ...args] : args;
  const child = new Deno.Command(program, {
    args: argv,
    stdin: stdin === undefined ? "null" : "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  if (stdin !== undefined) {
    const writer = child.stdin.getWriter();
    await writer.write(new TextEncoder().encode(stdin));
    await writer.close();
  }
  const out = await child.output();
  return new TextDecoder().decode(out.stdout);
}
if (together) await Promise.all(calls.map(call));
else for (const c of calls) await call(c);
Deno.exit(0);
`;

/** One floor call: a program, its arguments, and what it reads on stdin. */
interface FloorCall {
  program: "tmux" | "ps";
  args: string[];
  stdin?: string;
}

/**
 * The guarded write chain of a working claim, as the intake writes it (one
 * line), on the pane the wrapper names.
 */
function claimScript(): string {
  const now = "@now";
  const commands = chainCommands({
    pane: "@pane",
    guard: `#{&&:#{==:#{@agent_name},claude},#{e|<=:#{@tma_hook_at},${now}}}`,
    writes: [
      { name: "@agent_name", value: "claude" },
      { name: "@tma_hook_at", value: now },
      { name: "@agent_since", value: now },
      { name: "@agent_state", value: "working" },
      { name: "@agent_detail", value: null },
      { name: "@agent_source", value: "hook" },
      { name: "@agent_evidence_at", value: now },
      { name: "@agent_permission_request", value: null },
      { name: "@agent_question_request", value: null },
      { name: "@agent_stamped_at", value: now },
    ],
  }, `${crypto.randomUUID()}:0`);
  return commands.map((command) => command.map(quoteScriptArg).join(" ")).join(" ; ") + "\n";
}

/** Writes one floor: its calls file and a `tma` that runs the program on them. */
async function floor(
  dir: string,
  name: string,
  spec: { calls: FloorCall[]; together: boolean; readsStdin: boolean },
): Promise<TmaFlavor> {
  const binDir = `${dir}/${name}`;
  await Deno.mkdir(binDir);
  await Deno.writeTextFile(`${binDir}/calls.json`, JSON.stringify(spec));
  const bin = `${binDir}/tma`;
  await Deno.writeTextFile(
    bin,
    `#!/bin/sh\nexec '${Deno.execPath()}' run --no-config --quiet --allow-read --allow-run ` +
      `'${dir}/floor.js' '${binDir}/calls.json' "$@"\n`,
  );
  await Deno.chmod(bin, 0o755);
  return { name: `${name} floor`, bin, binDir, dispose: () => Promise.resolve() };
}

/** Builds both floors in a temporary folder with no deno.json. */
export async function floorTmas(): Promise<Floors> {
  const dir = await Deno.makeTempDir({ prefix: "tma-bench-floor-" });
  await Deno.writeTextFile(`${dir}/floor.js`, FLOOR_PROGRAM);
  const listing = ["list-panes", "-a", "-F", formatOf(PANE_OPTIONS)];
  const hook = await floor(dir, "hook", {
    calls: [
      { program: "tmux", args: listing },
      { program: "tmux", args: ["source-file", "-"], stdin: claimScript() },
    ],
    together: false,
    readsStdin: true,
  });
  const status = await floor(dir, "status", {
    calls: [
      {
        program: "tmux",
        args: [...listing, ";", "set-option", "-s", "@tma_last_poll", "@now"],
      },
      { program: "ps", args: [...PS_ARGS] },
    ],
    together: true,
    readsStdin: false,
  });
  return {
    hook,
    status,
    dispose: () => Deno.remove(dir, { recursive: true }).catch(() => undefined),
  };
}

/**
 * What `tma wait` does with a cycle's verdict (C38-C42), local or across
 * hosts: an exit says why on stderr; a satisfied wait prints its row (or,
 * for `--all`, its document) as JSON or C17 lines and exits 0; a hint goes
 * to stderr once. Only the JSON object of a row differs between the two.
 * @module
 */
import { EXIT } from "../core/errors.ts";
import { type AgentRow, plainLine } from "../core/rows.ts";
import type { WaitVerdict } from "../core/wait.ts";
import type { CommandContext } from "./context.ts";

/** The exit code when the verdict ends the wait, else null (wait on). */
export function endOfWait(
  ctx: CommandContext,
  verdict: WaitVerdict,
  output: { json: boolean; object: (row: AgentRow) => object },
): number | null {
  if (verdict.kind === "exit") {
    ctx.err(`tma: ${verdict.message}\n`);
    return verdict.code;
  }
  if (verdict.kind === "satisfied") {
    if (output.json) {
      const objects = verdict.rows.map(output.object);
      const doc = verdict.document ? { schema: 1, agents: objects } : { schema: 1, ...objects[0] };
      ctx.out(`${JSON.stringify(doc)}\n`);
    } else {
      for (const row of verdict.rows) ctx.out(`${plainLine(row)}\n`);
    }
    return EXIT.ok;
  }
  if (verdict.hint !== null) ctx.err(`tma: wait: ${verdict.hint}\n`);
  return null;
}

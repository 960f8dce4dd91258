/** `tma version` (C8). @module */
import type { CommandContext } from "../context.ts";
import { versionLine } from "../../core/version.ts";

/** Prints `tma <version>`. */
export function run(ctx: CommandContext): Promise<number> {
  ctx.out(`${versionLine()}\n`);
  return Promise.resolve(0);
}

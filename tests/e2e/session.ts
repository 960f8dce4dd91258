/**
 * One real-agent run: a scratch root, the mock model, a private tmux server, and a cleanup that
 * always runs (tmux killed, every process of the run ended by pid, the scratch root removed; the
 * agents' TMPDIR is inside it, so their temporary leftovers go with it).
 *
 * ```ts
 * import { withE2eSession } from "./session.ts";
 * await withE2eSession(async ({ root, mock, tmux }) => {
 *   // prepare agents under root, point them at mock.url, run them in tmux
 * });
 * ```
 * @module
 */

import { serverEnv } from "./agents.ts";
import { killRunProcesses, newTmpLeftovers, tmpLeftoversPresent } from "./cleanup.ts";
import { type MockModel, startMockModel } from "./mock_model.ts";
import { ScratchTmux } from "./tmux.ts";

/** What a run's body gets. */
export interface E2eSession {
  /** The scratch root (removed afterwards unless `keep` is set). */
  root: string;
  /** The mock model server. */
  mock: MockModel;
  /** The private tmux server. */
  tmux: ScratchTmux;
}

/** Options of {@link withE2eSession}. */
export interface E2eSessionOptions {
  /** Keep the scratch root for inspection (processes are still ended). */
  keep?: boolean;
  /** Called with a line for each cleanup step worth knowing about. */
  log?: (line: string) => void;
}

/** Runs `body` inside a fresh session and always cleans up. */
export async function withE2eSession<T>(
  body: (session: E2eSession) => Promise<T>,
  options: E2eSessionOptions = {},
): Promise<T> {
  const log = options.log ?? (() => {});
  const before = tmpLeftoversPresent();
  const root = await Deno.makeTempDir({ prefix: "tma-e2e-" });
  let mock: MockModel | undefined;
  let tmux: ScratchTmux | undefined;
  try {
    mock = await startMockModel();
    tmux = await ScratchTmux.start({ env: serverEnv(root) });
    return await body({ root, mock, tmux });
  } finally {
    if (tmux) await tmux.kill().catch((e) => log(`tmux kill-server: ${e}`));
    const killed = await killRunProcesses(root);
    if (killed.length > 0) log(`ended ${killed.length} leftover process(es): ${killed.join(" ")}`);
    if (mock) await mock.close();
    const appeared = newTmpLeftovers(before);
    if (appeared.length > 0) {
      log(`appeared in the system temporary folder (not removed): ${appeared.join(", ")}`);
    }
    if (options.keep) log(`kept ${root}`);
    else await Deno.remove(root, { recursive: true }).catch((e) => log(`remove ${root}: ${e}`));
  }
}

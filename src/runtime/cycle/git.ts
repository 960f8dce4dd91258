/**
 * Git labels of a cwd: one bounded `git` call per distinct cwd, memoized for
 * the invocation (D61). Any failure degrades to nulls.
 * @module
 */
import type { GitLabels } from "../../core/rows.ts";
import { spawnWithDeadline } from "../../tmux/spawn.ts";

const NO_REPO: GitLabels = { repo: null, branch: null, worktree: null };
const GIT_TIMEOUT_MS = 1500;

/** Resolves git labels with a per-cwd memo. */
export class GitLabeler {
  #memo = new Map<string, Promise<GitLabels>>();

  /** The labels of `cwd`. */
  labels(cwd: string): Promise<GitLabels> {
    let hit = this.#memo.get(cwd);
    if (!hit) {
      hit = lookup(cwd);
      this.#memo.set(cwd, hit);
    }
    return hit;
  }
}

async function lookup(cwd: string): Promise<GitLabels> {
  if (!cwd) return NO_REPO;
  try {
    const out = await spawnWithDeadline("git", [
      "-C",
      cwd,
      "rev-parse",
      "--path-format=absolute",
      "--git-common-dir",
      "--git-dir",
      "--abbrev-ref",
      "HEAD",
    ], { timeoutMs: GIT_TIMEOUT_MS });
    if (out === "timeout" || out.code !== 0) return NO_REPO;
    const [commonDir, gitDir, head] = out.stdout.trim().split("\n");
    if (!commonDir || !gitDir) return NO_REPO;
    // The repo is named by its origin checkout, so linked worktrees match too.
    const parent = commonDir.replace(/\/\.git\/?$/, "").replace(/\/$/, "");
    const repo = parent.split("/").pop() || null;
    return { repo, branch: head || "HEAD", worktree: commonDir !== gitDir };
  } catch {
    return NO_REPO;
  }
}

/**
 * Fuzzy ranking with the fzf algorithm (`npm:fzf`), so the picker ranks the
 * way fzf users' fingers expect: best match first, ties in the given order.
 * Loaded on the first keystroke, not for the first frame.
 *
 * ```ts
 * import { fzfRanker } from "./fuzzy.ts";
 * const rank = fzfRanker();
 * rank(["claude main:1.0", "codex dev:2.0"], "cdx", (s) => s); // ["codex dev:2.0"]
 * ```
 * @module
 */
import { Fzf } from "../deps/fzf.ts";

/** Ranks `items` against `query` by the text `textOf` gives each; non-matches are left out. */
export type Ranker = <T>(items: readonly T[], query: string, textOf: (item: T) => string) => T[];

/** A ranker over fzf's v2 algorithm, smart case. */
export function fzfRanker(): Ranker {
  return <T>(items: readonly T[], query: string, textOf: (item: T) => string): T[] => {
    if (query === "") return [...items];
    const entries = items.map((item, i) => ({ i, text: textOf(item) }));
    const fzf = new Fzf(entries, {
      selector: (entry: { i: number; text: string }) => entry.text,
      casing: "smart-case",
    });
    return fzf.find(query).map((found) => items[found.item.i]);
  };
}

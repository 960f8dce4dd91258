/** fzf, pinned: the fzf matching algorithm in JavaScript, so the picker ranks like fzf does. */
export { Fzf } from "npm:fzf@0.5.2";
export type { FzfResultItem } from "npm:fzf@0.5.2";

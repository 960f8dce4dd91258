/** dax, pinned: the shell-out helper for cold paths (never imported by the hook intake). */
export { $ } from "npm:dax-sh@0.44.1";

/**
 * The command table as data, without the loaders: what `main` hands the
 * commands that describe the CLI itself (`help`, `completions`), so their
 * modules need not import the table that loads them (no import cycle).
 * @module
 */
import type { FlagSpec } from "./args.ts";

/** One command as help and completions read it. */
export interface TableEntry {
  name: string;
  summary: string;
  usage: string;
  flags: readonly FlagSpec[];
  hidden?: boolean;
  /** Called by tma's own integrations, not by people: listed in help, left out of completions. */
  internal?: boolean;
  /** The fixed values of its first argument, for completions (C94). */
  args?: readonly string[];
  /** Examples for `--help`: each a command line, then what it does. */
  examples?: readonly (readonly [string, string])[];
}

/** The whole table as data. */
export interface TableView {
  commands: readonly TableEntry[];
  globals: readonly FlagSpec[];
}

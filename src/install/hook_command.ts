/**
 * The command line an agent config runs to reach tma: `<wrapper> <agent>
 * <event>`. tma recognises its own entries by the wrapper's file name plus
 * the agent argument, so entries an older install wrote at another wrapper
 * path are found (and repointed or removed) too.
 * @module
 */
import { baseName, shellQuote, splitShellWords } from "./shell.ts";

/** The wrapper's file name (I1). */
export const WRAPPER_NAME = "tma-hook";

/** A parsed tma hook command. */
export interface TmaHookCommand {
  /** The wrapper as written (a path, or the bare name). */
  wrapper: string;
  agent: string;
  event: string;
}

/**
 * The command string for one event.
 *
 * ```ts
 * hookCommand("/home/u/.local/bin/tma-hook", "claude", "Stop");
 * // "/home/u/.local/bin/tma-hook claude Stop"
 * ```
 */
export function hookCommand(wrapperRef: string, agent: string, event: string): string {
  return `${shellQuote(wrapperRef)} ${agent} ${event}`;
}

/** Parses an argv (Codex `notify`) as a tma hook call, or `undefined`. */
export function parseHookArgv(argv: readonly unknown[]): TmaHookCommand | undefined {
  if (argv.length !== 3 || !argv.every((w) => typeof w === "string")) return undefined;
  const [wrapper, agent, event] = argv as string[];
  if (baseName(wrapper) !== WRAPPER_NAME) return undefined;
  return { wrapper, agent, event };
}

/**
 * Parses a command string as a tma hook call, or `undefined` when it is
 * anything else (the user's own hooks).
 *
 * ```ts
 * parseHookCommand("'/a b/tma-hook' claude Stop"); // { wrapper: "/a b/tma-hook", agent: "claude", event: "Stop" }
 * parseHookCommand("echo hi"); // undefined
 * ```
 */
export function parseHookCommand(command: string): TmaHookCommand | undefined {
  const words = splitShellWords(command.trim());
  return words ? parseHookArgv(words) : undefined;
}

/** Whether `command` is a tma hook call for `agent` (any event, any wrapper path). */
export function isTmaCommandFor(command: unknown, agent: string): boolean {
  return typeof command === "string" && parseHookCommand(command)?.agent === agent;
}

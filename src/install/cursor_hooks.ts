/**
 * Cursor's user-level `~/.cursor/hooks.json` (I51), in Cursor's own shape:
 * `{"version": 1, "hooks": {"<event>": [{"command": "…"}]}}`. tma adds
 * `version` only when the file lacks it, and an uninstall that leaves that
 * key alone in the file removes it too.
 * @module
 */
import { isObject } from "../core/object.ts";
import { InstallError } from "./errors.ts";
import { hookCommand, parseHookCommand } from "./hook_command.ts";
import {
  insertValue,
  type KeepContainer,
  nodeAt,
  objectAt,
  parseDoc,
  removeValue,
  replaceValue,
  valueAt,
} from "./json_doc.ts";
import { type FoundEntry, reportWiring, type Wiring, type WiringReport } from "./wiring.ts";

interface Found extends FoundEntry {
  index: number;
}

function findEntries(path: string, text: string, agent: string): Found[] {
  const hooks = objectAt(parseDoc(path, text), "hooks");
  if (hooks === undefined) return [];
  const found: Found[] = [];
  for (const [event, list] of Object.entries(hooks)) {
    if (!Array.isArray(list)) continue;
    list.forEach((entry, index) => {
      if (!isObject(entry) || typeof entry.command !== "string") return;
      const parsed = parseHookCommand(entry.command);
      if (parsed?.agent === agent) {
        found.push({ event, index, command: entry.command, argEvent: parsed.event });
      }
    });
  }
  return found;
}

function isEmpty(value: unknown): boolean {
  return (Array.isArray(value) && value.length === 0) ||
    (isObject(value) && Object.keys(value).length === 0);
}

function removeEntry(
  path: string,
  text: string,
  entry: Found,
  keep: KeepContainer = () => false,
): string {
  let out = removeValue(text, ["hooks", entry.event, entry.index]);
  if (
    isEmpty(valueAt(parseDoc(path, out), ["hooks", entry.event])) && !keep(["hooks", entry.event])
  ) {
    out = removeValue(out, ["hooks", entry.event]);
  }
  if (isEmpty(valueAt(parseDoc(path, out), ["hooks"])) && !keep(["hooks"])) {
    out = removeValue(out, ["hooks"]);
  }
  return out;
}

/** Writes tma's entries (idempotent; older wrapper paths repointed in place). */
export function installCursorHooks(text: string, path: string, wiring: Wiring): string {
  let out = parseDoc(path, text).text;
  findEntries(path, out, wiring.agent); // refuses a "hooks" that is not an object
  if (nodeAt(parseDoc(path, out), ["version"]) === undefined) {
    out = insertValue(out, ["version"], 1);
  }
  if (nodeAt(parseDoc(path, out), ["hooks"]) === undefined) out = insertValue(out, ["hooks"], {});
  for (const event of wiring.events) {
    const desired = hookCommand(wiring.wrapperRef, wiring.agent, event);
    const list = valueAt(parseDoc(path, out), ["hooks", event]);
    if (list === undefined) {
      out = insertValue(out, ["hooks", event], [{ command: desired }]);
      continue;
    }
    if (!Array.isArray(list)) {
      throw new InstallError(`${path}: "hooks.${event}" is not an array; fix it by hand`, path);
    }
    const mine = findEntries(path, out, wiring.agent).filter((f) =>
      f.event === event && f.argEvent === event
    );
    if (mine.length === 0) {
      out = insertValue(out, ["hooks", event, -1], { command: desired });
      continue;
    }
    for (const extra of mine.slice(1).reverse()) out = removeEntry(path, out, extra);
    if (mine[0].command !== desired) {
      out = replaceValue(out, ["hooks", event, mine[0].index, "command"], desired);
    }
  }
  return out;
}

/**
 * Removes every tma entry, and a `version` key left on its own, keeping what
 * `keep` says the user's original had.
 */
export function uninstallCursorHooks(
  text: string,
  path: string,
  agent: string,
  keep: KeepContainer = () => false,
): string {
  const doc = parseDoc(path, text);
  const entries = findEntries(path, doc.text, agent);
  if (entries.length === 0) return text;
  let out = doc.text;
  for (const entry of entries.reverse()) out = removeEntry(path, out, entry, keep);
  const rest = valueAt(parseDoc(path, out), []);
  if (
    isObject(rest) && Object.keys(rest).length === 1 && "version" in rest && !keep(["version"])
  ) {
    out = removeValue(out, ["version"]);
  }
  return out;
}

/** Reads how far Cursor's hooks.json is wired. */
export function inspectCursorHooks(text: string, path: string, wiring: Wiring): WiringReport {
  const report = reportWiring(findEntries(path, text, wiring.agent), wiring);
  const version = valueAt(parseDoc(path, text), ["version"]);
  if (report.anyTma && version !== 1) {
    report.problems.push(`"version" is ${JSON.stringify(version)}, not 1`);
  }
  return report;
}

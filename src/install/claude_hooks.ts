/**
 * The Claude-shape `hooks` block: Claude Code's `settings.json`, Codex's
 * `hooks.json` and Gemini's `settings.json` all hold
 * `{"hooks": {"<Event>": [{"hooks": [{"type": "command", "command": "…"}]}]}}`
 * (I11, I23, I33). tma adds one group per event with no matcher (the manifest
 * applies matchers), with `"async": true` exactly on the events the wiring
 * names (Claude's, but `PermissionRequest`, which must stamp the pane before
 * the dialog draws and answers it: X10, I11).
 * @module
 */
import { isObject } from "../core/object.ts";
import { InstallError } from "./errors.ts";
import { hookCommand, parseHookCommand } from "./hook_command.ts";
import {
  insertValue,
  type JsonDoc,
  type KeepContainer,
  nodeAt,
  objectAt,
  parseDoc,
  removeValue,
  replaceValue,
  valueAt,
} from "./json_doc.ts";
import { type FoundEntry, reportWiring, type Wiring, type WiringReport } from "./wiring.ts";

/** One tma command found in a Claude-shape hooks block. */
interface Found extends FoundEntry {
  group: number;
  hook: number;
  async: boolean;
  matcher: unknown;
}

/** Every tma entry for `agent`, in document order. */
function findEntries(doc: JsonDoc, agent: string): Found[] {
  const hooks = objectAt(doc, "hooks");
  if (hooks === undefined) return [];
  const found: Found[] = [];
  for (const [event, groups] of Object.entries(hooks)) {
    if (!Array.isArray(groups)) continue;
    groups.forEach((group, g) => {
      if (!isObject(group) || !Array.isArray(group.hooks)) return;
      group.hooks.forEach((hook, h) => {
        if (!isObject(hook) || typeof hook.command !== "string") return;
        const parsed = parseHookCommand(hook.command);
        if (parsed?.agent !== agent) return;
        found.push({
          event,
          group: g,
          hook: h,
          command: hook.command,
          argEvent: parsed.event,
          async: hook.async === true,
          matcher: group.matcher,
        });
      });
    });
  }
  return found;
}

/** Removes one hook entry, then every container it leaves empty that `keep` does not claim. */
function removeEntry(text: string, entry: Found, keep: KeepContainer = () => false): string {
  const groupPath = ["hooks", entry.event, entry.group];
  let out = removeValue(text, [...groupPath, "hooks", entry.hook]);
  const check = (t: string, p: (string | number)[]) => {
    const v = valueAt(parseDoc("", t), p);
    return (Array.isArray(v) && v.length === 0) || (isObject(v) && Object.keys(v).length === 0);
  };
  if (check(out, [...groupPath, "hooks"]) && !keep(groupPath)) {
    const group = valueAt(parseDoc("", out), groupPath);
    // A group that only carried tma's hook (and maybe a matcher) goes too.
    if (isObject(group) && Object.keys(group).every((k) => k === "hooks" || k === "matcher")) {
      out = removeValue(out, groupPath);
    }
  }
  if (check(out, ["hooks", entry.event]) && !keep(["hooks", entry.event])) {
    out = removeValue(out, ["hooks", entry.event]);
  }
  if (check(out, ["hooks"]) && !keep(["hooks"])) out = removeValue(out, ["hooks"]);
  return out;
}

function newGroup(command: string, async: boolean): unknown {
  return { hooks: [{ type: "command", command, ...(async ? { async: true } : {}) }] };
}

/** Whether the wiring wants `event`'s entry async. */
function wantsAsync(wiring: Wiring, event: string): boolean {
  return wiring.asyncEvents?.includes(event) ?? false;
}

/**
 * Writes tma's entries into a Claude-shape settings text: one group per
 * missing event, an older wrapper path repointed in place, duplicates
 * dropped, and the `async` flag set on exactly the events the wiring names
 * (an older synchronous entry is upgraded in place). Re-running on its own
 * output returns the same text.
 *
 * ```ts
 * installClaudeHooks("{}\n", "/h/settings.json", { agent: "claude", events: ["Stop"], wrapperRef: "/b/tma-hook" });
 * ```
 */
export function installClaudeHooks(text: string, path: string, wiring: Wiring): string {
  let doc = parseDoc(path, text);
  findEntries(doc, wiring.agent); // refuses a "hooks" that is not an object
  let out = doc.text;
  // tma's entries under events it no longer wires go first (an agent build
  // that rejects an event warns about it at every start), from the back so
  // the indexes of the rest stay valid.
  for (const entry of retired(doc, wiring).reverse()) out = removeEntry(out, entry);
  doc = parseDoc(path, out);
  if (nodeAt(doc, ["hooks"]) === undefined) out = insertValue(out, ["hooks"], {});
  for (const event of wiring.events) {
    const desired = hookCommand(wiring.wrapperRef, wiring.agent, event);
    doc = parseDoc(path, out);
    const list = valueAt(doc, ["hooks", event]);
    const async = wantsAsync(wiring, event);
    if (list === undefined) {
      out = insertValue(out, ["hooks", event], [newGroup(desired, async)]);
      continue;
    }
    if (!Array.isArray(list)) {
      throw new InstallError(
        `${path}: "hooks.${event}" is not an array; fix it by hand (tma left the file untouched)`,
        path,
      );
    }
    const mine = findEntries(doc, wiring.agent).filter((f) =>
      f.event === event && f.argEvent === event
    );
    if (mine.length === 0) {
      out = insertValue(out, ["hooks", event, -1], newGroup(desired, async));
      continue;
    }
    // Duplicates go first (from the back, so earlier indexes stay valid).
    for (const extra of mine.slice(1).reverse()) out = removeEntry(out, extra);
    const keep = mine[0];
    const base = ["hooks", event, keep.group, "hooks", keep.hook];
    if (keep.command !== desired) out = replaceValue(out, [...base, "command"], desired);
    if (keep.async && !async) out = removeValue(out, [...base, "async"]);
    if (!keep.async && async) out = insertValue(out, [...base, "async"], true);
  }
  return out;
}

/** tma's entries for the agent under an event it does not wire, in document order. */
function retired(doc: JsonDoc, wiring: Wiring): Found[] {
  return findEntries(doc, wiring.agent).filter((f) => !wiring.events.includes(f.event));
}

/**
 * Removes every tma entry for the agent (any event, any wrapper path), and
 * the containers that leaves empty unless `keep` says the user had them.
 */
export function uninstallClaudeHooks(
  text: string,
  path: string,
  agent: string,
  keep: KeepContainer = () => false,
): string {
  const doc = parseDoc(path, text);
  let out = doc.text;
  // From the back, so the indexes of the entries still to remove stay valid.
  for (const entry of findEntries(doc, agent).reverse()) out = removeEntry(out, entry, keep);
  return out === doc.text ? text : out;
}

/** Reads how far a Claude-shape text is wired. */
export function inspectClaudeHooks(text: string, path: string, wiring: Wiring): WiringReport {
  const doc = parseDoc(path, text);
  return reportWiring(findEntries(doc, wiring.agent), wiring, (event, mine) => [
    ...(wantsAsync(wiring, event)
      ? mine.some((f) => !f.async)
        ? [`${event} entry is not async (the agent waits on it; rerun install-hooks)`]
        : []
      : mine.some((f) => f.async)
      ? [`${event} entry is async (it must not be)`]
      : []),
    ...(mine.some((f) => typeof f.matcher === "string" && f.matcher !== "" && f.matcher !== "*")
      ? [`${event} entry sits under a matcher (tma applies its own)`]
      : []),
  ]);
}

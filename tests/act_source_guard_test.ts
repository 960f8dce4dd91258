/**
 * R6, A19: `send-keys` is built only by the keystroke adapter. No other
 * file of the program (everything under `src/`, and `mod.ts`) may contain
 * the word, so no path can type into a pane around the broker. Tests may
 * (the end-to-end harness drives real agents with it).
 */
import { assertEquals } from "./harness/assert.ts";

const ROOT = new URL("../", import.meta.url);
const ADAPTER = "src/tmux/keys.ts";

async function* sources(dir: URL, prefix: string): AsyncGenerator<string> {
  for await (const entry of Deno.readDir(dir)) {
    const path = `${prefix}${entry.name}`;
    if (entry.isDirectory) yield* sources(new URL(`${entry.name}/`, dir), `${path}/`);
    else if (/\.(ts|js|mjs|sh|toml)$/.test(entry.name)) yield path;
  }
}

Deno.test("send-keys R6, A19: only src/tmux/keys.ts contains send-keys", async () => {
  const offenders: string[] = [];
  const files = ["mod.ts"];
  for await (const path of sources(new URL("src/", ROOT), "src/")) files.push(path);
  for (const path of files) {
    if (path === ADAPTER) continue;
    const text = await Deno.readTextFile(new URL(path, ROOT));
    if (/send-keys/i.test(text)) offenders.push(path);
  }
  assertEquals(offenders, [], "build send-keys only in src/tmux/keys.ts");
  const adapter = await Deno.readTextFile(new URL(ADAPTER, ROOT));
  assertEquals(adapter.includes('"send-keys"'), true, "the adapter still builds it");
});

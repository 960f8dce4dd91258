import { assertEquals, assertRejects } from "../../tests/harness/assert.ts";
import { LiveSettings } from "./live_settings.ts";

Deno.test("LiveSettings G4 C73 R18: a broken reload keeps the last good config and says so once", async () => {
  const dir = await Deno.makeTempDir();
  const path = `${dir}/config.toml`;
  const warned: string[] = [];
  const live = new LiveSettings({
    globals: { config: path, noConfig: false, manifestDir: `${dir}/agents` },
    env: (name) => (name === "HOME" ? dir : undefined),
    warn: (line) => warned.push(line),
  });
  try {
    await Deno.writeTextFile(path, "[fold]\ndwell_secs = 7\n");
    assertEquals((await live.load()).config.fold.dwell_secs, 7);
    await Deno.writeTextFile(path, '[fold]\ndwell_secs = "seven"\n');
    assertEquals((await live.load()).config.fold.dwell_secs, 7);
    assertEquals((await live.load()).config.fold.dwell_secs, 7);
    assertEquals(warned.length, 1, warned.join("\n"));
    assertEquals(warned[0].startsWith(`tma: keeping the previous config: config ${path}`), true);
    await Deno.writeTextFile(path, "[fold]\ndwell_secs = 9\n");
    assertEquals((await live.load()).config.fold.dwell_secs, 9);
    assertEquals(warned.length, 1);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("LiveSettings G3: a broken config at the first load fails the command", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${dir}/config.toml`, "[nosuch]\n");
    const live = new LiveSettings({
      globals: { config: `${dir}/config.toml`, noConfig: false },
      env: (name) => (name === "HOME" ? dir : undefined),
      warn: () => undefined,
    });
    await assertRejects(() => live.load(), Error, "unknown key");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

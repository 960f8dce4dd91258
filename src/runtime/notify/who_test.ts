import { assertEquals } from "../../../tests/harness/assert.ts";
import { daemonServes, optedIn } from "./who.ts";

Deno.test("optedIn() G11: exactly 1 turns the env override on, any other set value off", () => {
  assertEquals(optedIn({ config: false, envValue: "1" }), true);
  assertEquals(optedIn({ config: true, envValue: "true" }), false);
  assertEquals(optedIn({ config: true, envValue: "" }), false);
  assertEquals(optedIn({ config: true, envValue: undefined }), true);
});

Deno.test("daemonServes() U25: no socket means no daemon", async () => {
  const dir = await Deno.makeTempDir();
  try {
    assertEquals(
      await daemonServes("/tmp/tmux-7/default", (n) => n === "XDG_RUNTIME_DIR" ? dir : undefined),
      false,
    );
    assertEquals(await daemonServes("", () => undefined), false);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

import { assertEquals } from "../../tests/harness/assert.ts";
import { DENO_RUN_FLAGS, launcherSetup, resolveLauncher } from "./launcher.ts";

Deno.test("a compiled tma is its own launcher; deno run embeds deno, the flags and mod.ts", () => {
  assertEquals(
    resolveLauncher({ execPath: "/usr/local/bin/tma", mainModule: "file:///x/mod.ts" }),
    {
      argv: ["/usr/local/bin/tma"],
      requires: ["/usr/local/bin/tma"],
    },
  );
  assertEquals(
    resolveLauncher({ execPath: "/usr/bin/deno", mainModule: "file:///src/my%20tma/mod.ts" }),
    {
      argv: ["/usr/bin/deno", ...DENO_RUN_FLAGS, "/src/my tma/mod.ts"],
      requires: ["/usr/bin/deno", "/src/my tma/mod.ts"],
    },
  );
  assertEquals(
    resolveLauncher({ execPath: "/usr/bin/deno", mainModule: "file:///m.ts", tmaBin: "/t/tma" })
      .argv,
    ["/t/tma"],
  );
});

Deno.test("launcherSetup() falls back to tma on PATH when the embedded path is gone", async () => {
  const script = `${
    launcherSetup({ argv: ["/nonexistent/tma", "x"], requires: ["/nonexistent/tma"] })
  }; printf '%s ' "$@"`;
  const out = await new Deno.Command("sh", { args: ["-c", script], stdout: "piped" }).output();
  assertEquals(new TextDecoder().decode(out.stdout), "tma ");
  const kept = `${
    launcherSetup({ argv: ["/bin/sh", "-c", ":"], requires: ["/bin/sh"] })
  }; printf '%s|' "$@"`;
  const out2 = await new Deno.Command("sh", { args: ["-c", kept], stdout: "piped" }).output();
  assertEquals(new TextDecoder().decode(out2.stdout), "/bin/sh|-c|:|");
});

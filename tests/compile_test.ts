/**
 * U45: `deno compile` makes one self-contained executable that prints
 * `tma <version>`. Compiling needs Deno's `denort` runtime (`DENORT_BIN`, or a
 * download from Deno's release server). The build is tried once when this
 * file loads; without a runtime the test is ignored, with a note saying why.
 * @module
 */
import { assertEquals } from "./harness/assert.ts";
import { compileBinary, type CompileResult, NoRuntimeError } from "../scripts/compile.ts";
import { ENGINE_VERSION } from "../src/core/version.ts";

const DIR = await Deno.makeTempDir({ prefix: "tma-compile-" });

/** The build, or the error it failed with (rethrown by the test, unless it is "no runtime"). */
const BUILT: CompileResult | Error = await compileBinary({ output: `${DIR}/tma`, skipEmbed: true })
  .catch((error: unknown) => error instanceof Error ? error : new Error(String(error)));

const NO_RUNTIME = BUILT instanceof NoRuntimeError;
if (NO_RUNTIME) {
  console.warn(`compile_test: skipped, cannot compile here: ${BUILT.message.split("\n")[0]}`);
  await Deno.remove(DIR, { recursive: true });
}

Deno.test({
  name: "dist/tma U45: the compiled binary prints tma <version>",
  ignore: NO_RUNTIME,
  fn: async () => {
    try {
      if (BUILT instanceof Error) throw BUILT;
      const out = await new Deno.Command(BUILT.path, {
        args: ["--version"],
        cwd: DIR,
        stdin: "null",
      }).output();
      assertEquals(out.code, 0, new TextDecoder().decode(out.stderr));
      assertEquals(new TextDecoder().decode(out.stdout), `tma ${ENGINE_VERSION}\n`);
    } finally {
      await Deno.remove(DIR, { recursive: true }).catch(() => undefined);
    }
  },
});

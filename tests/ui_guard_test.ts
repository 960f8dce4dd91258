/**
 * R14, pinned on the source text: the picker and watch are dumb surfaces.
 * Their interaction core (`src/ui_core/`) is a pure, message-driven update
 * function; the terminal layer (`src/ui/`) and the commands that host it
 * touch tmux only through the named runtime helpers below, never through
 * `src/tmux/` (the layer map in layering_test.ts holds the folder rules;
 * this test holds the surface files to the helpers by name).
 */
import { assert, assertEquals } from "./harness/assert.ts";
import { edgesOf, loadGraph } from "./harness/source_graph.ts";

const ROOT = new URL("../", import.meta.url);
const GRAPH = await loadGraph(ROOT, { folders: ["src/"], files: ["mod.ts"] });

/** The files of the surfaces: the terminal layer, and the commands and host that run it. */
const SURFACE_FILES = [...GRAPH.keys()].filter((p) =>
  !p.endsWith("_test.ts") &&
  (p.startsWith("src/ui/") || p === "src/cli/surface_host.ts" ||
    p === "src/cli/commands/picker.ts" || p === "src/cli/commands/watch.ts")
);

/** The runtime helpers a surface may reach tmux through. */
const HELPERS = [
  "src/runtime/surface.ts",
  "src/runtime/surface_refresh.ts",
  "src/runtime/wake.ts",
  "src/runtime/jump.ts",
];

Deno.test("R14: the surfaces reach tmux only through the named runtime helpers", () => {
  assert(SURFACE_FILES.length >= 6, SURFACE_FILES.join(", "));
  const problems: string[] = [];
  for (const path of SURFACE_FILES) {
    for (const edge of edgesOf(GRAPH, path)) {
      if (edge.to.startsWith("src/tmux/")) {
        problems.push(`${path}:${edge.line} imports ${edge.to}: go through a runtime helper`);
      }
      if (edge.to.startsWith("src/runtime/") && !HELPERS.includes(edge.to)) {
        problems.push(`${path}:${edge.line} imports ${edge.to}, not one of ${HELPERS.join(", ")}`);
      }
    }
  }
  assertEquals(problems, []);
});

Deno.test("R14: src/ui_core/ is message-driven: one update(model, msg) -> [model, effects]", async () => {
  const text = await Deno.readTextFile(new URL("src/ui_core/surface.ts", ROOT));
  assert(
    /export function update\(model: SurfaceModel, msg: SurfaceMsg\): \[SurfaceModel, Effect\[\]\]/
      .test(text),
    "the update function's shape",
  );
  const core = [...GRAPH.keys()].filter((p) =>
    p.startsWith("src/ui_core/") && !p.endsWith("_test.ts")
  );
  for (const path of core) {
    for (const edge of edgesOf(GRAPH, path)) {
      assert(
        edge.to.startsWith("src/ui_core/") || edge.to.startsWith("src/core/"),
        `${path} imports ${edge.to}`,
      );
    }
  }
});

import { assertEquals, assertThrows } from "../../tests/harness/assert.ts";
import { InstallError } from "./errors.ts";
import {
  inspectManaged,
  installManaged,
  renderTemplate,
  uninstallManaged,
} from "./managed_file.ts";

const TEMPLATE = '// tma:managed-file test v1\nconst WRAPPER = "@@TMA_WRAPPER@@";\n';
const options = { path: "/h/tma.js", flag: "--pi-extension" };

Deno.test("installManaged() I41: the wrapper reference is substituted as a JS string literal", () => {
  assertEquals(
    renderTemplate(TEMPLATE, '/a "b"/tma-hook'),
    '// tma:managed-file test v1\nconst WRAPPER = "/a \\"b\\"/tma-hook";\n',
  );
});

Deno.test("installManaged() I41, I59: install and uninstall refuse a hand-written file, and manage tma's own", () => {
  const rendered = renderTemplate(TEMPLATE, "/a/tma-hook");
  assertEquals(installManaged(null, rendered, options), rendered);
  assertEquals(
    installManaged(renderTemplate(TEMPLATE, "/old/tma-hook"), rendered, options),
    rendered,
  );
  assertEquals(uninstallManaged(rendered, options), null);
  const mine = "export default function (pi) {}\n";
  assertThrows(() => installManaged(mine, rendered, options), InstallError);
  assertThrows(() => uninstallManaged(mine, options), InstallError);
  assertEquals(inspectManaged(mine, rendered), "foreign");
  assertEquals(inspectManaged(null, rendered), "missing");
  assertEquals(inspectManaged(renderTemplate(TEMPLATE, "/old/tma-hook"), rendered), "stale");
  assertEquals(inspectManaged(rendered, rendered), "current");
});

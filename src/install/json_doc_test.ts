import { assertEquals, assertThrows } from "../../tests/harness/assert.ts";
import { SettingsParseError } from "./errors.ts";
import { detectStyle, insertValue, parseDoc, removeValue, replaceValue } from "./json_doc.ts";

Deno.test("detectStyle() finds tabs, the indent width and CRLF", () => {
  assertEquals(detectStyle('{\n\t"a": 1\n}'), { indent: "\t", eol: "\n" });
  assertEquals(detectStyle('{\r\n    "a": {\r\n        "b": 1\r\n    }\r\n}'), {
    indent: "    ",
    eol: "\r\n",
  });
  assertEquals(detectStyle("{}"), { indent: "  ", eol: "\n" });
});

Deno.test("insertValue() follows the neighbours' layout and removeValue() undoes it byte for byte", () => {
  const cases = [
    '{\n  // keep me\n  "a": 1, // trailing\n  "b": [1, 2]\n}\n',
    '{\n\t"a": {\n\t\t"x": true\n\t}\n}',
    '{"a":1,"b":2}',
    "{}\n",
    '{\r\n    "a": 1\r\n}\r\n',
  ];
  for (const text of cases) {
    const added = insertValue(text, ["hooks"], { Stop: [{ command: "x" }] });
    assertEquals(removeValue(added, ["hooks"]), text);
    const deeper = insertValue(added, ["hooks", "Stop", -1], { command: "y" });
    assertEquals(removeValue(deeper, ["hooks", "Stop", 1]), added);
  }
});

Deno.test("insertValue() lays a new property out on its own lines", () => {
  assertEquals(
    insertValue('{\n  "a": 1\n}\n', ["b"], { c: [1] }),
    '{\n  "a": 1,\n  "b": {\n    "c": [\n      1\n    ]\n  }\n}\n',
  );
  assertEquals(insertValue("{}\n", ["a"], 1), '{\n  "a": 1\n}\n');
});

Deno.test("replaceValue() touches only the value, even on a one-line object", () => {
  const text = '{ "statusLine": { "type": "command", "command": "a.sh", "padding": 0 } }';
  assertEquals(
    replaceValue(text, ["statusLine", "command"], "b.sh"),
    '{ "statusLine": { "type": "command", "command": "b.sh", "padding": 0 } }',
  );
});

Deno.test("parseDoc() R19: reports the path, line and column of a broken file", () => {
  const error = assertThrows(
    () => parseDoc("/h/settings.json", '{\n  "a": 1,\n  "b" 2\n}'),
    SettingsParseError,
  );
  assertEquals(error.line, 3);
  assertEquals(error.message.startsWith("/h/settings.json:3:"), true);
  assertThrows(() => parseDoc("/h/s.json", "[1, 2]"), SettingsParseError);
});

import { assertEquals } from "../../../tests/harness/assert.ts";
import { parsePayload, stringField } from "./payload.ts";

Deno.test("parsePayload() D43: reads the top-level snake_case session_id", () => {
  const p = parsePayload('{"session_id":"s1","sessionId":"no","nested":{"session_id":"deep"}}');
  assertEquals(p?.sessionId, "s1");
});

Deno.test("parsePayload() D43: ignores a camelCase or nested session id", () => {
  assertEquals(parsePayload('{"sessionId":"no"}')?.sessionId, null);
  assertEquals(parsePayload('{"info":{"session_id":"deep"}}')?.sessionId, null);
  assertEquals(parsePayload('{"session_id":""}')?.sessionId, null);
  assertEquals(parsePayload('{"session_id":7}')?.sessionId, null);
});

Deno.test("parsePayload() reads an empty payload as no fields", () => {
  assertEquals(parsePayload(""), { raw: "", fields: {}, sessionId: null });
  assertEquals(parsePayload("  \n")?.fields, {});
});

Deno.test("parsePayload() refuses garbage and non-object JSON", () => {
  assertEquals(parsePayload("not json"), null);
  assertEquals(parsePayload("{truncated"), null);
  assertEquals(parsePayload("[1,2]"), null);
  assertEquals(parsePayload('"text"'), null);
  assertEquals(parsePayload("null"), null);
});

Deno.test("parsePayload() keeps the raw text for matchers", () => {
  const raw = '{"notification_type":"permission_prompt"}';
  assertEquals(parsePayload(raw)?.raw, raw);
});

Deno.test("stringField() takes the first non-empty spelling", () => {
  assertEquals(stringField({ requestID: "per_1" }, ["request_id", "requestID"]), "per_1");
  assertEquals(stringField({ request_id: "a", requestID: "b" }, ["request_id", "requestID"]), "a");
  assertEquals(stringField({ request_id: "" }, ["request_id"]), null);
  assertEquals(stringField({ request_id: 3 }, ["request_id"]), null);
});

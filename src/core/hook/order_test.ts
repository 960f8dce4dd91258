import { assert, assertEquals } from "../../../tests/harness/assert.ts";
import { formatOrderKey, orderKeyOf, orderPatterns, relationTo } from "./order.ts";

const ORDER = { turn: ["prompt_id"], call: ["tool_name", "tool_input"] };
const BASH = { prompt_id: "p1", tool_name: "Bash", tool_input: { command: "touch x" } };
const key = (phase: number, fields: Record<string, unknown>) =>
  orderKeyOf({ order: ORDER, phase, fields })!;

/** fnmatch as tmux's `#{m:}` uses it, for the patterns `orderPatterns` writes. */
function fnmatch(pattern: string, text: string): boolean {
  const re = pattern.replace(/[.]/g, "\\.").replace(/\*/g, ".*");
  return new RegExp(`^${re}$`).test(text);
}

Deno.test("orderKeyOf() D47: the turn and call of a payload, hashed; none without a turn or a phase", () => {
  const pre = key(1, BASH);
  assertEquals(pre.phase, 1);
  assert(/^[0-9a-f]{8}$/.test(pre.turn) && /^[0-9a-f]{8}$/.test(pre.call!));
  // The same call in a PermissionRequest (no tool_use_id there) is the same key but for the phase.
  assertEquals({ ...key(2, { ...BASH, permission_suggestions: [] }), phase: 1 }, pre);
  assertEquals(key(0, { prompt_id: "p1", prompt: "hi" }).call, null);
  assert(key(1, { ...BASH, tool_input: { command: "rm x" } }).call !== pre.call);
  assertEquals(orderKeyOf({ order: ORDER, phase: 1, fields: { tool_name: "Bash" } }), null);
  assertEquals(orderKeyOf({ order: ORDER, phase: undefined, fields: BASH }), null);
  assertEquals(orderKeyOf({ order: undefined, phase: 1, fields: BASH }), null);
  assertEquals(formatOrderKey(key(0, { prompt_id: "p1" })), `${pre.turn}.-.0`);
});

Deno.test("relationTo() D47, X10: one turn's phases order its events; other turns and calls are unrelated", () => {
  const submit = key(0, { prompt_id: "p1" });
  const pre = key(1, BASH);
  const ask = key(2, BASH);
  const post = key(3, BASH);
  const stop = key(4, { prompt_id: "p1" });
  assertEquals(relationTo(formatOrderKey(ask), pre), "later");
  assertEquals(relationTo(formatOrderKey(pre), ask), "earlier");
  assertEquals(relationTo(formatOrderKey(submit), ask), "earlier");
  assertEquals(relationTo(formatOrderKey(ask), submit), "later");
  assertEquals(relationTo(formatOrderKey(post), stop), "earlier");
  assertEquals(relationTo(formatOrderKey(stop), post), "later");
  assertEquals(relationTo(formatOrderKey(ask), ask), null);
  // Another call of the turn, or another turn: the clock decides.
  const other = key(1, { ...BASH, tool_input: { command: "ls" } });
  assertEquals(relationTo(formatOrderKey(ask), other), null);
  assertEquals(relationTo(formatOrderKey(ask), key(1, { ...BASH, prompt_id: "p2" })), null);
  assertEquals(relationTo(undefined, pre), null);
  assertEquals(relationTo("garbage", pre), null);
});

Deno.test("orderPatterns() D47: the guard's fnmatch patterns decide as relationTo does", () => {
  const fields = [
    { prompt_id: "p1" },
    BASH,
    { ...BASH, tool_input: { command: "ls" } },
    { ...BASH, prompt_id: "p2" },
  ];
  const keys = fields.flatMap((f) => [0, 1, 2, 3, 4, 9].map((phase) => key(phase, f)));
  for (const mine of keys) {
    const { earlier, later } = orderPatterns(mine);
    for (const stored of keys.map(formatOrderKey)) {
      const matched = earlier.some((p) => fnmatch(p, stored))
        ? "earlier"
        : later.some((p) => fnmatch(p, stored))
        ? "later"
        : null;
      assertEquals(matched, relationTo(stored, mine), `${stored} against ${formatOrderKey(mine)}`);
    }
  }
});
